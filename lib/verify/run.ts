/**
 * Runs one CLI's scenario table (lib/scenarios) against an installed executable: a private tmux
 * server, one throwaway root (HOME, project, stand-in) per session, sessions side by side, each
 * scenario's screen judged by `detect()` with the resolved profile, exactly as `drive` would see it.
 *
 * Every process it starts is ended when it returns, also when `signal` aborts (Ctrl-C): each
 * session kills its pane's whole process tree, and the server is killed with every tree still on
 * it. Temp roots are removed.
 */
import type { Config } from "../config/load.ts";
import { approve, type ApproveOutcome } from "../approve/approve.ts";
import { makeJudge } from "../approve/judge.ts";
import { detect, type Verdicts } from "../detect/mod.ts";
import { type Evidence, evidenceFor, STATE_FIELDS } from "../profile/evidence.ts";
import type { FieldName } from "../profile/fields.ts";
import type { ResolvedProfile } from "../profile/resolve.ts";
import { HOMES, paneEnv } from "../scenarios/homes.ts";
import { fillScript, type Standin, startStandin } from "../scenarios/standin.ts";
import { reached } from "../scenarios/versions.ts";
import {
  type Action,
  type Expect,
  type Scenario,
  type ScenarioTable,
  type Session,
  type Size,
  STANDARD_SCENARIOS,
  VERIFY_SIZE,
  type Wait,
} from "../scenarios/types.ts";
import { capturePane } from "../tmux/capture.ts";
import { socketPath } from "../tmux/options.ts";
import { endSession, shutdown } from "./session_end.ts";
import { resolveTarget } from "../tmux/panes.ts";
import {
  newSizedSession,
  paneExit,
  type PrivateServer,
  privateServerName,
  startPrivateServer,
} from "../tmux/private.ts";
import { sendKeys, typeText } from "../tmux/send.ts";
import { untornCapture } from "./untorn.ts";
import { sleep as baseSleep } from "../base/sleep.ts";

export type Status = "hold" | "drift" | "skipped" | "not-run";

/** A profile field involved in a drift, with the lines of the screen that match it. */
export interface FieldReport {
  field: FieldName;
  value: unknown;
  /** Why it is listed: the expected side found nothing, or the seen side matched something. */
  role: "expected-missing" | "expected-matched" | "seen-matched";
  matches: Evidence[];
}

export interface Screen {
  plain: string;
  styled: string;
  title: string;
}

export interface ScenarioResult {
  scenario: string;
  session: string;
  status: Status;
  expect: Expect;
  /** The verdicts seen (the ones the expectation names, plus state). */
  seen: Record<string, unknown> | null;
  /** One line per unmet expectation ("state idle, expected busy"). */
  problems: string[];
  fields: FieldReport[];
  /** Why a scenario was skipped or not run, or what was not reached. */
  reason: string | null;
  /** The CLI's own wording for the state that was not on the screen (a hint, not a failure). */
  wording_missing: string[];
  approve: Pick<ApproveOutcome, "outcome" | "reason" | "key" | "sent" | "message"> | null;
  ms: number;
  screen: Screen | null;
}

export interface RunTarget {
  table: ScenarioTable;
  /** Absolute path of the executable. */
  exec: string;
  profile: ResolvedProfile;
  config: Config;
  /** PATH handed to the CLI (node-based CLIs need node on it). */
  path: string;
  /** The CLI's version (`--version`), for sessions that exist only from some version on. */
  version?: string | null;
}

export interface RunOptions {
  /** Sessions of the table run side by side (default: all of them, at most 5). */
  concurrency?: number;
  /** Without it the first drift stops the run: later scenarios are reported as not run. */
  keepGoing: boolean;
  signal: AbortSignal;
  /** Where throwaway roots are made (removed afterwards). */
  tmpRoot: string;
  onResult?: (r: ScenarioResult) => void;
  /** Grace for the CLI's own wording once a screen is reached (default {@link WORDING_GRACE_MS}). */
  wordingGraceMs?: number;
  /** Pane size (default VERIFY_SIZE). The lab runs the tables at more than one. */
  size?: Size;
  /** Only these sessions of the table (the lab runs each as a job of its own). */
  sessions?: string[];
  /** Make the session's HOME and project right in `tmpRoot` (one session per call; the lab). */
  flatRoot?: boolean;
  /**
   * A server someone else owns and ends (the lab's): used as is, never killed here. Each
   * session's process tree is still ended when the session is done.
   */
  server?: PrivateServer;
}

/** Which profile fields decide each verdict a table may expect. */
export const VERDICT_FIELDS: Record<string, readonly FieldName[]> = {
  command: ["command_header_markers", "command_box_markers", "command_line_pattern"],
  file_path: ["file_prompt_pattern"],
  input_box: ["input_sigils", "input_line_pattern", "input_placeholder_markers"],
  permission_prompt: [
    "live_prompt_markers",
    "approval_markers",
    "option_line_pattern",
    "command_header_markers",
    "command_box_markers",
    "file_prompt_pattern",
  ],
  live_prompt: ["live_prompt_markers", "option_line_pattern"],
  mid_response: ["mid_response_markers", "mid_response_pattern", "activity_line_pattern"],
  background: ["background_pattern"],
  stream_error: ["stream_error_markers"],
  cli_unavailable: ["cli_unavailable_markers"],
  mode: ["mode_accept_edits_markers", "mode_interactive_markers"],
  broad_grant_option: ["broad_grant_marker", "broad_grant_markers", "option_line_pattern"],
  choice_row: ["choice_row_markers"],
};

class Aborted extends Error {
  override name = "Aborted";
}

/** A step's own wait (`await`) was not met: the scenario's screen cannot be reached. */
class StepFailed extends Error {
  override name = "StepFailed";
  constructor(message: string, readonly screen: Screen | null) {
    super(message);
  }
}

const POLL_MS = 250;

/**
 * How long each of the gate's watching windows lasts after verify's `drover approve` step. verify
 * runs a CLI's sessions side by side on a shared machine: OpenCode under load once redrew its
 * answered choice row only after both default 3 s windows (unconfirmed, in CI). verify judges which
 * key the gate sends, not how fast the CLI redraws.
 */
const APPROVE_SETTLE_MS = 6_000;

/**
 * How long a reached screen may take to show the CLI's own wording (`defining`) before it is judged.
 * `until` can be met a moment early on a loaded machine: Qwen Code 0.15.10 once showed its shell
 * call, its busy line gone and the screen still for 1.2 s, with the permission prompt not yet drawn
 * 3 s later (in CI). A release that reworded the screen costs this much per scenario, then shows as
 * drift.
 */
export const WORDING_GRACE_MS = 8_000;

/** The one sleep, for a run that ends when interrupted: an abort rejects with Aborted. */
async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw new Aborted("interrupted");
  await baseSleep(ms, signal);
  if (signal.aborted) throw new Aborted("interrupted");
}

/** Results in report order: the standard set first (in its order), then a table's extras. */
export function orderResults(results: ScenarioResult[]): ScenarioResult[] {
  const rank = (n: string) => {
    const i = (STANDARD_SCENARIOS as readonly string[]).indexOf(n);
    return i < 0 ? STANDARD_SCENARIOS.length : i;
  };
  return [...results].sort((a, b) => rank(a.scenario) - rank(b.scenario));
}

function blank(result: Partial<ScenarioResult> & { scenario: string; session: string }) {
  return {
    status: "not-run" as Status,
    expect: {},
    seen: null,
    problems: [],
    fields: [],
    reason: null,
    wording_missing: [],
    approve: null,
    ms: 0,
    screen: null,
    ...result,
  } as ScenarioResult;
}

/** Judge a screen against an expectation (pure; exported for tests). */
export function judge(
  expect: Expect,
  v: Verdicts,
  profile: ResolvedProfile,
  plain: string,
): Pick<ScenarioResult, "seen" | "problems" | "fields"> {
  const seen: Record<string, unknown> = {};
  const problems: string[] = [];
  const fields = new Map<FieldName, FieldReport>();
  const add = (field: FieldName, role: FieldReport["role"], matches: Evidence[]) => {
    if (fields.has(field)) return;
    const value = profile.values[field];
    // An unset field (an empty marker list included) decided nothing: nothing to show.
    if (value === null || value === undefined || value === "") return;
    if (Array.isArray(value) && value.length === 0) return;
    fields.set(field, { field, value, role, matches: matches.slice(0, 3) });
  };
  const explain = (expectedFields: readonly FieldName[], seenFields: readonly FieldName[]) => {
    for (const f of expectedFields) {
      const ev = evidenceFor(plain, profile, [f]);
      add(f, ev.length ? "expected-matched" : "expected-missing", ev);
    }
    for (const f of seenFields) {
      const ev = evidenceFor(plain, profile, [f]);
      if (ev.length) add(f, "seen-matched", ev);
    }
  };
  const record = v as unknown as Record<string, unknown>;
  if (expect.state !== undefined) {
    seen.state = v.state;
    if (v.state !== expect.state) {
      problems.push(`state ${v.state}, expected ${expect.state}`);
      explain(STATE_FIELDS[expect.state], STATE_FIELDS[v.state]);
    }
  }
  for (const [k, want] of Object.entries(expect.verdicts ?? {})) {
    const got = record[k];
    seen[k] = got ?? null;
    const ok = want === "*"
      ? !(got === null || got === undefined || got === false || got === "")
      : JSON.stringify(got ?? null) === JSON.stringify(want);
    if (!ok) {
      problems.push(
        `${k} ${short(got ?? null)}, expected ${want === "*" ? "a value" : short(want)}`,
      );
      const fs = VERDICT_FIELDS[k] ?? [];
      explain(fs, []);
    }
  }
  // Fields whose marker went missing first: they are what changed.
  const order = { "expected-missing": 0, "seen-matched": 1, "expected-matched": 2 };
  return {
    seen,
    problems,
    fields: [...fields.values()].sort((a, b) => order[a.role] - order[b.role]),
  };
}

function short(v: unknown): string {
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

interface Live {
  server: PrivateServer;
  target: RunTarget;
  opts: RunOptions;
  /** Set once a drift was seen and the run should stop (no --keep-going). */
  stop: { now: boolean };
}

/** Run one table; resolves to one result per scenario (standard set + extras), in report order. */
export async function runTable(target: RunTarget, opts: RunOptions): Promise<ScenarioResult[]> {
  const { table } = target;
  const results: ScenarioResult[] = [];
  const emit = (r: ScenarioResult) => {
    results.push(r);
    opts.onResult?.(r);
  };
  if (!opts.sessions) {
    for (const [name, why] of Object.entries(table.skipped)) {
      emit(blank({ scenario: name, session: "-", status: "skipped", reason: why }));
    }
  }
  const queue: Session[] = [];
  for (const s of table.sessions) {
    if (opts.sessions && !opts.sessions.includes(s.name)) continue;
    if (s.since && !reached(target.version, s.since.version)) {
      const why = `${s.since.why} (needs ${table.cli} ${s.since.version} or later)`;
      for (const sc of s.scenarios) {
        emit(blank({ scenario: sc.name, session: s.name, status: "skipped", reason: why }));
      }
    } else queue.push(s);
  }
  if (queue.length === 0) return orderResults(results);
  const server = opts.server ?? await startPrivateServer(privateServerName("drover-verify"));
  const live: Live = { server, target, opts, stop: { now: false } };
  try {
    const worker = async () => {
      while (queue.length > 0) {
        const s = queue.shift()!;
        await runSession(live, s, emit);
      }
    };
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 5, queue.length)) }, worker),
    );
  } finally {
    if (!opts.server) await shutdown(server);
  }
  if (opts.signal.aborted) throw new Aborted("interrupted");
  return orderResults(results);
}

async function runSession(
  live: Live,
  session: Session,
  emit: (r: ScenarioResult) => void,
): Promise<void> {
  const { target, opts } = live;
  const notRun = (s: Scenario, reason: string) =>
    emit(
      blank({
        scenario: s.name,
        session: session.name,
        status: "not-run",
        expect: s.expect,
        reason,
      }),
    );
  if (opts.signal.aborted || live.stop.now) {
    for (const s of session.scenarios) {
      notRun(
        s,
        opts.signal.aborted
          ? "interrupted"
          : "stopped at the first drift (--keep-going runs everything)",
      );
    }
    return;
  }
  // Short paths: the project folder shows on screen (headers, footers, prompts), and a long one
  // wraps a narrow pane's footer. The lab passes a root of its own fixed-length shape.
  const root = opts.flatRoot ? opts.tmpRoot : `${opts.tmpRoot}/${session.name}`;
  if (!opts.flatRoot) await Deno.mkdir(root);
  const home = `${root}/home`;
  const project = `${root}/project`;
  let standin: Standin | undefined;
  let paneId: string | undefined;
  let tmuxSession = `${target.table.cli}-${session.name}`;
  let i = 0;
  try {
    standin = await startStandin(target.table.api);
    const started = await startCli(live, session, tmuxSession, { root, home, project }, standin);
    if (!started.ok) {
      for (const s of session.scenarios) {
        emit(
          blank({
            scenario: s.name,
            session: session.name,
            status: "drift",
            expect: s.expect,
            reason: started.why,
            screen: started.screen,
          }),
        );
        if (!opts.keepGoing) live.stop.now = true;
      }
      i = session.scenarios.length;
      return;
    }
    paneId = started.paneId;
    tmuxSession = started.session;
    let reached = true;
    for (; i < session.scenarios.length; i++) {
      const s = session.scenarios[i];
      if (opts.signal.aborted) throw new Aborted("interrupted");
      if (live.stop.now) break;
      if (!reached) {
        notRun(s, `"${session.scenarios[i - 1].name}" did not reach its screen`);
        continue;
      }
      const r = await runScenario(live, session, s, paneId, standin, project).catch((e) => {
        if (e instanceof Aborted) throw e;
        const why = `error: ${e instanceof Error ? e.message : String(e)}`;
        return blank({
          scenario: s.name,
          session: session.name,
          status: "drift",
          expect: s.expect,
          reason: why,
          problems: [why],
        });
      });
      reached = r.screen !== null && r.reason === null;
      emit(r);
      if (r.status === "drift" && !opts.keepGoing) live.stop.now = true;
    }
  } catch (e) {
    if (!(e instanceof Aborted)) {
      // Not the CLI's doing (tmux, the file system): report it on the scenarios it cost.
      const why = `error: ${e instanceof Error ? e.message : String(e)}`;
      for (; i < session.scenarios.length; i++) {
        const s = session.scenarios[i];
        emit(
          blank({
            scenario: s.name,
            session: session.name,
            status: "drift",
            reason: why,
            problems: [why],
            expect: s.expect,
          }),
        );
      }
    }
  } finally {
    for (; i < session.scenarios.length; i++) {
      const s = session.scenarios[i];
      notRun(
        s,
        opts.signal.aborted
          ? "interrupted"
          : "stopped at the first drift (--keep-going runs everything)",
      );
    }
    await endSession(live.server, tmuxSession, paneId, root);
    await standin?.close().catch(() => {});
    if (!opts.flatRoot) await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

type Started =
  | { ok: true; paneId: string; session: string }
  | { ok: false; why: string; screen: Screen | null };

/** Seed the HOME, start the CLI, wait for its ready screen; one relaunch when that fails. */
async function startCli(
  live: Live,
  session: Session,
  tmuxSession: string,
  dirs: { root: string; home: string; project: string },
  standin: Standin,
): Promise<Started> {
  const { table, exec, path } = live.target;
  let last: Started = { ok: false, why: "not started", screen: null };
  for (let attempt = 0; attempt < 2; attempt++) {
    await Deno.remove(dirs.home, { recursive: true }).catch(() => {});
    await Deno.remove(dirs.project, { recursive: true }).catch(() => {});
    await Deno.mkdir(`${dirs.home}/tmp`, { recursive: true });
    await Deno.mkdir(dirs.project, { recursive: true });
    for (const [rel, content] of Object.entries(session.files ?? {})) {
      const p = `${dirs.project}/${rel}`;
      await Deno.mkdir(p.slice(0, p.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(p, content);
    }
    const seeded = await HOMES[table.home]({
      home: dirs.home,
      project: dirs.project,
      api: standin.url,
      ...(session.settings ? { settings: session.settings } : {}),
    });
    const env = paneEnv({ home: dirs.home }, path, { ...seeded, ...session.env });
    const name = attempt ? `${tmuxSession}-r${attempt}` : tmuxSession;
    const created = await newSizedSession(live.server, {
      session: name,
      cols: (live.opts.size ?? VERIFY_SIZE).cols,
      rows: (live.opts.size ?? VERIFY_SIZE).rows,
      cwd: dirs.project,
      argv: [
        "env",
        "-i",
        ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
        exec,
        ...table.args,
        ...(session.args ?? []),
      ],
    });
    const w = await waitFor(
      live,
      created.paneId,
      table.ready,
      0,
      table.readyTimeoutMs,
      standin,
      "",
    );
    if (w.ok) {
      // The ready scenario's own wording is the best sign the input box takes keys.
      const ready = session.scenarios.find((s) => s.name === "ready");
      if (ready?.defining) await waitWording(live, created.paneId, ready.defining, 8000);
      return { ok: true, paneId: created.paneId, session: name };
    }
    last = { ok: false, why: `the CLI did not start: ${w.why}`, screen: w.screen };
    await endSession(live.server, name, created.paneId, dirs.root);
    if (live.opts.signal.aborted) break;
  }
  return last;
}

async function screenOf(live: Live, paneId: string): Promise<Screen> {
  const cap = await capturePane(live.server, paneId, { styled: true });
  const pane = await resolveTarget(live.server, paneId).catch(() => undefined);
  return { plain: cap.plain, styled: cap.styled ?? "", title: pane?.title ?? "" };
}

async function plainOf(live: Live, paneId: string): Promise<string> {
  return (await capturePane(live.server, paneId)).plain;
}

async function fileExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

type Waited = { ok: true } | { ok: false; why: string; screen: Screen | null };

/** Wait until `w` holds (see Wait); `base` = main requests before the scenario's steps. */
async function waitFor(
  live: Live,
  paneId: string,
  w: Wait,
  base: number,
  timeoutMs: number,
  standin: Standin,
  project: string,
): Promise<Waited> {
  const { signal } = live.opts;
  const deadline = Date.now() + timeoutMs;
  const holds = async (plain: string) =>
    (w.shows ?? []).every((x) => plain.includes(x)) &&
    !(w.hides ?? []).some((x) => plain.includes(x)) &&
    standin.mainCount() - base >= (w.requests ?? 0) &&
    (w.maxRequests === undefined || standin.mainCount() - base <= w.maxRequests) &&
    (w.file === undefined || await fileExists(`${project}/${w.file}`));
  let stableSince = 0;
  let last = "";
  while (true) {
    if (signal.aborted) throw new Aborted("interrupted");
    const plain = await plainOf(live, paneId).catch(() => "");
    const ok = plain.trim() !== "" && await holds(plain);
    if (ok) {
      if (!w.stableMs) break;
      if (plain !== last || stableSince === 0) stableSince = Date.now();
      else if (Date.now() - stableSince >= w.stableMs) break;
    } else stableSince = 0;
    last = plain;
    const exit = await paneExit(live.server, paneId);
    if (exit.dead) {
      return {
        ok: false,
        why: `the CLI exited${exit.status !== undefined ? ` (status ${exit.status})` : ""}`,
        screen: await screenOf(live, paneId).catch(() => null),
      };
    }
    if (Date.now() > deadline) {
      return {
        ok: false,
        why: `not reached within ${Math.round(timeoutMs / 1000)} s (waited for ${describeWait(w)})`,
        screen: await screenOf(live, paneId).catch(() => null),
      };
    }
    await sleep(Math.min(POLL_MS, w.stableMs ?? POLL_MS), signal);
  }
  if (w.settleMs) await sleep(w.settleMs, signal);
  return { ok: true };
}

/** What a wait waited for, in words (for "not reached" reports). */
export function describeWait(w: Wait): string {
  const parts: string[] = [];
  if (w.shows?.length) {
    parts.push(`the screen to show ${w.shows.map((s) => JSON.stringify(s)).join(" and ")}`);
  }
  if (w.hides?.length) parts.push(`${w.hides.map((s) => JSON.stringify(s)).join(" and ")} to go`);
  if (w.requests) {
    parts.push(
      w.maxRequests === w.requests
        ? `exactly ${w.requests} request(s) at the stand-in`
        : `${w.requests} request(s) at the stand-in`,
    );
  }
  if (w.maxRequests !== undefined && w.maxRequests !== w.requests) {
    parts.push(`at most ${w.maxRequests} request(s) at the stand-in`);
  }
  if (w.file) parts.push(`the command to create ${w.file}`);
  if (w.stableMs) parts.push(`the screen to settle for ${w.stableMs} ms`);
  return parts.join(", ") || "the screen";
}

/** Up to `graceMs` for the CLI's own wording; returns the lines still missing. */
async function waitWording(
  live: Live,
  paneId: string,
  defining: readonly string[],
  graceMs: number,
): Promise<string[]> {
  const deadline = Date.now() + graceMs;
  while (true) {
    const plain = await plainOf(live, paneId).catch(() => "");
    const missing = defining.filter((d) => !plain.includes(d));
    if (missing.length === 0 || Date.now() > deadline) return missing;
    await sleep(POLL_MS, live.opts.signal);
  }
}

async function runStep(
  live: Live,
  paneId: string,
  a: Action,
  ctx: { outcome?: ApproveOutcome; base: number; standin: Standin; project: string },
): Promise<void> {
  const { server, opts, target } = live;
  if ("await" in a) {
    const w = await waitFor(
      live,
      paneId,
      a.await,
      ctx.base,
      a.timeoutMs ?? 30_000,
      ctx.standin,
      ctx.project,
    );
    if (!w.ok) throw new StepFailed(w.why, w.screen);
  } else if ("type" in a) await typeText(server, paneId, a.type);
  else if ("submit" in a) {
    await typeText(server, paneId, a.submit);
    const probe = a.submit.slice(0, 20);
    const deadline = Date.now() + 10_000;
    while (!(await plainOf(live, paneId)).includes(probe) && Date.now() < deadline) {
      await sleep(POLL_MS, opts.signal);
    }
    // A burst of keys ending in Enter reads as a paste to some CLIs (Enter becomes a newline).
    await sleep(700, opts.signal);
    await sendKeys(server, paneId, ["Enter"]);
  } else if ("keys" in a) {
    for (const [n, k] of a.keys.entries()) {
      if (n > 0) await sleep(a.gapMs ?? 150, opts.signal);
      await sendKeys(server, paneId, [k]);
    }
  } else if ("pause" in a) await sleep(a.pause, opts.signal);
  else if ("approve" in a) {
    const pane = await resolveTarget(server, paneId);
    ctx.outcome = await approve({
      server,
      pane,
      // A private server has no orchestrator: the CLI's pane is a coding pane.
      orchestrator: { is: false },
      judge: makeJudge(target.table.cli, target.config, pane.title),
      dryRun: false,
      // Its private servers: no other approver sees their panes.
      runtimeBases: [opts.tmpRoot],
      socketPath: await socketPath(server),
      settleMs: APPROVE_SETTLE_MS,
    });
  }
}

async function runScenario(
  live: Live,
  session: Session,
  s: Scenario,
  paneId: string,
  standin: Standin,
  project: string,
): Promise<ScenarioResult> {
  const t0 = Date.now();
  const { target, opts } = live;
  const base = standin.mainCount();
  if (s.script?.length) standin.push(fillScript(s.script, { project }));
  const ctx = { outcome: undefined as ApproveOutcome | undefined, base, standin, project };
  const result = blank({ scenario: s.name, session: session.name, expect: s.expect });
  try {
    for (const a of s.steps ?? []) await runStep(live, paneId, a, ctx);
  } catch (e) {
    if (!(e instanceof StepFailed)) throw e;
    return {
      ...result,
      status: "drift",
      reason: `a step on the way: ${e.message}`,
      screen: e.screen,
      problems: [`a step on the way: ${e.message}`],
      ms: Date.now() - t0,
    };
  }
  const w = await waitFor(live, paneId, s.until, base, s.timeoutMs ?? 30_000, standin, project);
  if (!w.ok) {
    return {
      ...result,
      status: "drift",
      reason: w.why,
      screen: w.screen,
      problems: [w.why],
      approve: ctx.outcome ? approveView(ctx.outcome) : null,
      ms: Date.now() - t0,
    };
  }
  const missing = s.defining?.length
    ? await waitWording(live, paneId, s.defining, opts.wordingGraceMs ?? WORDING_GRACE_MS)
    : [];
  // The reached lines again: a capture taken mid-redraw (a torn frame) is taken again.
  const screen = await untornCapture(
    () => screenOf(live, paneId),
    [...(s.until.shows ?? []), ...(s.defining ?? []).filter((d) => !missing.includes(d))],
    { pollMs: POLL_MS, sleep: (ms) => sleep(ms, opts.signal) },
  );
  const v = detect({ plain: screen.plain, styled: screen.styled }, target.profile, {
    title: screen.title,
  });
  const j = judge(s.expect, v, target.profile, screen.plain);
  if (s.expect.approve) {
    const o = ctx.outcome;
    const want = s.expect.approve;
    j.seen = { ...j.seen, approve: o ? `${o.outcome}${o.key ? ` (key ${o.key})` : ""}` : null };
    if (!o || o.outcome !== want.outcome || o.key !== want.key || o.sent[0] !== want.key) {
      j.problems.push(
        o
          ? `approve ${o.outcome}${o.reason ? ` (${o.reason})` : ""}${
            o.key ? ` with key ${o.key}` : ""
          }, expected ${want.outcome} with key ${want.key}: ${o.message}`
          : "approve did not run",
      );
    }
  }
  return {
    ...result,
    status: j.problems.length ? "drift" : "hold",
    ...j,
    wording_missing: missing,
    approve: ctx.outcome ? approveView(ctx.outcome) : null,
    ms: Date.now() - t0,
    screen,
  };
}

function approveView(o: ApproveOutcome): ScenarioResult["approve"] {
  return { outcome: o.outcome, reason: o.reason, key: o.key, sent: o.sent, message: o.message };
}

export { Aborted };
