/** What a table run is given (the CLI to run, how to run it) and what its sessions share. */
import type { Config } from "../config/load.ts";
import type { ResolvedProfile } from "../profile/resolve.ts";
import type { ScenarioTable, Size } from "../scenarios/types.ts";
import type { PrivateServer } from "../tmux/private.ts";
import type { ScenarioResult } from "./result.ts";

export interface RunTarget {
  table: ScenarioTable;
  /** Absolute path of the executable. */
  exec: string;
  profile: ResolvedProfile;
  config: Config;
  /** PATH handed to the CLI (node-based CLIs need node on it). */
  path: string;
  /** The CLI's version (`--version`), for sessions that exist only from some version on. */
  version?: string | null;
}

export interface RunOptions {
  /** Sessions of the table run side by side (default: all of them, at most 5). */
  concurrency?: number;
  /** Without it the first drift stops the run: later scenarios are reported as not run. */
  keepGoing: boolean;
  signal: AbortSignal;
  /** Where throwaway roots are made (removed afterwards). */
  tmpRoot: string;
  onResult?: (r: ScenarioResult) => void;
  /** Grace for the CLI's own wording once a screen is reached (default WORDING_GRACE_MS). */
  wordingGraceMs?: number;
  /** Pane size (default VERIFY_SIZE). The lab runs the tables at more than one. */
  size?: Size;
  /** Only these sessions of the table (the lab runs each as a job of its own). */
  sessions?: string[];
  /** Make the session's HOME and project right in `tmpRoot` (one session per call; the lab). */
  flatRoot?: boolean;
  /**
   * A server someone else owns and ends (the lab's): used as is, never killed here. Each
   * session's process tree is still ended when the session is done.
   */
  server?: PrivateServer;
}

/** What the sessions of one table run share while they run side by side. */
export interface Live {
  server: PrivateServer;
  target: RunTarget;
  opts: RunOptions;
  /** Set once a drift was seen and the run should stop (no --keep-going). */
  stop: { now: boolean };
}
