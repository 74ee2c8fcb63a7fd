/**
 * Configuration (DESIGN §3): discovery, parsing and strict validation. Every error names
 * `file:line: field: reason`; an invalid file is CONFIG_INVALID (exit 2), never a silent default.
 */
import { parseToml, TomlError } from "../deps/toml.ts";
import { DroverError } from "../errors.ts";
import type { FieldName, PartialProfileValues } from "../profile/fields.ts";
import type { CompiledPattern } from "../regex/mod.ts";
import { describe, validateProfileTable } from "../profile/validate.ts";
import { parseDuration } from "./duration.ts";
import { KeyLines, keyLines } from "./toml_lines.ts";

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
}

const KNOWN_CLI_KEYS = new Set(["command", "args", "prompt", "env", "enabled", "prompt_profile"]);
/** Keys a git-paw `[clis.<name>]` entry may carry: accepted so its files load, kept, not acted on. */
const GIT_PAW_CLI_KEYS = new Set([
  "display_name",
  "submit_delay_ms",
  "settings_path",
  "approval_args",
]);
const DRIVE_KEYS = new Set([
  "session",
  "orchestrator",
  "approve",
  "allow",
  "nudge",
  "nudge_every",
  "dedup_window",
  "interval",
  "events",
  "on_escalate",
  "hook_timeout",
  "state",
]);

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

function join(dir: string, ...parts: string[]): string {
  return [dir.replace(/\/+$/, ""), ...parts].join("/");
}

/** Find the configuration file by the §3 order. Null = no file at all (valid). */
export async function discoverConfig(
  opts: LoadOptions = {},
): Promise<{ path: string; source: ConfigSource } | null> {
  const env = opts.env ?? ((n: string) => Deno.env.get(n));
  if (opts.path !== undefined) {
    if (!(await exists(opts.path))) {
      throw new DroverError(
        "CONFIG_INVALID",
        `${opts.path}: configuration file not found (given with --config)`,
        { details: { file: opts.path } },
      );
    }
    return { path: opts.path, source: "flag" };
  }
  const fromEnv = env("DROVER_CONFIG");
  if (fromEnv) {
    if (!(await exists(fromEnv))) {
      throw new DroverError(
        "CONFIG_INVALID",
        `${fromEnv}: configuration file not found (named by $DROVER_CONFIG)`,
        { details: { file: fromEnv } },
      );
    }
    return { path: fromEnv, source: "env" };
  }
  let dir = opts.cwd ?? Deno.cwd();
  for (;;) {
    const p = join(dir, ".drover", "config.toml");
    if (await exists(p)) return { path: p, source: "project" };
    const parent = dir.replace(/\/[^/]*$/, "") || "/";
    if (parent === dir) break;
    dir = parent;
  }
  const xdg = env("XDG_CONFIG_HOME") || (env("HOME") ? join(env("HOME")!, ".config") : undefined);
  if (xdg) {
    const p = join(xdg, "drover", "config.toml");
    if (await exists(p)) return { path: p, source: "user" };
  }
  return null;
}

/** Discover, read and validate the configuration. Throws CONFIG_INVALID listing every problem. */
export async function loadConfig(opts: LoadOptions = {}): Promise<Config> {
  const found = await discoverConfig(opts);
  if (!found) return EMPTY_CONFIG;
  let text: string;
  try {
    text = await Deno.readTextFile(found.path);
  } catch (e) {
    throw new DroverError(
      "CONFIG_INVALID",
      `${found.path}: cannot read configuration: ${e instanceof Error ? e.message : String(e)}`,
      { details: { file: found.path } },
    );
  }
  return parseConfig(text, found.path, found.source);
}

/** Parse configuration text (exported for tests and `config check` on a given file). */
export function parseConfig(text: string, file: string, source: ConfigSource = "flag"): Config {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      const first = String(e.message).split("\n")[0].replace(/^Invalid TOML document: /, "");
      const issue = { file, line: e.line ?? 1, field: "(toml)", reason: first };
      throw configError([issue]);
    }
    throw e;
  }
  const lines = keyLines(text);
  const issues: ConfigIssue[] = [];
  const at = (path: (string | number)[], reason: string) =>
    issues.push({ file, line: lines.lineOf(path), field: fieldPath(path), reason });

  const unknown: UnknownEntry[] = [];
  let defaultCli: string | null = null;
  const clis: Record<string, CliEntry> = {};
  let drive: DriveConfig = {};

  for (const [key, value] of Object.entries(doc)) {
    if (key === "default_cli") {
      if (typeof value !== "string" || value.trim() === "") {
        at([key], `must be a non-empty string (a CLI name), got ${describe(value)}`);
      } else defaultCli = value.trim().split(/\s+/)[0];
    } else if (key === "clis") {
      if (!isTable(value)) {
        at([key], `must be a table of [clis.<name>] entries, got ${describe(value)}`);
        continue;
      }
      for (const [name, entry] of Object.entries(value)) {
        const parsed = parseCliEntry(name, entry, lines, at);
        if (parsed) clis[name] = parsed;
      }
    } else if (key === "drive") {
      drive = parseDrive(value, at);
    } else {
      unknown.push({ key, line: lines.lineOf([key]) });
    }
  }
  if (issues.length > 0) throw configError(issues);
  return Object.freeze({ path: file, source, defaultCli, clis, drive, unknown });
}

function configError(issues: ConfigIssue[]): DroverError {
  return new DroverError("CONFIG_INVALID", issues.map(formatIssue).join("\n"), {
    details: { issues },
  });
}

function fieldPath(path: (string | number)[]): string {
  let s = "";
  for (const p of path) {
    if (typeof p === "number") s += `[${p}]`;
    else s += (s ? "." : "") + (/^[A-Za-z0-9_-]+$/.test(p) ? p : JSON.stringify(p));
  }
  return s;
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

type At = (path: (string | number)[], reason: string) => void;

function parseCliEntry(name: string, entry: unknown, lines: KeyLines, at: At): CliEntry | null {
  const base = ["clis", name];
  if (!isTable(entry)) {
    at(base, `must be a table, got ${describe(entry)}`);
    return null;
  }
  let ok = true;
  const fail = (path: (string | number)[], reason: string) => {
    ok = false;
    at(path, reason);
  };
  let command: string | null = null;
  let args: string[] = [];
  let prompt: PromptStyle | null = null;
  let env: Record<string, string> = {};
  let enabled = true;
  const extra: Record<string, unknown> = {};
  let promptProfile: PartialProfileValues = {};
  let promptProfilePatterns: Partial<Record<FieldName, CompiledPattern>> = {};
  const promptProfileLines: Partial<Record<FieldName, number>> = {};

  for (const [key, v] of Object.entries(entry)) {
    const p = [...base, key];
    if (key === "command") {
      if (typeof v !== "string" || v.trim() === "") {
        fail(p, `must be a non-empty string, got ${describe(v)}`);
      } else command = v;
    } else if (key === "args") {
      if (!Array.isArray(v) || v.some((a) => typeof a !== "string")) {
        fail(p, "must be an array of strings (argv, never shell-interpreted)");
      } else args = [...(v as string[])];
    } else if (key === "prompt") {
      if (typeof v !== "string" || !/^(positional|none|flag:-\S+)$/.test(v)) {
        fail(p, `must be "positional", "none" or "flag:--<flag>", got ${JSON.stringify(v)}`);
      } else prompt = v as PromptStyle;
    } else if (key === "env") {
      if (!isTable(v)) fail(p, `must be a table of strings, got ${describe(v)}`);
      else {
        for (const [k, val] of Object.entries(v)) {
          if (typeof val !== "string") fail([...p, k], `must be a string, got ${describe(val)}`);
          else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) {
            fail([...p, k], "not a valid variable name");
          }
        }
        env = { ...(v as Record<string, string>) };
      }
    } else if (key === "enabled") {
      if (typeof v !== "boolean") fail(p, `must be true or false, got ${describe(v)}`);
      else enabled = v;
    } else if (key === "prompt_profile") {
      const { profile, issues } = validateProfileTable(v);
      for (const i of issues) fail([...p, ...i.path], i.reason);
      promptProfile = profile.values;
      promptProfilePatterns = profile.patterns;
      for (const f of Object.keys(profile.values) as FieldName[]) {
        promptProfileLines[f] = lines.lineOf([...p, f]);
      }
    } else if (GIT_PAW_CLI_KEYS.has(key)) {
      extra[key] = v;
    } else {
      fail(p, `unknown key (known: ${[...KNOWN_CLI_KEYS].join(", ")})`);
    }
  }
  if (!ok) return null;
  return Object.freeze({
    name,
    command,
    args,
    prompt,
    env,
    enabled,
    promptProfile,
    promptProfilePatterns,
    promptProfileLines,
    extra,
    line: lines.lineOf(base),
  });
}

function parseDrive(value: unknown, at: At): DriveConfig {
  if (!isTable(value)) {
    at(["drive"], `must be a table, got ${describe(value)}`);
    return {};
  }
  const out: Record<string, unknown> = {};
  const str = (key: string, v: unknown): string | undefined => {
    if (typeof v !== "string" || v.trim() === "") {
      at(["drive", key], `must be a non-empty string, got ${describe(v)}`);
      return undefined;
    }
    return v;
  };
  const dur = (key: string, v: unknown): number | undefined => {
    const s = str(key, v);
    if (s === undefined) return undefined;
    const ms = parseDuration(s);
    if (ms === null || ms <= 0) {
      at(["drive", key], `must be a duration like "15s", "10m" or "1h", got ${JSON.stringify(s)}`);
      return undefined;
    }
    return ms;
  };
  for (const [key, v] of Object.entries(value)) {
    switch (key) {
      case "approve":
        if (v !== "none" && v !== "allowlist") {
          at(["drive", key], `must be "none" or "allowlist", got ${JSON.stringify(v)}`);
        } else out.approve = v;
        break;
      case "allow":
        if (!Array.isArray(v) || v.some((a) => typeof a !== "string" || a.trim() === "")) {
          at(["drive", key], "must be an array of non-empty command prefixes");
        } else out.allow = v;
        break;
      case "nudge_every":
        out.nudgeEveryMs = dur(key, v);
        break;
      case "dedup_window":
        out.dedupWindowMs = dur(key, v);
        break;
      case "interval":
        out.intervalMs = dur(key, v);
        break;
      case "on_escalate":
        out.onEscalate = str(key, v);
        break;
      case "hook_timeout":
        out.hookTimeoutMs = dur(key, v);
        break;
      case "session":
      case "orchestrator":
      case "nudge":
      case "events":
      case "state":
        out[key] = str(key, v);
        break;
      default:
        at(["drive", key], `unknown key (known: ${[...DRIVE_KEYS].join(", ")})`);
    }
  }
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return Object.freeze(out) as DriveConfig;
}
