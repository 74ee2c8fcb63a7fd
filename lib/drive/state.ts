/**
 * What the drive loop remembers between ticks (and between cron runs): escalation dedup windows,
 * the orchestrator's idle/nudge timers, which stranded input already got its one Enter, and each
 * pane's usage limit (when it resets, whether its one resume was typed).
 *
 * This module is the state's shape and its pure rules (dedup windows, pruning); the file is read
 * and written by state_file.ts and held to its schema by state_schema.ts.
 */

export const STATE_VERSION = 1;

/**
 * The largest state file read. Real state is a few KiB (dedup keys, a few input texts); a larger
 * file is damaged or planted, and parsing 50 MB of JSON would cost seconds and a GiB every tick.
 */
export const MAX_STATE_BYTES = 1024 * 1024;

export interface PaneMemory {
  /** The input text we pressed Enter for, and when (at most one Enter per stranded text). */
  submitted?: { text: string; at: number };
  /** A usage limit the pane showed with a readable reset time (drive resume, lib/drive/limit.ts). */
  limit?: LimitMemory;
  /**
   * The key an approval sent that showed up in the input box instead (key-in-input): the gate was
   * wrong, so that text is drover's own stray key and never submitted as stranded input.
   */
  strayKey?: { text: string; at: number };
}

export interface LimitMemory {
  /** The banner of this occurrence, as the detector reported it. */
  text: string;
  /** When the screen said it resets (epoch ms), as read when it was first seen. */
  resetsAt: number;
  /** When the resume is due: the reset plus the margin, doubled for each earlier resume. */
  dueAt: number;
  /** Resumes typed in this pane's run of limits (a limit that comes back keeps counting). */
  resumes: number;
  /** When this occurrence was first seen. */
  seenAt: number;
  /** When its one resume was typed; set once, never a second time for the same occurrence. */
  resumedAt?: number;
  /** The text typed (its echo on screen tells an old banner from a new one). */
  resumeText?: string;
  /** The transcript lines right below the banner when it was first seen (not mid-turn). */
  below?: string[];
  /** Set when the CLI went on by itself: the new lines below the banner that showed it. */
  movedOn?: string[];
}

export interface OrchestratorMemory {
  /** When the orchestrator was first seen idle in the current idle stretch (epoch ms). */
  idleSince?: number;
  /** When the last nudge was typed. */
  lastNudgeAt?: number;
}

export interface DriveState {
  version: typeof STATE_VERSION;
  session: string;
  /** Escalation key → epoch ms it was last reported. */
  dedup: Record<string, number>;
  panes: Record<string, PaneMemory>;
  orchestrator: OrchestratorMemory;
  updatedAt: number;
}

export function freshState(session: string): DriveState {
  return { version: STATE_VERSION, session, dedup: {}, panes: {}, orchestrator: {}, updatedAt: 0 };
}

/** Forget what can no longer matter, so the file does not grow without bound. */
export function pruneState(
  st: DriveState,
  now: number,
  dedupWindowMs: number,
  livePanes?: Set<string>,
): void {
  for (const [k, at] of Object.entries(st.dedup)) {
    if (now - at >= dedupWindowMs || at > now + 60_000) delete st.dedup[k];
  }
  if (livePanes) {
    for (const id of Object.keys(st.panes)) if (!livePanes.has(id)) delete st.panes[id];
  }
  for (const [id, m] of Object.entries(st.panes)) {
    if (!m.submitted && !m.limit && !m.strayKey) delete st.panes[id];
  }
}

/**
 * Dedup: true when `key` was not reported within the window (and records it as reported now).
 * A timestamp in the future (clock stepped back) counts as expired rather than silencing forever.
 */
export function shouldEmit(st: DriveState, key: string, now: number, windowMs: number): boolean {
  const last = st.dedup[key];
  if (last !== undefined && now - last < windowMs && last <= now) return false;
  st.dedup[key] = now;
  return true;
}
