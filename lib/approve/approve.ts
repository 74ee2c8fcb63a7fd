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
import type { GateWords } from "../profile/gate_words.ts";
import { acquireClaim, claimPathError, claimPaths, type ClaimResult, peekClaim } from "./claim.ts";
import { APPROVE_EXIT, fingerprint, gate, type RefusalReason } from "./gate.ts";
import {
  type ApproveOutcome,
  type JudgedVerdicts,
  refused,
  summary,
  syncMessage,
} from "./outcome.ts";
import { type GateGo, sendAndConfirm } from "./send.ts";

export type { ApproveOutcome, JudgedVerdicts, Outcome, ScreenSummary } from "./outcome.ts";

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

/** Steps 1 and 2 of the header; the claim, when taken, is released whatever happens after. */
async function gatedApprove(req: ApproveRequest): Promise<ApproveOutcome> {
  const base: Partial<ApproveOutcome> = { dry_run: req.dryRun };
  const upFront = refusedFromInventory(req, base);
  if (upFront !== null) return upFront;

  // Where every approver of this user looks, whatever its environment; 74 when nowhere can hold it.
  const paths = await claimPaths(req.socketPath, req.pane.id, req.runtimeBases);
  if (req.dryRun) return await lookOnly(req, paths, base);

  const claim = await takeClaim(paths);
  if (!claim.ok) {
    return refused("claimed", `${claimedBy(req.pane.id, claim)}; no keys sent`, {
      ...base,
      claim: claim.path,
    });
  }
  try {
    return await approveClaimed(req, { ...base, claim: claim.claim.paths[0] ?? null });
  } finally {
    await claim.claim.release();
  }
}

/** The refusals the pane inventory alone decides, before any claim or capture; else null. */
function refusedFromInventory(
  req: ApproveRequest,
  base: Partial<ApproveOutcome>,
): ApproveOutcome | null {
  if (req.orchestrator.is) {
    return refused(
      "orchestrator",
      `pane ${req.pane.id} (${req.pane.target}) is the orchestrator${
        req.orchestrator.why ? ` — ${req.orchestrator.why}` : ""
      }; it never gets an approval`,
      base,
    );
  }
  if (req.pane.windowSynchronized) return refused("synchronized", syncMessage(req.pane), base);
  return null;
}

function claimedBy(paneId: string, c: { holder: string; ageMs: number; path: string }): string {
  return `pane ${paneId} is claimed by another approver (${c.holder || "unknown"}, ${
    Math.round(c.ageMs / 1000)
  }s old, ${c.path})`;
}

/** --dry-run: look at the claim without taking it, and gate one capture; no key is ever sent. */
async function lookOnly(
  req: ApproveRequest,
  paths: string[],
  base: Partial<ApproveOutcome>,
): Promise<ApproveOutcome> {
  let peek: Awaited<ReturnType<typeof peekClaim>>;
  try {
    peek = await peekClaim(paths);
  } catch (e) {
    throw claimPathError(e) ?? e;
  }
  const looked = { ...base, claim: peek.path };
  if (peek.held) return refused("claimed", claimedBy(req.pane.id, peek), looked);
  const v = req.judge(await capturePane(req.server, req.pane.id, { styled: true }));
  const judged = { ...looked, before: summary(v) };
  const g = gate(v, req.words);
  if (!g.ok) return refused(g.reason, g.message, judged);
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
    before: judged.before,
    after: null,
  };
}

async function takeClaim(paths: string[]): Promise<ClaimResult> {
  try {
    return await acquireClaim(paths);
  } catch (e) {
    throw claimPathError(e) ?? new DroverError(
      "IO_FAILED",
      `cannot take the pane's approve claim ${paths.join(", ")}: ${
        e instanceof Error ? e.message : String(e)
      }; nothing was sent`,
      { cause: e },
    );
  }
}

/** Steps 3 to 6 of the header, with the claim held: `base` carries the claim's path. */
async function approveClaimed(
  req: ApproveRequest,
  base: Partial<ApproveOutcome>,
): Promise<ApproveOutcome> {
  const first = req.judge(await capturePane(req.server, req.pane.id, { styled: true }));
  const judged = { ...base, before: summary(first) };
  const g1 = gate(first, req.words);
  if (!g1.ok) return refused(g1.reason, `${g1.message}; no keys sent`, judged);

  if (req.beforeReconfirm) await req.beforeReconfirm();

  const confirmed = await reconfirm(req, first, g1, judged);
  if ("refusal" in confirmed) return confirmed.refusal;
  return await sendAndConfirm({
    server: req.server,
    pane: req.pane,
    judge: req.judge,
    base: judged,
    fresh: confirmed.fresh,
    go: confirmed.go,
    fp: fingerprint(confirmed.fresh),
    // Long enough for a loaded machine to redraw; a CLI that answered clears the prompt at once.
    settleMs: req.settleMs ?? 3_000,
    pollMs: req.pollMs ?? 100,
  });
}

/**
 * The fresh capture the key is sent on: the condition is re-confirmed on it alone, and in the
 * same tmux call, that the window is not synchronized.
 */
async function reconfirm(
  req: ApproveRequest,
  first: JudgedVerdicts,
  g1: GateGo,
  base: Partial<ApproveOutcome>,
): Promise<{ refusal: ApproveOutcome } | { fresh: JudgedVerdicts; go: GateGo }> {
  const freshCap = await capturePane(req.server, req.pane.id, { styled: true, sync: true });
  if (freshCap.synchronized) {
    return { refusal: refused("synchronized", syncMessage(req.pane), base) };
  }
  const fresh = req.judge(freshCap);
  const g2 = gate(fresh, req.words);
  if (!g2.ok || fingerprint(fresh) !== fingerprint(first) || g2.key !== g1.key) {
    return {
      refusal: refused(
        "prompt-changed",
        `the prompt changed or cleared between the gate capture and the send (now: ${fresh.state}${
          g2.ok ? ", a different prompt" : `, ${g2.reason}`
        }); no keys sent`,
        { ...base, after: { ...summary(fresh), same_prompt: false } },
      ),
    };
  }
  return { fresh, go: g2 };
}
