/**
 * What a loaded configuration looks like (DESIGN §3). Only types and the empty configuration:
 * importing this module loads nothing else.
 */
import type { FieldName, PartialProfileValues } from "../profile/fields.ts";
import type { CompiledPattern } from "../regex/mod.ts";

export type ConfigSource = "flag" | "env" | "project" | "user" | "none";

/** How a kickoff prompt is passed to a CLI: `positional`, `none`, or `flag:<flag>`. */
export type PromptStyle = "positional" | "none" | `flag:${string}`;

export interface CliEntry {
  /** The table key: `[clis.<name>]`. */
  readonly name: string;
  /** Executable (PATH name or absolute path); null when the entry does not set one. */
  readonly command: string | null;
  readonly args: readonly string[];
  readonly prompt: PromptStyle | null;
  readonly env: Readonly<Record<string, string>>;
  readonly enabled: boolean;
  /** Validated `[clis.<name>.prompt_profile]` values (only the fields that are set). */
  readonly promptProfile: PartialProfileValues;
  readonly promptProfilePatterns: Partial<Record<FieldName, CompiledPattern>>;
  /** Line of each prompt_profile field in the file (for `profile show --sources`). */
  readonly promptProfileLines: Partial<Record<FieldName, number>>;
  /** git-paw keys drover accepts and keeps but does not act on (display_name, submit_delay_ms …). */
  readonly extra: Readonly<Record<string, unknown>>;
  readonly line: number;
}

export type ApproveMode = "none" | "allowlist";

/** `[drive]` defaults for `drover drive` (flags override). Durations are milliseconds. */
export interface DriveConfig {
  readonly session?: string;
  readonly orchestrator?: string;
  readonly approve?: ApproveMode;
  readonly allow?: readonly string[];
  readonly nudge?: string;
  readonly nudgeEveryMs?: number;
  readonly dedupWindowMs?: number;
  readonly intervalMs?: number;
  readonly events?: string;
  readonly onEscalate?: string;
  readonly hookTimeoutMs?: number;
  readonly state?: string;
  /** Typed once into a pane whose usage limit has reset (issue 12); off when absent. */
  readonly resume?: string;
  readonly resumeMarginMs?: number;
}

export interface UnknownEntry {
  readonly key: string;
  readonly line: number;
}

export interface Config {
  /** The file that was loaded, or null when none exists (embedded defaults only). */
  readonly path: string | null;
  readonly source: ConfigSource;
  readonly defaultCli: string | null;
  readonly clis: Readonly<Record<string, CliEntry>>;
  readonly drive: DriveConfig;
  /** Top-level tables/keys drover does not know: reported by `config check`, otherwise ignored. */
  readonly unknown: readonly UnknownEntry[];
  /** Line of each `[drive].allow` entry in the file (for `config check`'s notes on them). */
  readonly allowLines?: readonly number[];
}

export interface ConfigIssue {
  file: string;
  line: number;
  field: string;
  reason: string;
}

export function formatIssue(i: ConfigIssue): string {
  return `${i.file}:${i.line}: ${i.field}: ${i.reason}`;
}

/** The configuration used when no file exists. */
export const EMPTY_CONFIG: Config = Object.freeze({
  path: null,
  source: "none",
  defaultCli: null,
  clis: Object.freeze({}),
  drive: Object.freeze({}),
  unknown: Object.freeze([]),
}) as Config;

export interface LoadOptions {
  /** `--config PATH` (must exist). */
  path?: string;
  /** Directory discovery starts from (default: the process cwd). */
  cwd?: string;
  /** Environment lookup (tests inject one); default Deno.env.get. */
  env?: (name: string) => string | undefined;
  /**
   * Directory of the configuration cache (lib/config/cache.ts); null: no cache. Default: the
   * user's (`userCacheDir` of `env`).
   */
  cacheDir?: string | null;
  /** Whose cache files count (default: this process's uid). */
  uid?: number | null;
}
