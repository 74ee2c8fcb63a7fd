/**
 * Configuration (DESIGN §3): parsing and strict validation against the zod schemas of schema.ts.
 * Every error names `file:line: field: reason` (the line from the TOML line map); an invalid file
 * is CONFIG_INVALID (exit 2), never a silent default.
 *
 * This module loads smol-toml, zod and the regex engine, so product code reaches it only through
 * discover.ts's loadConfig, which imports it when there is a file to read. It re-exports the
 * light types for the callers and tests that import them from here (discovery is discover.ts's).
 */
import { parseToml, TomlError } from "../deps/toml.ts";
import { DroverError } from "../errors.ts";
import type { FieldName } from "../profile/fields.ts";
import { unknownFieldReason } from "../profile/schema.ts";
import { checkPattern, splitPatterns } from "../profile/validate.ts";
import type { CompiledPattern } from "../regex/mod.ts";
import { CONFIG_MAX_BYTES, tooLarge } from "./size.ts";
import { zodIssues } from "../toml/issues.ts";
import { configSchema, GIT_PAW_CLI_KEYS, unknownKeyReason } from "./schema.ts";
import { type KeyLines, keyLines } from "../toml/key_lines.ts";
import {
  type CliEntry,
  type Config,
  type ConfigIssue,
  type ConfigSource,
  type DriveConfig,
  formatIssue,
  type PromptStyle,
  type UnknownEntry,
} from "./types.ts";

export * from "./types.ts";
export { CONFIG_MAX_BYTES } from "./size.ts";

let schema: ReturnType<typeof configSchema<CompiledPattern>> | undefined;

const KNOWN_TOP = new Set(["default_cli", "clis", "drive"]);

type ConfigDoc = ReturnType<NonNullable<typeof schema>["parse"]>;
type CliDoc = NonNullable<ConfigDoc["clis"]>[string];
type DriveDoc = NonNullable<ConfigDoc["drive"]>;

/** Parse configuration text (exported for tests and `config check` on a given file). */
export function parseConfig(text: string, file: string, source: ConfigSource = "flag"): Config {
  if (new TextEncoder().encode(text).length > CONFIG_MAX_BYTES) throw tooLarge(file);
  const doc = tomlDocument(text, file);
  const lines = keyLines(text);
  const d = validated(doc, lines, file);
  const unknown: UnknownEntry[] = Object.keys(doc).filter((k) => !KNOWN_TOP.has(k))
    .map((key) => ({ key, line: lines.lineOf([key]) }));
  const clis: Record<string, CliEntry> = {};
  for (const [name, e] of Object.entries(d.clis ?? {})) clis[name] = cliEntry(name, e, lines);
  const dv = d.drive ?? {};
  return Object.freeze({
    path: file,
    source,
    defaultCli: d.default_cli === undefined ? null : d.default_cli.trim().split(/\s+/)[0],
    clis,
    drive: driveConfig(dv),
    unknown,
    allowLines: (dv.allow ?? []).map((_, i) => lines.lineOf(["drive", "allow", i])),
  });
}

/** The TOML document, or CONFIG_INVALID naming the parser's first complaint and its line. */
function tomlDocument(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      const first = String(e.message).split("\n")[0].replace(/^Invalid TOML document: /, "")
        .slice(0, 200);
      const issue = { file, line: e.line ?? 1, field: "(toml)", reason: first };
      throw configError([issue]);
    }
    throw e;
  }
}

/** The document checked against the schema; else every issue at its line, in line order. */
function validated(doc: Record<string, unknown>, lines: KeyLines, file: string): ConfigDoc {
  schema ??= configSchema(checkPattern);
  const r = schema.safeParse(doc);
  if (r.success) return r.data;
  const issues = zodIssues(
    r.error.issues,
    (path, key) =>
      path.at(-1) === "prompt_profile" ? unknownFieldReason(key) : unknownKeyReason(path, key),
  ).map((i): ConfigIssue => ({
    file,
    line: lines.lineOf(i.path),
    field: fieldPath(i.path),
    reason: i.reason,
  }));
  issues.sort((a, b) => a.line - b.line);
  throw configError(issues);
}

/** One validated `[clis.<name>]` table as a frozen CliEntry, with the line of each field. */
function cliEntry(name: string, e: CliDoc, lines: KeyLines): CliEntry {
  const base = ["clis", name];
  const { values, patterns } = splitPatterns(e.prompt_profile ?? {});
  const promptProfileLines: Partial<Record<FieldName, number>> = {};
  for (const f of Object.keys(values) as FieldName[]) {
    promptProfileLines[f] = lines.lineOf([...base, "prompt_profile", f]);
  }
  const extra: Record<string, unknown> = {};
  for (const k of GIT_PAW_CLI_KEYS) {
    if (k in e) extra[k] = (e as Record<string, unknown>)[k];
  }
  return Object.freeze({
    name,
    command: e.command ?? null,
    args: e.args ?? [],
    prompt: (e.prompt ?? null) as PromptStyle | null,
    env: e.env ?? {},
    enabled: e.enabled ?? true,
    promptProfile: values,
    promptProfilePatterns: patterns,
    promptProfileLines,
    extra,
    line: lines.lineOf(base),
  });
}

/** The [drive] table with its keys renamed to DriveConfig's (durations say they are ms). */
function driveConfig(dv: DriveDoc | Record<string, never>): DriveConfig {
  const drive: Record<string, unknown> = {};
  const rename: Record<string, string> = {
    nudge_every: "nudgeEveryMs",
    dedup_window: "dedupWindowMs",
    interval: "intervalMs",
    on_escalate: "onEscalate",
    hook_timeout: "hookTimeoutMs",
    resume_margin: "resumeMarginMs",
  };
  for (const [k, v] of Object.entries(dv)) if (v !== undefined) drive[rename[k] ?? k] = v;
  return Object.freeze(drive) as DriveConfig;
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
    else {
      // A key is shown whole unless it is absurdly long (then cut, like any quoted value).
      const k = p.length > 80 ? p.slice(0, 60) + "…" : p;
      s += (s ? "." : "") + (/^[A-Za-z0-9_-]+$/.test(p) ? k : JSON.stringify(k));
    }
  }
  return s;
}
