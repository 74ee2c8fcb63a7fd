/**
 * What acting on a pane changes in the drive state, each change named for what happened. The
 * loop's actions (act.ts, act_limit.ts) write the state only through these, so a reader finds in
 * one file everything a key or an approval leaves behind for the next tick (and the next cron
 * run). Forgetting what the screen no longer shows is decide.ts `observe`; dedup windows and
 * pruning are state.ts's.
 */
import type { DriveState, LimitMemory, PaneMemory } from "./state.ts";

function paneMemory(st: DriveState, paneId: string): PaneMemory {
  return (st.panes[paneId] ??= {});
}

/**
 * Enter was pressed for this input text, or a send left it in the box: either way it gets no
 * Enter from stranded-input recovery (again).
 */
export function rememberSubmitted(st: DriveState, paneId: string, text: string, at: number): void {
  paneMemory(st, paneId).submitted = { text, at };
}

/** The key an approver left in the input box: never pressed Enter on as stranded input. */
export function rememberStrayKey(st: DriveState, paneId: string, text: string, at: number): void {
  paneMemory(st, paneId).strayKey = { text, at };
}

/** The orchestrator was nudged: the next nudge is an interval from now. */
export function rememberNudge(st: DriveState, at: number): void {
  st.orchestrator.lastNudgeAt = at;
}

/** The pane's usage limit as it stands now: seen, waiting, or back to waiting. */
export function rememberLimit(st: DriveState, paneId: string, m: LimitMemory): void {
  paneMemory(st, paneId).limit = m;
}

/**
 * The limit's one resume, typed now: remembered (and written) before the first key, so no second
 * resume follows for the same occurrence.
 */
export function rememberResume(
  st: DriveState,
  paneId: string,
  m: LimitMemory,
  at: number,
  resumeText: string,
): void {
  paneMemory(st, paneId).limit = { ...m, resumedAt: at, resumes: m.resumes + 1, resumeText };
}

/** The CLI went on by itself (its own auto-continue, or a person) before drover typed anything. */
export function rememberMovedOn(
  st: DriveState,
  paneId: string,
  m: LimitMemory,
  at: number,
  movedOn: string[],
): void {
  paneMemory(st, paneId).limit = { ...m, resumedAt: at, movedOn };
}

/** The limit banner is gone: nothing left to resume. */
export function forgetLimit(st: DriveState, paneId: string): void {
  delete paneMemory(st, paneId).limit;
}
