/**
 * One pane's plan carried out (DESIGN §9): every key re-confirmed on a fresh capture first,
 * approvals only through lib/approve's §6 gate. What an action leaves for the next tick goes
 * through memory.ts; usage limits and their resume are act_limit.ts's.
 */
import { holdsStrayKey, type PanePlan, strandedText, strayKeyEscalation } from "./decide.ts";
import { classifyCommand } from "../shell/allowlist.ts";
import { sendNudge, wedgedHow } from "./nudge.ts";
import { rememberNudge, rememberStrayKey, rememberSubmitted } from "./memory.ts";
import { type HostPane, sendPort, synchronizedNow } from "./host.ts";
import { type ActContext, escalateWedged, type Escalation } from "./act_context.ts";
import { actOnLimit } from "./act_limit.ts";
import { DRIVE_EXIT, type DriveOutcome } from "./outcome.ts";
import { oneLine } from "../base/clip.ts";

/** Carry out one pane's plan; an outcome when the run must end now. */
export async function act(
  ctx: ActContext,
  pane: HostPane,
  plan: PanePlan,
): Promise<DriveOutcome | undefined> {
  switch (plan.kind) {
    case "nothing":
      return undefined;
    case "escalate":
      await ctx.escalate(pane.ref, noted(plan, pane));
      return undefined;
    case "confirm-unavailable":
      return await confirmUnavailable(ctx, pane);
    case "submit":
      await submitStranded(ctx, pane, plan.text);
      return undefined;
    case "approve":
      await approveAllowlisted(ctx, pane, plan);
      return undefined;
    case "limit":
      return await actOnLimit(ctx, pane, plan.step);
    case "nudge":
      await nudgeOrchestrator(ctx, pane, plan.text);
      return undefined;
  }
}

/**
 * The plans that send keys: only these are held back from a synchronized window; escalations and
 * the unavailability check send none.
 */
export function sendsKeys(plan: PanePlan): boolean {
  return plan.kind === "submit" || plan.kind === "approve" || plan.kind === "nudge" ||
    (plan.kind === "limit" && plan.step.kind === "resume");
}

/** The orchestrator's CLI cannot serve: seen again on a second capture, it ends the run. */
async function confirmUnavailable(
  ctx: ActContext,
  pane: HostPane,
): Promise<DriveOutcome | undefined> {
  const ref = pane.ref;
  await ctx.host.sleep(ctx.opts.confirmMs);
  const again = await ctx.host.lookOne(pane);
  if (!again || again.cli_unavailable === null) return undefined;
  const message =
    `the orchestrator's ${ref.cli} CLI cannot serve (seen on two captures): ${again.cli_unavailable.trim()}`;
  const resets = again.limit && again.limit_resets_at ? { resets_at: again.limit_resets_at } : {};
  await ctx.emit("orchestrator-unavailable", message, ref, {
    text: again.cli_unavailable,
    ...resets,
  });
  await ctx.escalate(ref, {
    kind: "escalate",
    reason: "orchestrator-unavailable",
    key: `${ref.id}\u001forchestrator-unavailable`,
    text: again.cli_unavailable,
    message,
    ...resets,
  }, true);
  return ctx.outcome("orchestrator-unavailable", DRIVE_EXIT.orchestratorUnavailable, message);
}

/** Typed-but-unsent input: one Enter, only if the fresh capture still shows the same text. */
async function submitStranded(ctx: ActContext, pane: HostPane, text: string): Promise<void> {
  const ref = pane.ref;
  const fresh = await ctx.host.lookOne(pane);
  if (fresh?.synchronized) throw synchronizedNow(pane);
  if (!fresh || strandedText(fresh) !== text) return;
  // A stray key another approver left (the pane's marker) is never submitted either.
  const stray = await ctx.host.strayKey?.(pane);
  if (stray !== undefined && holdsStrayKey(fresh, stray)) {
    rememberStrayKey(ctx.state, ref.id, stray, ctx.host.now());
    const e = strayKeyEscalation(ref, text, stray);
    if (e.kind === "escalate") await ctx.escalate(ref, e);
    return;
  }
  if (stray !== undefined) await ctx.host.strayKey?.(pane, true);
  await ctx.host.keys(pane, ["Enter"]);
  rememberSubmitted(ctx.state, ref.id, text, ctx.host.now());
  await ctx.emit(
    "input-submitted",
    `pressed Enter once for typed-but-unsent input "${oneLine(text, 120)}"`,
    ref,
    { text },
  );
}

/** An allowlisted command's prompt, handed to the §6 gate, which re-judges a fresh capture. */
async function approveAllowlisted(
  ctx: ActContext,
  pane: HostPane,
  plan: Extract<PanePlan, { kind: "approve" }>,
): Promise<void> {
  const ref = pane.ref;
  const allow = ctx.opts.settings.allow;
  const expected = plan.command;
  const r = await ctx.host.approve(
    pane,
    (v) => v.command === expected && classifyCommand(v.command, allow).decision === "allow",
  );
  if (r.reason === "synchronized") throw synchronizedNow(pane);
  if (r.reason === "key-in-input" && r.sent.length > 0) {
    // Remembered across ticks: the stray key is never pressed Enter on as stranded input.
    rememberStrayKey(ctx.state, ref.id, r.sent[0], ctx.host.now());
  }
  if (r.outcome === "approved") {
    await ctx.emit(
      "approved",
      `approved "${oneLine(plan.command, 120)}" (allowlist: ${plan.matched.join(", ")}) with ${
        r.sent.join(" + ")
      }`,
      ref,
      { command: plan.command, detail: { matched: plan.matched, sent: r.sent } },
    );
    return;
  }
  const transient = r.reason === "prompt-changed" || r.reason === "no-live-prompt" ||
    r.reason === "claimed";
  await ctx.emit(
    "approve-refused",
    `did not approve "${oneLine(plan.command, 120)}": ${r.message}`,
    ref,
    {
      command: plan.command,
      verdict: `gate:${r.reason ?? r.outcome}`,
      detail: { outcome: r.outcome, sent: r.sent },
    },
  );
  if (transient) return;
  await ctx.escalate(ref, {
    kind: "escalate",
    reason: "permission-prompt",
    key: `${ref.id}\u001fprompt\u001f${plan.command}`,
    verdict: `gate:${r.reason ?? r.outcome}`,
    command: plan.command,
    message: `permission prompt for "${oneLine(plan.command, 120)}" needs a person: ${r.message}`,
  });
}

/** The idle orchestrator's nudge, through the verified send path. */
async function nudgeOrchestrator(ctx: ActContext, pane: HostPane, text: string): Promise<void> {
  const ref = pane.ref;
  const result = await sendNudge(
    sendPort(ctx.host, pane),
    text,
    { settleMs: pane.settleMs, verifyMs: ctx.opts.verifyMs },
  );
  if (result.outcome === "skipped") return;
  const now = ctx.host.now();
  rememberNudge(ctx.state, now);
  if (result.outcome === "delivered") {
    await ctx.emit(
      "nudge-sent",
      `nudged the orchestrator${
        result.recoveries
          ? ` after ${result.recoveries} recover${result.recoveries > 1 ? "ies" : "y"}`
          : ""
      }: "${oneLine(text, 120)}"`,
      ref,
      { text, detail: { recoveries: result.recoveries } },
    );
    return;
  }
  const message = `nudge-wedged: the nudge stayed in the input box ${wedgedHow(result)}`;
  await escalateWedged(ctx, ref, "nudge-wedged", { text, box: result.box, at: now, message });
}

/** A dialog or prompt judged on a screen no profile describes says who judged it. */
function noted(plan: Escalation, pane: HostPane): Escalation {
  if (!pane.profileNote || (plan.reason !== "dialog" && plan.reason !== "permission-prompt")) {
    return plan;
  }
  return { ...plan, message: `${plan.message}. ${pane.profileNote}` };
}
