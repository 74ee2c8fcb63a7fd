/**
 * What the loop (run.ts) hands one pane's action (act.ts, act_limit.ts): the host, the settings an
 * action reads, the state, and the loop's own reporting, saving and ending. The loop owns the
 * event counts, the dedup of escalations and the state file; an action only asks for them. Also
 * the one ending both verified sends (the nudge's and the resume's) share: text left in the box.
 */
import type { DriveSettings, PanePlan } from "./decide.ts";
import type { DriveEvent, EventType, PaneRef } from "./events.ts";
import type { DriveHost } from "./host.ts";
import type { DriveOutcome } from "./outcome.ts";
import type { DriveState } from "./state.ts";
import { rememberSubmitted } from "./memory.ts";

/** The run's options an action reads (run.ts `DriveRunOptions` holds them with the loop's own). */
export interface ActOptions {
  once: boolean;
  settings: DriveSettings;
  /** Delay before the second capture that confirms an orchestrator's unavailability. */
  confirmMs: number;
  /** Delay between Enter and the capture that verifies a nudge left the input box. */
  verifyMs: number;
}

export type Escalation = Extract<PanePlan, { kind: "escalate" }>;

export interface ActContext {
  readonly host: DriveHost;
  readonly opts: ActOptions;
  readonly state: DriveState;
  emit(
    type: EventType,
    message: string,
    pane?: PaneRef,
    extra?: Partial<DriveEvent>,
  ): Promise<DriveEvent>;
  /** Report an escalation once per dedup window (`force`: regardless), with --on-escalate. */
  escalate(pane: PaneRef | undefined, plan: Escalation, force?: boolean): Promise<boolean>;
  /** Write the state file now, mid-tick (before a key that must never be sent twice). */
  write(): Promise<void>;
  /** The outcome that ends the run after this tick. */
  outcome(reason: DriveOutcome["reason"], exitCode: number, message: string): DriveOutcome;
}

/**
 * A verified send whose text stayed in the input box (wedged): remembered as submitted, so
 * stranded-input recovery never presses Enter on it, and escalated to a person.
 */
export async function escalateWedged(
  ctx: ActContext,
  ref: PaneRef,
  reason: "nudge-wedged" | "resume-wedged",
  wedged: {
    /** The text the send typed, and what the box held at the end (null: not read). */
    text: string;
    box: string | null;
    at: number;
    message: string;
  },
): Promise<void> {
  const { text, box, at, message } = wedged;
  rememberSubmitted(ctx.state, ref.id, (box ?? text).trim(), at);
  await ctx.escalate(ref, {
    kind: "escalate",
    reason,
    key: `${ref.id}\u001f${reason}`,
    text,
    message,
  });
}
