/**
 * Shipped profiles: parsed and validated with the same rules as user configuration. The Claude Code
 * profile is the default every field falls back to, so it must set every field.
 */
import { keyLines } from "../config/toml_lines.ts";
import { parseToml, TomlError } from "../deps/toml.ts";
import { DroverError } from "../errors.ts";
import { EMBEDDED_PROFILES } from "../../profiles/mod.ts";
import { type FieldName, FIELDS, type PartialProfileValues } from "./fields.ts";
import type { CompiledPattern } from "../regex/mod.ts";
import { describe, validateProfileTable } from "./validate.ts";

export interface ProfileProvenance {
  /** The newest version the profile was recorded against. */
  readonly cliVersion: string | null;
  /**
   * Every CLI version the profile is verified on (`verified_versions`; without it, `cli_version`
   * alone). Detection must hold on all of them and never needs to know which one a pane runs.
   */
  readonly verifiedVersions: readonly string[];
  readonly recorded: string | null;
  readonly fixtures: string | null;
  readonly scenarios: readonly string[];
  readonly notes: string | null;
}

export interface ShippedProfile {
  /** e.g. "claude-code". */
  readonly id: string;
  readonly name: string;
  /** CLI names / aliases this profile applies to (first token of the command, basename). */
  readonly clis: readonly string[];
  readonly verified: boolean;
  readonly isDefault: boolean;
  readonly file: string;
  readonly provenance: ProfileProvenance;
  readonly values: PartialProfileValues;
  readonly patterns: Partial<Record<FieldName, CompiledPattern>>;
  readonly lines: Partial<Record<FieldName, number>>;
}

const PROFILE_META_KEYS = new Set([
  "id",
  "name",
  "clis",
  "verified",
  "default",
  "cli_version",
  "verified_versions",
  "recorded",
  "fixtures",
  "scenarios",
  "notes",
  "tmux",
]);

/** Parse one profile file. Throws PROFILE_INVALID with `file:line: field: reason` lines. */
export function parseProfileFile(file: string, text: string): ShippedProfile {
  const problems: string[] = [];
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      throw new DroverError(
        "PROFILE_INVALID",
        `${file}:${e.line ?? 1}: (toml): ${String(e.message).split("\n")[0]}`,
      );
    }
    throw e;
  }
  const lines = keyLines(text);
  const at = (path: (string | number)[], reason: string) =>
    problems.push(`${file}:${lines.lineOf(path)}: ${path.join(".")}: ${reason}`);

  const meta = doc.profile;
  const m: Record<string, unknown> = typeof meta === "object" && meta !== null &&
      !Array.isArray(meta)
    ? meta as Record<string, unknown>
    : {};
  if (m !== meta) at(["profile"], "missing [profile] table (id, name, clis, verified, provenance)");
  for (const k of Object.keys(m)) if (!PROFILE_META_KEYS.has(k)) at(["profile", k], "unknown key");
  const str = (k: string, required: boolean): string | null => {
    const v = m[k];
    if (v === undefined) {
      if (required) at(["profile", k], "required");
      return null;
    }
    if (typeof v !== "string" || v.trim() === "") {
      at(["profile", k], `must be a non-empty string, got ${describe(v)}`);
      return null;
    }
    return v;
  };
  const id = str("id", true) ?? "?";
  const name = str("name", true) ?? id;
  const clis = Array.isArray(m.clis) && m.clis.every((c) => typeof c === "string" && c !== "")
    ? m.clis as string[]
    : (at(["profile", "clis"], "must be a non-empty array of CLI names"), []);
  if (clis.length === 0 && Array.isArray(m.clis)) at(["profile", "clis"], "empty list");
  const verified = m.verified === true;
  if (typeof m.verified !== "boolean") at(["profile", "verified"], "must be true or false");
  const isDefault = m.default === true;
  const scenarios = Array.isArray(m.scenarios) ? m.scenarios.map(String) : [];
  let verifiedVersions: string[] | null = null;
  if (m.verified_versions !== undefined) {
    const vv = m.verified_versions;
    if (
      Array.isArray(vv) && vv.length > 0 &&
      vv.every((v) => typeof v === "string" && v.trim() !== "")
    ) {
      verifiedVersions = vv as string[];
    } else at(["profile", "verified_versions"], "must be a non-empty array of version strings");
  }

  for (const k of Object.keys(doc)) {
    if (k !== "profile" && k !== "prompt_profile") at([k], "unknown table in a profile file");
  }
  const { profile, issues } = validateProfileTable(doc.prompt_profile ?? {});
  for (const i of issues) at(["prompt_profile", ...i.path], i.reason);
  if (isDefault) {
    for (const f of FIELDS) {
      if (!f.seed) continue;
      if (profile.values[f.name] === undefined && !issues.some((i) => i.path[0] === f.name)) {
        at(
          ["prompt_profile"],
          `the default profile must set every seed field; ${f.name} is missing`,
        );
      }
    }
  }
  if (problems.length > 0) {
    throw new DroverError("PROFILE_INVALID", problems.join("\n"), { details: { file } });
  }
  const fieldLines: Partial<Record<FieldName, number>> = {};
  for (const f of Object.keys(profile.values) as FieldName[]) {
    fieldLines[f] = lines.lineOf(["prompt_profile", f]);
  }
  return Object.freeze({
    id,
    name,
    clis,
    verified,
    isDefault,
    file,
    provenance: {
      cliVersion: str("cli_version", false),
      verifiedVersions: verifiedVersions ??
        (typeof m.cli_version === "string" && m.cli_version ? [m.cli_version] : []),
      recorded: str("recorded", false),
      fixtures: str("fixtures", false),
      scenarios,
      notes: str("notes", false),
    },
    values: profile.values,
    patterns: profile.patterns,
    lines: fieldLines,
  });
}

let cache: readonly ShippedProfile[] | null = null;

/** Every shipped profile, parsed once. */
export function shippedProfiles(): readonly ShippedProfile[] {
  if (cache) return cache;
  const parsed = EMBEDDED_PROFILES.map((p) => parseProfileFile(p.file, p.text));
  const defaults = parsed.filter((p) => p.isDefault);
  if (defaults.length !== 1) {
    throw new DroverError("PROFILE_INVALID", "exactly one shipped profile must be the default");
  }
  cache = parsed;
  return cache;
}

export function defaultProfile(): ShippedProfile {
  return shippedProfiles().find((p) => p.isDefault)!;
}

/** The verified shipped profile for a CLI name (exact alias match), if drover ships one. */
export function shippedFor(cliName: string): ShippedProfile | null {
  const key = cliName.toLowerCase();
  return shippedProfiles().find((p) => p.verified && p.clis.some((c) => c.toLowerCase() === key)) ??
    null;
}
