/** How a drive run ends: its exit codes (README table) and the outcome the loop returns. */
import type { EventType } from "./events.ts";

/** Exit codes of `drover drive` (README table). */
export const DRIVE_EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  tmuxUnavailable: 3,
  sessionGone: 69,
  driveLocked: 73,
  stateUnwritable: 74,
  orchestratorUnavailable: 75,
  /** `--once`: a window was left alone because it has synchronize-panes on. */
  panesSynchronized: 19,
} as const;

export interface DriveOutcome {
  exitCode: number;
  ticks: number;
  reason:
    | "once"
    | "stopped"
    | "max-ticks"
    | "orchestrator-unavailable"
    | "orchestrator-limit"
    | "session-gone"
    | "synchronized";
  message: string;
  counts: Partial<Record<EventType, number>>;
}
