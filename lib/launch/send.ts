/**
 * `drover send TARGET`: type text into an agent's input box, press Enter, and prove it was taken.
 *
 * The safety boundary of DESIGN §6 applies, judged on a fresh capture BEFORE anything is typed:
 * the CLI must be idle with an EMPTY input box — never a live prompt or dialog (typed text would
 * answer it), busy or retrying an API error (the text would land mid-turn), a bare shell (it would
 * run it), an unavailable CLI, or text someone already typed (it would merge) — and its window
 * must not have synchronize-panes on (the text would be typed into every synchronized pane).
 * After typing, drover waits until the text shows in the input box, presses Enter, and waits for
 * the box to empty; one more Enter if it did not, then SEND_FAILED. Nothing is sent on any error.
 */
import { DroverError, invalidArgument, panesSynchronized } from "../errors.ts";
import { sleep as baseSleep } from "../base/sleep.ts";
import type { PaneState } from "../detect/mod.ts";

export const SEND_MAX_BYTES = 64 * 1024;

export interface SendObservation {
  gone: boolean;
  state: PaneState | "gone";
  /** Text in the input box; null or "" = empty. */
  input_box: string | null;
  /** A stream error / retry line on screen. */
  stream_error?: string | null;
  /** The pane's window has synchronize-panes on. */
  synchronized?: boolean;
  /** The window, for the message when it is synchronized. */
  window?: string;
}

export interface SendDeps {
  observe(): Promise<SendObservation>;
  type(text: string): Promise<void>;
  enter(): Promise<void>;
  sleep?: (ms: number) => Promise<void>;
}

export interface SendResult {
  state_before: PaneState | "gone";
  state_after: PaneState | "gone";
  enter_presses: number;
  method: "keys" | "paste";
}

/** Only an idle CLI takes text: busy means mid-turn (or retrying), anything else answers a modal. */
const SENDABLE = new Set(["idle"]);

/** The usage error for text over SEND_MAX_BYTES (it never quotes the text). */
export function sendTooLarge(): DroverError {
  return invalidArgument(
    `the text is larger than ${SEND_MAX_BYTES / 1024} KiB; launch with --prompt - instead, or ` +
      "write it to a file and send the path",
    { limit_bytes: SEND_MAX_BYTES },
  );
}

/** Validate text to send: no control characters except newline and tab. */
export function validateSendText(text: string): string {
  if (text.trim() === "") {
    throw new DroverError("EMPTY_INPUT", "nothing to send: give the text as arguments or on stdin");
  }
  if (new TextEncoder().encode(text).length > SEND_MAX_BYTES) throw sendTooLarge();
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) {
    throw invalidArgument(
      "the text contains control characters (only newline and tab are allowed)",
    );
  }
  return text;
}

const empty = (s: string | null) => s === null || s.trim() === "";

/** Why a CLI that is not idle takes no text, by its state. */
const NOT_IDLE: Record<string, string> = {
  prompt: "a permission prompt is live: typed text would answer it (use `drover approve`)",
  dialog: "a dialog is open: typed text would answer it",
  shell: "the pane shows a bare shell: the text would run as a command",
  unavailable: "the CLI reports it is unavailable",
  busy: "the CLI is busy mid-turn: wait for it (`drover wait --until idle`), then send",
};

/** How the waits look at the pane: through the caller's observe, every pollMs. */
interface Poll {
  deps: SendDeps;
  sleep: (ms: number) => Promise<void>;
  pollMs: number;
}

/** Observes until pred holds or the pane is gone, for about ms; then once more, whatever it shows. */
async function observeUntil(
  p: Poll,
  pred: (o: SendObservation) => boolean,
  ms: number,
): Promise<SendObservation> {
  const tries = Math.max(1, Math.ceil(ms / p.pollMs));
  for (let i = 0; i < tries; i++) {
    const o = await p.deps.observe();
    if (o.gone || pred(o)) return o;
    await p.sleep(p.pollMs);
  }
  return await p.deps.observe();
}

function refuseBroadcast(o: SendObservation, target: string): void {
  if (o.synchronized) throw panesSynchronized(`not sending to ${target}`, o.window ?? target);
}

/** Busy with a stream error on screen: the CLI is retrying a failed API call. */
function retrying(o: SendObservation): boolean {
  return o.state === "busy" && !!o.stream_error;
}

function notIdleReason(o: SendObservation): string {
  if (retrying(o)) {
    return `the CLI is retrying an API error (${
      JSON.stringify(o.stream_error!.slice(0, 80))
    }): wait until it settles`;
  }
  return NOT_IDLE[o.state] ?? `its state is ${o.state}, not idle`;
}

/** The safety boundary (see the top of this file), judged on the capture before typing. */
function refuseUnsendable(before: SendObservation, target: string): void {
  if (before.gone) throw new DroverError("TARGET_NOT_FOUND", `${target} no longer exists`);
  refuseBroadcast(before, target);
  if (!SENDABLE.has(before.state)) {
    throw new DroverError(
      "SEND_REFUSED",
      `not sending to ${target}: ${notIdleReason(before)}; nothing was typed`,
      { details: { state: retrying(before) ? "retrying" : before.state } },
    );
  }
  if (!empty(before.input_box)) {
    throw new DroverError(
      "SEND_REFUSED",
      `not sending to ${target}: its input box already holds text (${
        JSON.stringify(before.input_box!.slice(0, 60))
      }); clear or submit it first`,
      { details: { state: before.state, input_box: before.input_box } },
    );
  }
}

/** Waits for the typed text to show in the input box; Enter is only pressed once it does. */
async function awaitTyped(p: Poll, target: string, settleMs: number): Promise<SendObservation> {
  const typed = await observeUntil(p, (o) => !empty(o.input_box), settleMs);
  if (typed.gone) throw new DroverError("TARGET_NOT_FOUND", `${target} went away while typing`);
  if (empty(typed.input_box)) {
    throw new DroverError(
      "SEND_FAILED",
      `typed into ${target} but the text never showed in its input box; Enter was not pressed`,
      { details: { state: typed.state } },
    );
  }
  return typed;
}

/**
 * The second Enter races the CLI: a pane that closes between the last look and the key (the CLI
 * took the first Enter and quit) is the pane going away, not an error. A pane gone before the
 * first Enter is an error: nothing was submitted.
 */
async function pressEnter(p: Poll, attempt: number): Promise<SendObservation | "pressed"> {
  try {
    await p.deps.enter();
    return "pressed";
  } catch (e) {
    if (attempt === 0 || !(e instanceof DroverError && e.code === "TARGET_NOT_FOUND")) throw e;
    const now = await p.deps.observe();
    if (!now.gone) throw e;
    return now;
  }
}

/** Presses Enter until the input box empties (or the pane goes), twice at most. */
async function submit(
  p: Poll,
  target: string,
  typed: SendObservation,
  leaveMs: number,
): Promise<{ after: SendObservation; presses: number }> {
  let presses = 0;
  let last = typed;
  for (let attempt = 0; attempt < 2; attempt++) {
    refuseBroadcast(last, target);
    const pressed = await pressEnter(p, attempt);
    if (pressed !== "pressed") return { after: pressed, presses };
    presses++;
    last = await observeUntil(p, (o) => empty(o.input_box), leaveMs);
    if (last.gone || empty(last.input_box)) return { after: last, presses };
  }
  throw new DroverError(
    "SEND_FAILED",
    `pressed Enter twice in ${target} but the text is still in the input box`,
    { details: { enter_presses: presses } },
  );
}

export async function sendText(
  text: string,
  target: string,
  deps: SendDeps,
  opts: { settleMs?: number; leaveMs?: number; pollMs?: number } = {},
): Promise<SendResult> {
  const p: Poll = { deps, sleep: deps.sleep ?? baseSleep, pollMs: opts.pollMs ?? 100 };
  const before = await deps.observe();
  refuseUnsendable(before, target);
  const method = text.includes("\n") ? "paste" : "keys";
  await deps.type(text);
  const typed = await awaitTyped(p, target, opts.settleMs ?? 5000);
  const { after, presses } = await submit(p, target, typed, opts.leaveMs ?? 8000);
  return {
    state_before: before.state,
    state_after: after.gone ? "gone" : after.state,
    enter_presses: presses,
    method,
  };
}
