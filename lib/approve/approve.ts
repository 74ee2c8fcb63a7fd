/**
 * The gated approval (DESIGN §6). Order of business, and why:
 *   1. orchestrator pane → refused before anything is captured (holds whatever the screen says);
 *   2. claim the pane (one approver at a time; --dry-run only looks);
 *   3. capture + gate (live permission prompt, option 1 rule, broad grant, dialog);
 *   4. a FRESH capture right before the key, re-confirming the same condition on it alone and that
 *      it is still the same prompt — the screen may change while we judged;
 *   5. send exactly one key (the digit 1, or Enter on a choice row whose first choice is selected);
 *   6. re-capture: if the digit was sent and the same prompt is still live with option 1 selected
 *      and no "1" showed up in an input box, one Enter — never more. A choice row's key already was
 *      the Enter: a prompt that stays is unconfirmed, never answered twice. A "1" that landed in an
 *      input box means the gate was wrong: it is reported (key-in-input) and nothing more is sent.
 * Every error before step 5 sends nothing. Keys are sent only in steps 5 and 6.
 */
import { DroverError } from "../errors.ts";
import type { PaneCapture } from "../tmux/capture.ts";
import { capturePane } from "../tmux/capture.ts";
import type { PaneInfo } from "../tmux/panes.ts";
import type { TmuxServer } from "../tmux/run.ts";
import { sendKeys } from "../tmux/send.ts";
import { setPaneOption, STRAY_KEY_OPTION } from "../tmux/options.ts";
import { acquireClaim, claimPathError, claimPaths, peekClaim } from "./claim.ts";
import {
  APPROVE_EXIT,
  fingerprint,
  gate,
  type GateVerdicts,
  optionOneSelected,
  type PromptVerdicts,
  type RefusalReason,
} from "./gate.ts";
import type { GateWords } from "../profile/gate_words.ts";
import type { PaneState } from "../detect/mod.ts";
import { sleep } from "../base/sleep.ts";

export type JudgedVerdicts = GateVerdicts & {
  state: PaneState;
  /** Text typed into the pane's input line (null: none), to see where a key landed. */
  input_box?: string | null;
};

export interface ApproveRequest {
  server: TmuxServer;
  pane: PaneInfo;
  orchestrator: { is: boolean; why?: string };
  judge: (cap: PaneCapture) => JudgedVerdicts;
  /** The pane's gate wordings (lib/profile/gate_words.ts `gateWordsFor`); default: the shipped profiles' alone. */
  words?: GateWords;
  /**
   * Set when no profile describes the pane's CLI (lib/profile/resolve.ts `judgedByDefault`):
   * appended to every refusal read off the screen.
   */
  profileNote?: string | null;
  dryRun: boolean;
  /** The server's socket path: with the pane id, it names the pane's claim (./claim.ts). */
  socketPath: string;
  /**
   * Runtime bases for the claim instead of the user's own (lib/io/user_dirs.ts `runtimeBases`):
   * only tests and `verify`, whose private servers no other approver sees, pass one.
   */
  runtimeBases?: string[];
  /** How long to wait for the CLI to redraw after a key (ms). */
  settleMs?: number;
  pollMs?: number;
  /**
   * Runs between the gate capture and the re-confirm capture. Only tests pass one, to change the
   * screen at exactly that moment; the product has nothing to do there and never reads a seam
   * from its environment.
   */
  beforeReconfirm?: () => Promise<void>;
}

export type Outcome = "approved" | "would-approve" | "refused" | "unconfirmed" | "key-in-input";

/** What a report says the gate saw on one capture (the approve contract's `before`/`after`). */
export type ScreenSummary = PromptVerdicts & { state: PaneState };

export interface ApproveOutcome {
  outcome: Outcome;
  reason: RefusalReason | null;
  message: string;
  exit_code: number;
  /** Keys actually sent, in order (empty on every refusal and in --dry-run). */
  sent: string[];
  /** The key that would be / was pressed for option 1. */
  key: "1" | "Enter" | null;
  form: "digit" | "choice-row" | null;
  option: string | null;
  dry_run: boolean;
  claim: string | null;
  before: ScreenSummary | null;
  after: (ScreenSummary & { same_prompt: boolean }) | null;
}

function summary(v: JudgedVerdicts): ScreenSummary {
  return {
    state: v.state,
    live_prompt: v.live_prompt,
    permission_prompt: v.permission_prompt,
    command: v.command,
    file_path: v.file_path,
    options: v.options,
    broad_grant_option: v.broad_grant_option,
  };
}

function refused(
  reason: RefusalReason,
  message: string,
  base: Partial<ApproveOutcome>,
): ApproveOutcome {
  return {
    outcome: "refused",
    reason,
    message,
    exit_code: APPROVE_EXIT[reason],
    sent: [],
    key: null,
    form: null,
    option: null,
    dry_run: false,
    claim: null,
    before: null,
    after: null,
    ...base,
  };
}

/** Refusals that come from reading the screen (the profile's wording judged it). */
const SCREEN_REFUSALS: ReadonlySet<RefusalReason | null> = new Set<RefusalReason | null>([
  "no-live-prompt",
  "dialog",
  "broad-grant",
  "no-option-1",
  "not-affirmative",
  "prompt-changed",
]);

export async function approve(req: ApproveRequest): Promise<ApproveOutcome> {
  const out = await gatedApprove(req);
  // A refusal read off a screen that no profile of the pane's CLI describes says so: the Claude
  // default's wording may simply not fit that CLI's prompt.
  if (req.profileNote && out.outcome === "refused" && SCREEN_REFUSALS.has(out.reason)) {
    return { ...out, message: `${out.message}. ${req.profileNote}` };
  }
  return out;
}

async function gatedApprove(req: ApproveRequest): Promise<ApproveOutcome> {
  // Long enough for a loaded machine to redraw; a CLI that answered clears the prompt at once.
  const settleMs = req.settleMs ?? 3_000;
  const pollMs = req.pollMs ?? 100;
  const base: Partial<ApproveOutcome> = { dry_run: req.dryRun };

  if (req.orchestrator.is) {
    return refused(
      "orchestrator",
      `pane ${req.pane.id} (${req.pane.target}) is the orchestrator${
        req.orchestrator.why ? ` — ${req.orchestrator.why}` : ""
      }; it never gets an approval`,
      base,
    );
  }

  // No broadcast: in a window with synchronize-panes on, the digit would reach every other
  // synchronized pane too. Checked on the inventory now and on the capture the key is sent on.
  const syncMessage = (tail = "no keys sent") =>
    `window ${req.pane.windowId} (${req.pane.sessionName}:${req.pane.windowIndex}) has tmux ` +
    `synchronize-panes on: a key to ${req.pane.id} would be typed into every synchronized pane of ` +
    `it; ${tail} (turn it off: tmux set-option -w -t ${req.pane.windowId} synchronize-panes off)`;
  if (req.pane.windowSynchronized) return refused("synchronized", syncMessage(), base);

  // Where every approver of this user looks, whatever its environment; 74 when nowhere can hold it.
  const paths = await claimPaths(req.socketPath, req.pane.id, req.runtimeBases);
  if (req.dryRun) {
    let peek: Awaited<ReturnType<typeof peekClaim>>;
    try {
      peek = await peekClaim(paths);
    } catch (e) {
      throw claimPathError(e) ?? e;
    }
    base.claim = peek.path;
    if (peek.held) {
      return refused(
        "claimed",
        `pane ${req.pane.id} is claimed by another approver (${peek.holder || "unknown"}, ${
          Math.round(peek.ageMs / 1000)
        }s old, ${peek.path})`,
        base,
      );
    }
    const cap = await capturePane(req.server, req.pane.id, { styled: true });
    const v = req.judge(cap);
    base.before = summary(v);
    const g = gate(v, req.words);
    if (!g.ok) return refused(g.reason, g.message, base);
    return {
      outcome: "would-approve",
      reason: null,
      message: `would press ${g.key === "1" ? "1" : "Enter"} (option 1: "${g.option}")`,
      exit_code: APPROVE_EXIT["would-approve"],
      sent: [],
      key: g.key,
      form: g.form,
      option: g.option,
      dry_run: true,
      claim: peek.path,
      before: base.before,
      after: null,
    };
  }

  let claim: Awaited<ReturnType<typeof acquireClaim>>;
  try {
    claim = await acquireClaim(paths);
  } catch (e) {
    throw claimPathError(e) ?? new DroverError(
      "IO_FAILED",
      `cannot take the pane's approve claim ${paths.join(", ")}: ${
        e instanceof Error ? e.message : String(e)
      }; nothing was sent`,
      { cause: e },
    );
  }
  if (!claim.ok) {
    return refused(
      "claimed",
      `pane ${req.pane.id} is claimed by another approver (${claim.holder || "unknown"}, ${
        Math.round(claim.ageMs / 1000)
      }s old, ${claim.path}); no keys sent`,
      { ...base, claim: claim.path },
    );
  }
  base.claim = claim.claim.paths[0] ?? null;
  try {
    const first = req.judge(await capturePane(req.server, req.pane.id, { styled: true }));
    base.before = summary(first);
    const g1 = gate(first, req.words);
    if (!g1.ok) return refused(g1.reason, `${g1.message}; no keys sent`, base);

    if (req.beforeReconfirm) await req.beforeReconfirm();

    // The fresh capture the key is sent on: the condition is re-confirmed on it alone, and in the
    // same tmux call, that the window is not synchronized.
    const freshCap = await capturePane(req.server, req.pane.id, { styled: true, sync: true });
    if (freshCap.synchronized) return refused("synchronized", syncMessage(), base);
    const fresh = req.judge(freshCap);
    const g2 = gate(fresh, req.words);
    if (!g2.ok || fingerprint(fresh) !== fingerprint(first) || g2.key !== g1.key) {
      return refused(
        "prompt-changed",
        `the prompt changed or cleared between the gate capture and the send (now: ${fresh.state}${
          g2.ok ? ", a different prompt" : `, ${g2.reason}`
        }); no keys sent`,
        { ...base, after: { ...summary(fresh), same_prompt: false } },
      );
    }

    const sent: string[] = [g2.key];
    await sendKeys(req.server, req.pane.id, [g2.key]);
    const fp = fingerprint(fresh);
    // Where the digit went: more "1"s in an input line than on the capture it was sent on.
    const ones = (v: JudgedVerdicts) => (v.input_box ?? "").split("1").length - 1;
    const keyInInput = (v: JudgedVerdicts | null) =>
      g2.key === "1" && v !== null && ones(v) > ones(fresh);

    let synchronizedNow = false;
    const settle = async (): Promise<JudgedVerdicts | null> => {
      const deadline = Date.now() + settleMs;
      let last: JudgedVerdicts | null = null;
      for (;;) {
        await sleep(pollMs);
        try {
          const cap = await capturePane(req.server, req.pane.id, { styled: true, sync: true });
          synchronizedNow = cap.synchronized === true;
          last = req.judge(cap);
        } catch {
          return null;
        }
        const same = last.live_prompt && last.permission_prompt && fingerprint(last) === fp;
        if (!same || keyInInput(last) || Date.now() >= deadline) return last;
      }
    };
    const stillSame = (v: JudgedVerdicts | null) =>
      v !== null && v.live_prompt && v.permission_prompt && fingerprint(v) === fp;

    /** What was sent and what the last capture showed: the body of every report from here on. */
    const report = (v: JudgedVerdicts | null) => ({
      sent,
      key: g2.key,
      form: g2.form,
      option: g2.option,
      dry_run: false,
      claim: base.claim ?? null,
      before: base.before ?? null,
      after: v === null ? null : { ...summary(v), same_prompt: stillSame(v) },
    });

    let after = await settle();
    if (keyInInput(after)) {
      // Marked on the pane itself, so no drive tick later submits the stray digit as input.
      await setPaneOption(req.server, req.pane.id, STRAY_KEY_OPTION, g2.key).catch(() => {});
      return {
        ...report(after),
        outcome: "key-in-input",
        reason: "key-in-input",
        message: `sent 1, and a "1" showed up in the pane's input line (${
          JSON.stringify((after!.input_box ?? "").slice(0, 60))
        }): the prompt was not what it looked like; nothing more sent — clear the input line by hand`,
        exit_code: APPROVE_EXIT["key-in-input"],
      };
    }
    if (synchronizedNow && stillSame(after)) {
      return {
        ...report(after),
        outcome: "refused",
        reason: "synchronized",
        message: `sent 1; then ${syncMessage("no Enter sent")}`,
        exit_code: APPROVE_EXIT.synchronized,
      };
    }
    let enterFailed = "";
    // The one Enter is earned: the digit went out, and the same live modal shows option 1 selected
    // with no digit in an input line. After a choice row's Enter, a second would answer twice.
    if (g2.key === "1" && stillSame(after) && optionOneSelected(after!)) {
      try {
        await sendKeys(req.server, req.pane.id, ["Enter"]);
        sent.push("Enter");
        after = await settle();
      } catch (e) {
        // The digit is already out: report what happened instead of an error that hides it.
        enterFailed = e instanceof Error ? e.message : String(e);
      }
    }
    if (g2.key === "Enter" && stillSame(after)) {
      // A choice row gets no second key, so it gets the digit path's second window to be seen
      // going: a slow CLI (OpenCode under load) redraws after the first window. Only watching.
      after = await settle();
    }
    const done = { ...report(after), reason: null };
    if (enterFailed !== "") {
      return {
        ...done,
        outcome: "unconfirmed",
        message: `sent ${
          sent.join(" + ")
        }; the prompt stayed and the Enter failed (${enterFailed})`,
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
    if (stillSame(after)) {
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
      message: `approved option 1 ("${g2.option}") with ${
        sent.join(" + ")
      }; the prompt is gone (${after.state})`,
      exit_code: APPROVE_EXIT.approved,
    };
  } finally {
    await claim.claim.release();
  }
}
