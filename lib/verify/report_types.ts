/** The shapes a verify run reports in: one CLI's report, the request, the progress events. */
import type { Config } from "../config/load.ts";
import type { FoundCli } from "./find.ts";
import type { ScenarioResult } from "./result.ts";

export type CliStatus = "hold" | "drift" | "not-installed" | "interrupted";

export interface CliReport {
  cli: string;
  command: string;
  path: string | null;
  found_by: FoundCli["how"];
  version: string | null;
  status: CliStatus;
  profile: { shipped: string | null; config: string | null };
  size: string;
  counts: { hold: number; drift: number; skipped: number; not_run: number; total: number };
  scenarios: ScenarioResult[];
  ms: number;
  summary: string;
  /** Where this CLI's captures were saved (`--save`), else null. */
  saved: string | null;
}

export interface VerifyRequest {
  clis: string[];
  config: Config;
  keepGoing: boolean;
  save: string | null;
  signal: AbortSignal;
  onProgress?: (e: ProgressEvent) => void;
  /** Seam: PATH handed to the CLIs (default: drover's own). */
  path?: string;
}

export type ProgressEvent =
  | { kind: "start"; cli: string; version: string | null; path: string; sessions: number }
  | { kind: "not-installed"; cli: string; command: string }
  | { kind: "scenario"; cli: string; result: ScenarioResult }
  | { kind: "done"; report: CliReport };
