/**
 * Steps 5 and 6 of the gated approval (approve.ts's header): the one key, the watch after it, the
 * one Enter a digit may earn, and the report of what happened. The only place approve sends keys;
 * everything here runs with the pane's claim held and after the gate passed on a fresh capture.
 */
import { sleep } from "../base/sleep.ts";
import type { PaneCapture } from "../tmux/capture.ts";
import { capturePane } from "../tmux/capture.ts";
import { setPaneOption, STRAY_KEY_OPTION } from "../tmux/options.ts";
import type { PaneInfo } from "../tmux/panes.ts";
import type { TmuxServer } from "../tmux/run.ts";
import { sendKeys } from "../tmux/send.ts";
import { APPROVE_EXIT, fingerprint, type GateResult, optionOneSelected } from "./gate.ts";
import { type ApproveOutcome, type JudgedVerdicts, summary, syncMessage } from "./outcome.ts";

/** A gate verdict that lets the key go. */
export type GateGo = Extract<GateResult, { ok: true }>;

/** Everything the steps after the first key read; nothing in it changes once the key is out. */
export interface Sending {
  readonly server: TmuxServer;
  readonly pane: PaneInfo;
  readonly judge: (cap: PaneCapture) => JudgedVerdicts;
  /** The claim and the gate capture's summary, for every report. */
  readonly base: Partial<ApproveOutcome>;
  /** The verdicts of the capture the key is sent on, and that capture's fingerprint. */
  readonly fresh: JudgedVerdicts;
  readonly fp: string;
  readonly go: GateGo;
  /** How long to wait for the CLI to redraw after a key, and how often to look (ms). */
  readonly settleMs: number;
  readonly pollMs: number;
}

/** One settle window's last look: null verdicts when the pane could not be captured or judged. */
interface Settled {
  readonly verdicts: JudgedVerdicts | null;
  readonly synchronized: boolean;
}

/** What was sent and what the pane showed last; `enterFailed` is the Enter's error, or "". */
interface Sent {
  readonly after: JudgedVerdicts | null;
  readonly sent: string[];
  readonly enterFailed: string;
}

function stillSame(s: Sending, v: JudgedVerdicts | null): boolean {
  return v !== null && v.live_prompt && v.permission_prompt && fingerprint(v) === s.fp;
}

// Where the digit went: more "1"s in an input line than on the capture it was sent on.
function onesIn(v: JudgedVerdicts): number {
  return (v.input_box ?? "").split("1").length - 1;
}

function keyInInput(s: Sending, v: JudgedVerdicts | null): boolean {
  return s.go.key === "1" && v !== null && onesIn(v) > onesIn(s.fresh);
}

/** Watch the pane until the prompt goes, the digit shows up in an input line, or time is up. */
async function settle(s: Sending): Promise<Settled> {
  const deadline = Date.now() + s.settleMs;
  for (;;) {
    await sleep(s.pollMs);
    let seen: Settled;
    try {
      const cap = await capturePane(s.server, s.pane.id, { styled: true, sync: true });
      seen = { synchronized: cap.synchronized === true, verdicts: s.judge(cap) };
    } catch {
      return { verdicts: null, synchronized: false };
    }
    if (!stillSame(s, seen.verdicts) || keyInInput(s, seen.verdicts) || Date.now() >= deadline) {
      return seen;
    }
  }
}

/** Send the gate's key, watch, and send the one Enter when it is earned; the outcome of it all. */
export async function sendAndConfirm(s: Sending): Promise<ApproveOutcome> {
  await sendKeys(s.server, s.pane.id, [s.go.key]);
  const first = await settle(s);
  if (keyInInput(s, first.verdicts)) {
    // Marked on the pane itself, so no drive tick later submits the stray digit as input.
    await setPaneOption(s.server, s.pane.id, STRAY_KEY_OPTION, s.go.key).catch(() => {});
    return keyInInputOutcome(s, first.verdicts!);
  }
  if (first.synchronized && stillSame(s, first.verdicts)) {
    return {
      ...report(s, [s.go.key], first.verdicts),
      outcome: "refused",
      reason: "synchronized",
      message: `sent 1; then ${syncMessage(s.pane, "no Enter sent")}`,
      exit_code: APPROVE_EXIT.synchronized,
    };
  }
  // The one Enter is earned: the digit went out, and the same live modal shows option 1 selected
  // with no digit in an input line. After a choice row's Enter, a second would answer twice.
  if (s.go.key === "1" && stillSame(s, first.verdicts) && optionOneSelected(first.verdicts!)) {
    return finalOutcome(s, await sendEarnedEnter(s, first.verdicts));
  }
  if (s.go.key === "Enter" && stillSame(s, first.verdicts)) {
    // A choice row gets no second key, so it gets the digit path's second window to be seen
    // going: a slow CLI (OpenCode under load) redraws after the first window. Only watching.
    const second = await settle(s);
    return finalOutcome(s, { after: second.verdicts, sent: [s.go.key], enterFailed: "" });
  }
  return finalOutcome(s, { after: first.verdicts, sent: [s.go.key], enterFailed: "" });
}

async function sendEarnedEnter(s: Sending, after: JudgedVerdicts | null): Promise<Sent> {
  const sent = [s.go.key];
  try {
    await sendKeys(s.server, s.pane.id, ["Enter"]);
    sent.push("Enter");
    return { after: (await settle(s)).verdicts, sent, enterFailed: "" };
  } catch (e) {
    // The digit is already out: report what happened instead of an error that hides it.
    return { after, sent, enterFailed: e instanceof Error ? e.message : String(e) };
  }
}

/** What was sent and what the last capture showed: the body of every report after the key. */
function report(s: Sending, sent: string[], v: JudgedVerdicts | null) {
  return {
    sent,
    key: s.go.key,
    form: s.go.form,
    option: s.go.option,
    dry_run: false,
    claim: s.base.claim ?? null,
    before: s.base.before ?? null,
    after: v === null ? null : { ...summary(v), same_prompt: stillSame(s, v) },
  };
}

function keyInInputOutcome(s: Sending, after: JudgedVerdicts): ApproveOutcome {
  return {
    ...report(s, [s.go.key], after),
    outcome: "key-in-input",
    reason: "key-in-input",
    message: `sent 1, and a "1" showed up in the pane's input line (${
      JSON.stringify((after.input_box ?? "").slice(0, 60))
    }): the prompt was not what it looked like; nothing more sent — clear the input line by hand`,
    exit_code: APPROVE_EXIT["key-in-input"],
  };
}

/** The outcome once every key that will be sent is out: approved only when the prompt is gone. */
function finalOutcome(s: Sending, { after, sent, enterFailed }: Sent): ApproveOutcome {
  const done = { ...report(s, sent, after), reason: null };
  if (enterFailed !== "") {
    return {
      ...done,
      outcome: "unconfirmed",
      message: `sent ${sent.join(" + ")}; the prompt stayed and the Enter failed (${enterFailed})`,
      exit_code: APPROVE_EXIT.unconfirmed,
    };
  }
  if (after === null) {
    return {
      ...done,
      outcome: "unconfirmed",
      message: `sent ${sent.join(" + ")}; the pane could not be captured afterwards`,
      exit_code: APPROVE_EXIT.unconfirmed,
    };
  }
  if (stillSame(s, after)) {
    return {
      ...done,
      outcome: "unconfirmed",
      message: `sent ${
        sent.join(" + ")
      }; the same prompt is still live (not retried — look at the pane)`,
      exit_code: APPROVE_EXIT.unconfirmed,
    };
  }
  return {
    ...done,
    outcome: "approved",
    message: `approved option 1 ("${s.go.option}") with ${
      sent.join(" + ")
    }; the prompt is gone (${after.state})`,
    exit_code: APPROVE_EXIT.approved,
  };
}
