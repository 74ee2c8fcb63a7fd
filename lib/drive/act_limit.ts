/**
 * A usage limit under `resume` (lib/drive/limit.ts), carried out: report it once, wait, type the
 * resume text once. What it remembers goes through memory.ts, the resume before its first key.
 */
import type { PanePlan } from "./decide.ts";
import type { PaneRef } from "./events.ts";
import { comebackWhen, newBelowBanner, readyForResume } from "./limit.ts";
import { type NudgeResult, nudgeText, sendNudge, wedgedHow } from "./nudge.ts";
import { forgetLimit, rememberLimit, rememberMovedOn, rememberResume } from "./memory.ts";
import { type HostPane, sendPort } from "./host.ts";
import { type ActContext, escalateWedged } from "./act_context.ts";
import { DRIVE_EXIT, type DriveOutcome } from "./outcome.ts";
import type { LimitMemory } from "./state.ts";
import type { DriveVerdicts } from "./verdicts.ts";
import { oneLine } from "../base/clip.ts";

type LimitPlanStep = Extract<PanePlan, { kind: "limit" }>["step"];

/** One step of a pane's usage limit: first sighting, waiting, moved on, or the resume. */
export async function actOnLimit(
  ctx: ActContext,
  pane: HostPane,
  step: LimitPlanStep,
): Promise<DriveOutcome | undefined> {
  const ref = pane.ref;
  rememberLimit(ctx.state, ref.id, step.memory);
  if (step.kind === "limit") {
    const m = step.memory;
    const resetsAt = new Date(m.resetsAt).toISOString();
    const dueAt = new Date(m.dueAt).toISOString();
    const message = step.comeback
      ? `the usage limit came back after the resume: ${
        oneLine(m.text, 120)
      }; resuming again at ${dueAt} (${comebackWhen(m)}; backing off)`
      : `usage limit until ${resetsAt}: ${
        oneLine(m.text, 120)
      }; typing the resume text at ${dueAt}`;
    await ctx.emit("limit", message, ref, {
      text: m.text,
      resets_at: resetsAt,
      detail: { due_at: dueAt, resumes: m.resumes, comeback: step.comeback },
    });
    return waiting(ctx, ref, m);
  }
  // The CLI went on by itself (its own auto-continue, or a person): over, nothing to type.
  if (step.kind === "limit-moved-on") return undefined;
  if (step.kind === "limit-wait") return waiting(ctx, ref, step.memory);
  return await resume(ctx, pane, step.memory);
}

/** While a limit waits, the orchestrator's --once run ends with 75 and prints nothing. */
function waiting(ctx: ActContext, ref: PaneRef, m: LimitMemory): DriveOutcome | undefined {
  if (ref.role !== "orchestrator" || !ctx.opts.once) return undefined;
  return ctx.outcome(
    "orchestrator-limit",
    DRIVE_EXIT.orchestratorUnavailable,
    `the orchestrator's ${ref.cli} CLI is at its usage limit until ${
      new Date(m.resetsAt).toISOString()
    }; the resume is due at ${new Date(m.dueAt).toISOString()}`,
  );
}

/** The resume is due: re-captured, it is typed once, unless the screen says otherwise. */
async function resume(
  ctx: ActContext,
  pane: HostPane,
  m: LimitMemory,
): Promise<DriveOutcome | undefined> {
  const ref = pane.ref;
  const fresh = await ctx.host.lookOne(pane);
  if (!fresh) return undefined;
  if (!fresh.limit) {
    // The CLI went on by itself (its own auto-continue) or a person did: nothing to resume.
    forgetLimit(ctx.state, ref.id);
    return undefined;
  }
  if (fresh.live_prompt || !fresh.input_line) {
    await escalateLimitMenu(ctx, ref, m, fresh);
    return waiting(ctx, ref, m);
  }
  const moved = readyForResume(fresh) ? newBelowBanner(fresh, m) : [];
  if (moved.length > 0) {
    // The CLI went on by itself (its own auto-continue) or a person did: nothing to type.
    rememberMovedOn(ctx.state, ref.id, m, ctx.host.now(), moved);
    return undefined;
  }
  const text = ctx.opts.settings.resume ?? "";
  // One resume per occurrence, whatever comes of it: remembered on disk before the first key, so
  // not even a crash between the keys and the end of the tick can make it two.
  rememberResume(ctx.state, ref.id, m, ctx.host.now(), nudgeText(text));
  await ctx.write();
  const result = await sendNudge(
    sendPort(ctx.host, pane),
    text,
    { settleMs: pane.settleMs, verifyMs: ctx.opts.verifyMs },
    {
      test: readyForResume,
      why: (v) => `the limit screen is not ready for input (${v.state})`,
    },
  );
  if (result.outcome === "skipped") {
    // Nothing was typed (the screen changed before the first key): still waiting.
    rememberLimit(ctx.state, ref.id, m);
    return waiting(ctx, ref, m);
  }
  await reportResume(ctx, ref, m, text, result);
  return undefined;
}

/**
 * A limit menu (wait / upgrade / switch model) over the input line: a limit, not a prompt, never
 * answered. (Gemini CLI's "Keep trying / Stop" box is not even a live prompt to the detector; it
 * hides the input line all the same.)
 */
async function escalateLimitMenu(
  ctx: ActContext,
  ref: PaneRef,
  m: LimitMemory,
  fresh: DriveVerdicts,
): Promise<void> {
  await ctx.escalate(ref, {
    kind: "escalate",
    reason: "limit-menu",
    key: `${ref.id}\u001flimit-menu`,
    text: m.text,
    resets_at: new Date(m.resetsAt).toISOString(),
    message: fresh.live_prompt
      ? "the usage limit has reset but a menu covers the input line; drover never answers " +
        "a limit menu: close it (Esc) and the next tick types the resume text"
      : "the usage limit has reset but no input line is on screen (a dialog drawn in its " +
        "place); drover never answers one: close it and the next tick types the resume text",
  });
}

/** The resume was typed: delivered, or wedged in the input box (then never typed again). */
async function reportResume(
  ctx: ActContext,
  ref: PaneRef,
  m: LimitMemory,
  text: string,
  result: Exclude<NudgeResult, { outcome: "skipped" }>,
): Promise<void> {
  const now = ctx.host.now();
  if (result.outcome === "delivered") {
    await ctx.emit(
      "resumed",
      `the usage limit reset at ${new Date(m.resetsAt).toISOString()}; typed "${
        oneLine(text, 120)
      }"${
        result.recoveries
          ? ` after ${result.recoveries} recover${result.recoveries > 1 ? "ies" : "y"}`
          : ""
      }`,
      ref,
      {
        text,
        resets_at: new Date(m.resetsAt).toISOString(),
        detail: { recoveries: result.recoveries, resumes: m.resumes + 1 },
      },
    );
    return;
  }
  const message = `resume-wedged: the resume text stayed in the input box ${
    wedgedHow(result)
  }; not typing it again`;
  await escalateWedged(ctx, ref, "resume-wedged", { text, box: result.box, at: now, message });
}
