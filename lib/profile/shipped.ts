/**
 * The shipped profiles as every start uses them: read from profiles/compiled.json, which
 * tools/gen_profiles.ts generates from the profiles/*.toml sources after validating them in full
 * (zod schema, pattern safety, the default's completeness). The sources are trusted build inputs,
 * so a start parses no TOML, loads no schema library and compiles no pattern: it only thaws the
 * matchers of the profiles it uses. tests/unit/profiles_compiled_test.ts fails when the generated
 * file is stale (`deno task profiles` rewrites it); `drover config check` re-validates the sources.
 */
import compiled from "../../profiles/compiled.json" with { type: "json" };
import type { FieldName, PartialProfileValues } from "./fields.ts";
import type { CompiledPattern } from "../regex/compile.ts";
import { type FrozenPattern, thawPattern } from "../regex/frozen.ts";

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

/** A shipped profile as profiles/compiled.json holds it: patterns frozen (lib/regex/frozen.ts). */
export type FrozenShippedProfile = Omit<ShippedProfile, "patterns"> & {
  readonly patterns: Partial<Record<FieldName, FrozenPattern>>;
};

/** Build a shipped profile from its frozen form; its matchers are built on first use. */
export function thawProfile(f: FrozenShippedProfile): ShippedProfile {
  let patterns: Partial<Record<FieldName, CompiledPattern>> | undefined;
  return Object.freeze({
    ...f,
    get patterns() {
      if (!patterns) {
        patterns = {};
        for (const [k, v] of Object.entries(f.patterns)) {
          patterns[k as FieldName] = thawPattern(v as FrozenPattern);
        }
      }
      return patterns;
    },
  });
}

let cache: readonly ShippedProfile[] | null = null;

/** Every shipped profile. */
export function shippedProfiles(): readonly ShippedProfile[] {
  cache ??= (compiled as unknown as FrozenShippedProfile[]).map(thawProfile);
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
