/**
 * Typing a nudge into an idle orchestrator: literal text, settle, Enter, then verify it left the
 * input box (over a few captures: a loaded machine draws a submit late). A CLI that swallowed the
 * Enter (still drawing, a paste guard) gets up to two recoveries — clear the line with C-u,
 * retype, settle, Enter — and is then reported wedged. The resume after a usage limit
 * (lib/drive/limit.ts) goes through the same path, with its own test of the fresh capture taken
 * before the first key.
 */
import { idleForNudge, stillInBox } from "./decide.ts";
import { type DriveVerdicts } from "./verdicts.ts";

export const NUDGE_RECOVERIES = 2;
/** Captures (one settle apart) waiting for typed text to show before Enter. */
const SHOW_CHECKS = 3;
/**
 * Captures (one verify period apart) waiting for the text to leave the box after Enter. A loaded
 * machine may draw a submit late, and a recovery typed over a submit that was merely slow is a
 * second message: only text still there after all of them counts as swallowed.
 */
const VERIFY_CHECKS = 3;

export interface NudgePort {
  /** A fresh capture of the pane, judged. */
  look(): Promise<DriveVerdicts>;
  typeLiteral(text: string): Promise<void>;
  keys(keys: string[]): Promise<void>;
  sleep(ms: number): Promise<void>;
}

export interface NudgeTiming {
  /** Between typing and Enter, so the CLI has drawn the text (per-CLI submit delay). */
  settleMs: number;
  /** Between Enter and the verifying capture. */
  verifyMs: number;
}

export type NudgeResult =
  | { outcome: "skipped"; why: string }
  | { outcome: "delivered"; recoveries: number; keys: string[] }
  | {
    outcome: "wedged";
    recoveries: number;
    keys: string[];
    box: string | null;
    /** The CLI started working (or asking) with the text still drawn: no recovery typed over it. */
    busy: boolean;
  };

/** How a wedged send reads in an event message. */
export function wedgedHow(r: { recoveries: number; busy: boolean }): string {
  const after = `after ${r.recoveries} recover${r.recoveries === 1 ? "y" : "ies"} (C-u, retype)`;
  return r.busy ? `${after}, and the CLI went on working with it still drawn there` : after;
}

/** One line, capped: a nudge is a sentence, and a newline would submit early. */
export function nudgeText(text: string): string {
  const t = text.replace(/[\r\n\t]+/g, " ").replace(/\s+/g, " ").trim();
  return t.length > 600 ? t.slice(0, 600) + " ..." : t;
}

export interface NudgeReady {
  /** The fresh capture before the first key must pass this (default: an idle orchestrator). */
  test(v: DriveVerdicts): boolean;
  /** Why nothing was sent when it does not. */
  why(v: DriveVerdicts): string;
}

const IDLE_ORCHESTRATOR: NudgeReady = {
  test: idleForNudge,
  why: (v) => `the orchestrator is no longer idle (${v.state})`,
};

export async function sendNudge(
  port: NudgePort,
  rawText: string,
  timing: NudgeTiming,
  ready: NudgeReady = IDLE_ORCHESTRATOR,
): Promise<NudgeResult> {
  const text = nudgeText(rawText);
  if (text === "") return { outcome: "skipped", why: "empty nudge text" };
  const before = await port.look();
  if (!ready.test(before)) return { outcome: "skipped", why: ready.why(before) };
  const keys: string[] = [];
  let box: string | null = null;
  for (let attempt = 0; attempt <= NUDGE_RECOVERIES; attempt++) {
    if (attempt > 0) {
      await port.keys(["C-u"]);
      keys.push("C-u");
    }
    await port.typeLiteral(text);
    keys.push(`literal:${text}`);
    await port.sleep(timing.settleMs);
    // "It left the input box" only means something once it was seen there: a slow CLI gets a few
    // more settle periods to draw it (bounded; Enter goes out either way).
    for (let i = 0; i < SHOW_CHECKS; i++) {
      if (stillInBox((await port.look()).input_box, text)) break;
      await port.sleep(timing.settleMs);
    }
    await port.keys(["Enter"]);
    keys.push("Enter");
    let after: DriveVerdicts | undefined;
    for (let i = 0; i < VERIFY_CHECKS; i++) {
      await port.sleep(timing.verifyMs);
      after = await port.look();
      box = after.input_box;
      if (!stillInBox(box, text)) return { outcome: "delivered", recoveries: attempt, keys };
    }
    // A CLI now working or asking, with the text still drawn in its box, did something with the
    // keys that a C-u and a retype cannot undo: no more keys, a person looks.
    if (after?.mid_response || after?.live_prompt) {
      return { outcome: "wedged", recoveries: attempt, keys, box, busy: true };
    }
  }
  return { outcome: "wedged", recoveries: NUDGE_RECOVERIES, keys, box, busy: false };
}
