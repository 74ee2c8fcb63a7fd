/**
 * The scenario shapes every CLI's table repeats (see ../types.ts): each builder fixes what the
 * standard scenario is — its name, its input keys, the verdicts that define it — and takes only
 * what differs per CLI (its wait condition, its own wording, its time-outs). A table reads as the
 * list of its screens; what a shape asserts is said once, here.
 *
 * Every call returns fresh objects: no two tables share a part one of them could change.
 */
import type { ErrorKind, Step } from "../standins/step_script.ts";
import type { Action, Expect, Scenario, ScriptStep, Session, Wait } from "../types.ts";

/** The prompt of the turns the stand-in holds or fails (busy, the API errors). */
const SUMMARISE = "summarise the notes";

type Verdicts = Record<string, unknown>;

/** What a table says of a screen whose input and verdicts the shape fixes. */
export interface Reached {
  until: Wait;
  /** The CLI's own wording for the screen (Scenario.defining). */
  defining?: string[];
  timeoutMs?: number;
  /** The lab's fixture name, where it differs from the scenario's. */
  fixture?: string;
}

/** The scenario with the parts a table left out dropped, so it equals the one written by hand. */
function scenario(s: Scenario): Scenario {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as Scenario;
}

function reached(
  name: string,
  r: Reached,
  input: Pick<Scenario, "script" | "steps">,
  expect: Expect,
): Scenario {
  return scenario({
    name,
    fixture: r.fixture,
    ...input,
    until: r.until,
    defining: r.defining,
    timeoutMs: r.timeoutMs,
    expect,
  });
}

/**
 * The command of the bash-prompt scenario and what proves it ran: typed-input types `typed`,
 * bash-prompt sends it, the scripted tool call runs `command` (which creates `file` in the project)
 * and the stand-in's reply after it is `done`. Two wordings, each the one its tables' fixtures were
 * recorded with, named by their file.
 */
export interface MarkerRun {
  typed: string;
  file: string;
  command: string;
  done: string;
}

function markerRun(typed: string, file: string, done: string): MarkerRun {
  return Object.freeze({ typed, file, command: `touch ${file}`, done });
}

/** Codex's, Gemini CLI's and OpenCode's. */
export const LAB_MARKER = markerRun(
  "summarise the notes in notes.txt",
  "lab_marker.txt",
  "Created the marker file.",
);

/** Qwen Code's, Copilot's and Cline's. */
export const VERIFY_MARKER = markerRun(
  "create the marker file",
  "verify_marker.txt",
  "The marker file is in place.",
);

/** A scripted call of the CLI's tool `name` with its JSON arguments. */
export function tool(name: string, args: Record<string, unknown>): Step {
  return { kind: "tool", name, args };
}

/** A scripted call of a shell tool taking `{ command, description }` (Gemini, Qwen, OpenCode, Copilot). */
export function shellTool(name: string): (command: string, description: string) => Step {
  return (command, description) => tool(name, { command, description });
}

/** Every main-turn request fails with this status and canned body, for as long as a scenario lasts. */
export function failing(
  status: number,
  error: ErrorKind,
  more: { retryAfterS?: number | null } = {},
): ScriptStep[] {
  return [{ kind: "error", status, error, times: 1000, ...more }];
}

/** A turn an error ended: after the one request, the CLI's busy line gone and the screen still. */
export function ended(busyLine: string): Wait {
  return { requests: 1, hides: [busyLine], stableMs: 2000 };
}

type SessionParts = Omit<Session, "name" | "scenarios">;

/** The "main" session: the CLI's screens that one start of it can reach in turn. */
export function main(scenarios: Scenario[], more: SessionParts = {}): Session {
  return { name: "main", ...more, scenarios };
}

/** A session of one scenario: a screen that needs a CLI of its own (an error stays on screen). */
function alone(name: string, only: Scenario, more: SessionParts & { name?: string }): Session {
  return { name, ...more, scenarios: [only] };
}

/** The input box, empty: the first screen of a main session. */
function ready(defining: string[], verdicts: Verdicts = {}): Scenario {
  return {
    name: "ready",
    until: { stableMs: 800 },
    defining,
    expect: { state: "idle", verdicts: { input_box: null, ...verdicts } },
  };
}

/** Text typed and not sent: the input box holds exactly it (bash-prompt then sends it). */
function typedInput(text: string): Scenario {
  return {
    name: "typed-input",
    steps: [{ type: text }],
    until: { shows: [text], stableMs: 600 },
    expect: { state: "idle", verdicts: { input_box: text } },
  };
}

/** The first two screens of a main session: {@link ready}, then {@link typedInput}. */
export function inputBox(defining: string[], typed: string, verdicts: Verdicts = {}): Scenario[] {
  return [ready(defining, verdicts), typedInput(typed)];
}

/**
 * The shell-command permission prompt, raised by sending the typed-input text: a pause, then
 * Enter (a burst of keys ending in Enter reads as a paste to some CLIs).
 */
export function commandPrompt(
  r: Reached & { script: ScriptStep[]; pauseMs?: number; verdicts: Verdicts },
): Scenario {
  const steps: Action[] = [{ pause: r.pauseMs ?? 700 }, { keys: ["Enter"] }];
  return reached("bash-prompt", r, { script: r.script, steps }, {
    state: "prompt",
    verdicts: { permission_prompt: true, ...r.verdicts },
  });
}

/**
 * bash-prompt for a marker run: the shell tool (`shell`) is called for `run.command`, the reply
 * after it is `run.done`, and the prompt names the command (fixture "shell-prompt").
 */
export function markerPrompt(
  shell: (command: string, description: string) => Step,
  run: MarkerRun,
  r: Omit<Reached, "fixture"> & { pauseMs?: number; verdicts?: Verdicts },
): Scenario {
  return commandPrompt({
    fixture: "shell-prompt",
    script: [shell(run.command, "Create the marker file"), { kind: "text", text: run.done }],
    ...r,
    verdicts: { command: run.command, ...r.verdicts },
  });
}

/** A permission prompt raised by a sent request whose reply is the scripted tool call. */
export function toolPrompt(
  name: string,
  r: Reached & { script: ScriptStep[]; submit: string; verdicts: Verdicts },
): Scenario {
  return reached(name, r, { script: r.script, steps: [{ submit: r.submit }] }, {
    state: "prompt",
    verdicts: r.verdicts,
  });
}

/** The prompt to edit the notes file, raised by the scripted `edit` call; `reply` ends the turn. */
export function editPrompt(
  name: string,
  edit: Step,
  reply: string,
  r: Reached & { verdicts: Verdicts },
): Scenario {
  return toolPrompt(name, {
    fixture: "file-edit-prompt",
    script: [edit, { kind: "text", text: reply }],
    submit: "edit the notes file",
    ...r,
  });
}

/** The prompt for `rm -rf build` that escape-rejected then turns down. */
export function rejectPrompt(tool: (command: string, why: string) => Step, r: Reached): Scenario {
  return toolPrompt("reject-prompt", {
    fixture: "shell-prompt-rm",
    script: [tool("rm -rf build", "Clean the build folder")],
    submit: "clean the build folder",
    ...r,
    verdicts: { command: "rm -rf build" },
  });
}

/**
 * `drover approve` on the prompt on screen, through the real gate: it answers option 1 with
 * `key`, and the stand-in's next request proves the CLI took the answer.
 */
export function approve(
  key: "1" | "Enter",
  more: { name?: string; timeoutMs?: number } = {},
): Scenario {
  return scenario({
    name: more.name ?? "approve",
    steps: [{ approve: true }],
    until: { requests: 1 },
    timeoutMs: more.timeoutMs,
    expect: { approve: { outcome: "approved", key } },
  });
}

/** An idle screen with no prompt live: a prompt answered (and the turn done) or turned down. */
export function noPrompt(
  name: string,
  r: Reached & { steps?: Action[]; verdicts?: Verdicts },
): Scenario {
  return reached(name, r, { steps: r.steps }, {
    state: "idle",
    verdicts: { live_prompt: false, ...r.verdicts },
  });
}

/**
 * bash-output for a marker run: the file the command created and the reply after it on a still
 * screen, no prompt live (fixture "shell-approved").
 */
export function markerRan(
  run: MarkerRun,
  r: Omit<Reached, "until" | "fixture"> & { verdicts?: Verdicts } = {},
): Scenario {
  return noPrompt("bash-output", {
    fixture: "shell-approved",
    until: { file: run.file, shows: [run.done], stableMs: 800 },
    ...r,
  });
}

/** The permission prompt turned down, with Escape unless `steps` says otherwise. */
export function escapeRejected(r: Reached & { steps?: Action[] }): Scenario {
  return noPrompt("escape-rejected", { ...r, steps: r.steps ?? [{ keys: ["Escape"] }] });
}

/**
 * The text of a reply that quotes a permission prompt in prose: an opening line, the prompt's own
 * lines set apart by blank lines, then what the reply says of the screen around it.
 */
export function quotingReply(opening: string, prompt: string[], ...after: string[]): string {
  return [opening, "", ...prompt, "", ...after].join("\n");
}

/**
 * The model's answer quotes the CLI's own prompt words (`text`); the screen must stay an idle
 * one, never a live or permission prompt. `r` (the question, the wait) replaces the one the Chat
 * Completions and Gemini tables share.
 */
export function narration(
  text: string,
  r: Reached & { submit: string } = {
    submit: "what does the confirmation look like?",
    until: { requests: 1, shows: ["Nothing is waiting"], stableMs: 800 },
    timeoutMs: 60_000,
  },
): Scenario {
  return reached("narration", r, {
    script: [{ kind: "text", text }],
    steps: [{ submit: r.submit }],
  }, {
    state: "idle",
    verdicts: { live_prompt: false, permission_prompt: false },
  });
}

/** A turn in flight: the stand-in holds its reply (or streams `script` slowly). */
export function busy(r: Reached & { script?: ScriptStep[] }): Scenario {
  return reached("busy", r, {
    script: r.script ?? [{ kind: "hang" }],
    steps: [{ submit: SUMMARISE }],
  }, { state: "busy", verdicts: { mid_response: true } });
}

/** The busy turn interrupted (with Escape unless `steps` says otherwise): idle again. */
export function interrupted(r: Reached & { steps?: Action[] }): Scenario {
  return reached("interrupted", r, { steps: r.steps ?? [{ keys: ["Escape"] }] }, {
    state: "idle",
    verdicts: { mid_response: false },
  });
}

/** A request sent (`submit`, else the busy one) that the stand-in answers with `script`'s errors. */
type Failed = Reached & { script: ScriptStep[]; submit?: string };

/** A failed request's screen may take a minute by default: the CLI's own retries come first. */
function failed(name: string, r: Failed, expect: Expect): Scenario {
  const steps: Action[] = [{ submit: r.submit ?? SUMMARISE }];
  return reached(
    name,
    { ...r, timeoutMs: r.timeoutMs ?? 60_000 },
    { script: r.script, steps },
    expect,
  );
}

/** The CLI retrying a failed request: still busy, with `verdicts`. */
export function retrying(r: Failed & { verdicts: Verdicts }): Scenario {
  return failed("retrying", r, { state: "busy", verdicts: r.verdicts });
}

/** The API refused the key: the CLI cannot go on. */
function authFailure(r: Failed): Scenario {
  return failed("auth-failure", r, { state: "unavailable", verdicts: { cli_unavailable: "*" } });
}

/** Out of credit or quota: the CLI cannot go on (plus `verdicts`). */
export function outOfCredit(r: Failed & { verdicts?: Verdicts }): Scenario {
  return failed("out-of-credit", r, {
    state: "unavailable",
    verdicts: { cli_unavailable: "*", ...r.verdicts },
  });
}

/** The "retry" session: {@link retrying} in a CLI of its own. */
export function retrySession(r: Failed & { verdicts: Verdicts }): Session {
  return alone("retry", retrying(r), {});
}

/** The "auth" session: {@link authFailure}, every request refused with 401 unless `script` says otherwise. */
export function authSession(
  r: Omit<Failed, "script"> & { script?: ScriptStep[] },
  more: SessionParts = {},
): Session {
  return alone("auth", authFailure({ script: failing(401, "auth"), ...r }), more);
}

/**
 * The "quota" session (or `more.name`): {@link outOfCredit}, every request refused with a 429 for
 * quota unless `script` says otherwise.
 */
export function quotaSession(
  r: Omit<Failed, "script"> & { script?: ScriptStep[]; verdicts?: Verdicts },
  more: SessionParts & { name?: string } = {},
): Session {
  return alone("quota", outOfCredit({ script: failing(429, "quota"), ...r }), more);
}
