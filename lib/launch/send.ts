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

export async function sendText(
  text: string,
  target: string,
  deps: SendDeps,
  opts: { settleMs?: number; leaveMs?: number; pollMs?: number } = {},
): Promise<SendResult> {
  const sleep = deps.sleep ?? baseSleep;
  const poll = opts.pollMs ?? 100;
  const noBroadcast = (o: SendObservation) => {
    if (o.synchronized) throw panesSynchronized(`not sending to ${target}`, o.window ?? target);
  };
  const before = await deps.observe();
  if (before.gone) throw new DroverError("TARGET_NOT_FOUND", `${target} no longer exists`);
  noBroadcast(before);
  if (!SENDABLE.has(before.state)) {
    const retrying = before.state === "busy" && before.stream_error;
    const why: Record<string, string> = {
      prompt: "a permission prompt is live: typed text would answer it (use `drover approve`)",
      dialog: "a dialog is open: typed text would answer it",
      shell: "the pane shows a bare shell: the text would run as a command",
      unavailable: "the CLI reports it is unavailable",
      busy: "the CLI is busy mid-turn: wait for it (`drover wait --until idle`), then send",
    };
    const reason = retrying
      ? `the CLI is retrying an API error (${
        JSON.stringify(before.stream_error!.slice(0, 80))
      }): wait until it settles`
      : why[before.state] ?? `its state is ${before.state}, not idle`;
    throw new DroverError(
      "SEND_REFUSED",
      `not sending to ${target}: ${reason}; nothing was typed`,
      { details: { state: retrying ? "retrying" : before.state } },
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
  const method = text.includes("\n") ? "paste" : "keys";
  await deps.type(text);

  const until = async (pred: (o: SendObservation) => boolean, ms: number) => {
    const tries = Math.max(1, Math.ceil(ms / poll));
    for (let i = 0; i < tries; i++) {
      const o = await deps.observe();
      if (o.gone || pred(o)) return o;
      await sleep(poll);
    }
    return await deps.observe();
  };

  const typed = await until((o) => !empty(o.input_box), opts.settleMs ?? 5000);
  if (typed.gone) throw new DroverError("TARGET_NOT_FOUND", `${target} went away while typing`);
  if (empty(typed.input_box)) {
    throw new DroverError(
      "SEND_FAILED",
      `typed into ${target} but the text never showed in its input box; Enter was not pressed`,
      { details: { state: typed.state } },
    );
  }
  let presses = 0;
  let last = typed;
  for (let attempt = 0; attempt < 2; attempt++) {
    noBroadcast(last);
    await deps.enter();
    presses++;
    const after = await until((o) => empty(o.input_box), opts.leaveMs ?? 8000);
    last = after;
    if (after.gone || empty(after.input_box)) {
      return {
        state_before: before.state,
        state_after: after.gone ? "gone" : after.state,
        enter_presses: presses,
        method,
      };
    }
  }
  throw new DroverError(
    "SEND_FAILED",
    `pressed Enter twice in ${target} but the text is still in the input box`,
    { details: { enter_presses: presses } },
  );
}
