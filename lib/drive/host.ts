/**
 * The host the drive loop runs against: every look and every key goes through a DriveHost, so the
 * loop runs against tmux (host_tmux.ts) or a test fake. Also the one view of a pane the verified
 * send path (nudge.ts) takes, with a fresh look before every key.
 */
import { DroverError } from "../errors.ts";
import type { DriveEvent, PaneRef } from "./events.ts";
import type { HookProblem } from "./hook.ts";
import type { ApproveOutcome } from "../approve/approve.ts";
import type { NudgePort } from "./nudge.ts";
import type { DriveVerdicts } from "./verdicts.ts";

export interface HostPane {
  ref: PaneRef;
  /** Settle delay between typing and Enter for this pane's CLI. */
  settleMs: number;
  /** The pane's window id ("@3"). */
  window?: string;
  /** Some pane of its window has synchronize-panes on (listed at the start of the tick). */
  synchronized?: boolean;
  /**
   * Set when no profile describes the pane's CLI (lib/profile/resolve.ts `judgedByDefault`): the
   * sentence its dialog and prompt escalations carry.
   */
  profileNote?: string;
}

/** What drive reads of an approval (lib/approve's outcome). */
export type ApproveResult = Pick<ApproveOutcome, "outcome" | "reason" | "message" | "sent">;

export interface DriveHost {
  /** The session's panes with CLI and role. Throws SESSION_GONE when the session or server is gone. */
  panes(): Promise<HostPane[]>;
  /** Judged captures of many panes in one go; a vanished pane is missing from the map. */
  look(panes: HostPane[]): Promise<Map<string, DriveVerdicts>>;
  /** One fresh judged capture; null when the pane vanished. */
  lookOne(pane: HostPane): Promise<DriveVerdicts | null>;
  keys(pane: HostPane, keys: string[]): Promise<void>;
  typeLiteral(pane: HostPane, text: string): Promise<void>;
  /**
   * The key an approver (any: drover approve, sweep.sh, drive) left in the pane's input box by
   * mistake (key-in-input), from the pane's own marker; undefined when none. `clear` drops it.
   */
  strayKey?(pane: HostPane, clear?: boolean): Promise<string | undefined>;
  /**
   * The §6 gate. `accept` re-checks each capture the gate judges: a capture it rejects must be
   * treated as "no live prompt" so nothing is sent.
   */
  approve(
    pane: HostPane,
    accept: (v: { command: string | null }) => boolean,
  ): Promise<ApproveResult>;
  /** Run --on-escalate; resolves to what went wrong (failed, timed out), if anything. */
  hook(cmd: string, e: DriveEvent): Promise<HookProblem | undefined>;
  /** Wait; resolves early (and clears its timer) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  now(): number;
}

/** The verified send path's view of one pane (the nudge's, and the resume's). */
export function sendPort(host: DriveHost, pane: HostPane): NudgePort {
  return {
    look: async () => {
      const v = await host.lookOne(pane);
      if (!v) throw new DroverError("TARGET_NOT_FOUND", `pane ${pane.ref.id} vanished`);
      // Every key of the send follows a look: none goes into a synchronized window.
      if (v.synchronized) throw synchronizedNow(pane);
      return v;
    },
    typeLiteral: (t) => host.typeLiteral(pane, t),
    keys: (k) => host.keys(pane, k),
    sleep: (ms) => host.sleep(ms),
  };
}

/** Synchronize-panes turned on since the listing, seen on the fresh capture before a key. */
export function synchronizedNow(pane: HostPane): DroverError {
  return new DroverError(
    "PANES_SYNCHRONIZED",
    `window ${pane.window ?? "?"} of ${pane.ref.id} has synchronize-panes on`,
  );
}
