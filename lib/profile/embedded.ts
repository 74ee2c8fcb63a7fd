/**
 * Shipped profiles from their TOML sources (profiles/*.toml), validated with the same zod schema
 * as user configuration. The Claude Code profile is the default every field falls back to, so it
 * must set every seed field. This is the full, slow path: the generator of profiles/compiled.json,
 * `config check` and the tests use it; an ordinary start reads the generated file (shipped.ts).
 */
import { keyLines } from "../toml/key_lines.ts";
import { zodIssues } from "../toml/issues.ts";
import { parseToml, TomlError } from "../deps/toml.ts";
import { DroverError } from "../errors.ts";
import { EMBEDDED_PROFILES } from "../../profiles/mod.ts";
import type { FieldName } from "./fields.ts";
import { parsePattern } from "../regex/compile.ts";
import { freezePattern } from "../regex/frozen.ts";
import { profileFileSchema, type PromptProfileOutput, unknownFieldReason } from "./schema.ts";
import type { FrozenShippedProfile, ShippedProfile } from "./shipped.ts";
import { checkPattern, splitPatterns } from "./validate.ts";
import type { CompiledPattern } from "../regex/compile.ts";

export {
  defaultProfile,
  type ProfileProvenance,
  shippedFor,
  type ShippedProfile,
  shippedProfiles,
} from "./shipped.ts";

let schema: ReturnType<typeof profileFileSchema<CompiledPattern>> | undefined;

function unknownKey(path: readonly (string | number)[], key: string): string {
  if (path.length === 0) return "unknown table in a profile file";
  if (path[0] === "prompt_profile") return unknownFieldReason(key);
  return "unknown key";
}

/** Parse one profile file. Throws PROFILE_INVALID with `file:line: field: reason` lines. */
export function parseProfileFile(file: string, text: string): ShippedProfile {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      throw new DroverError(
        "PROFILE_INVALID",
        `${file}:${e.line ?? 1}: (toml): ${String(e.message).split("\n")[0].slice(0, 200)}`,
      );
    }
    throw e;
  }
  const lines = keyLines(text);
  schema ??= profileFileSchema(checkPattern);
  const r = schema.safeParse(doc);
  if (!r.success) {
    const problems = zodIssues(r.error.issues, unknownKey)
      .map((i) => ({ line: lines.lineOf(i.path), text: `${i.path.join(".")}: ${i.reason}` }))
      .sort((a, b) => a.line - b.line)
      .map((i) => `${file}:${i.line}: ${i.text}`);
    throw new DroverError("PROFILE_INVALID", problems.join("\n"), { details: { file } });
  }
  const m = r.data.profile;
  const { values, patterns } = splitPatterns(
    (r.data.prompt_profile ?? {}) as PromptProfileOutput<CompiledPattern>,
  );
  const fieldLines: Partial<Record<FieldName, number>> = {};
  for (const f of Object.keys(values) as FieldName[]) {
    fieldLines[f] = lines.lineOf(["prompt_profile", f]);
  }
  return Object.freeze({
    id: m.id,
    name: m.name,
    clis: m.clis,
    verified: m.verified,
    isDefault: m.default === true,
    file,
    provenance: {
      cliVersion: m.cli_version ?? null,
      verifiedVersions: m.verified_versions ?? (m.cli_version ? [m.cli_version] : []),
      recorded: m.recorded ?? null,
      fixtures: m.fixtures ?? null,
      scenarios: m.scenarios ?? [],
      notes: m.notes ?? null,
    },
    values,
    patterns,
    lines: fieldLines,
  });
}

/** Every embedded profile source, parsed and validated in full (exactly one is the default). */
export function parseEmbeddedProfiles(): ShippedProfile[] {
  const parsed = EMBEDDED_PROFILES.map((p) => parseProfileFile(p.file, p.text));
  if (parsed.filter((p) => p.isDefault).length !== 1) {
    throw new DroverError("PROFILE_INVALID", "exactly one shipped profile must be the default");
  }
  return parsed;
}

/** What profiles/compiled.json holds: the embedded profiles, validated, patterns frozen. */
export function frozenEmbeddedProfiles(): FrozenShippedProfile[] {
  return parseEmbeddedProfiles().map((p) => {
    const patterns: FrozenShippedProfile["patterns"] = {};
    for (const [k, c] of Object.entries(p.patterns)) {
      patterns[k as FieldName] = freezePattern(c, parsePattern(c.source).tree);
    }
    return { ...p, patterns };
  });
}
