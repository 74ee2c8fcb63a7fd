/**
 * Strict validation of a `prompt_profile` table (user config or shipped profile). A typo must never
 * silently fall back to a default, and a hostile value (empty marker, catch-all pattern,
 * back-reference) must never reach a detector.
 */
import type { FieldName, FieldSpec, PartialProfileValues } from "./fields.ts";
import { type CompiledPattern, compilePattern, PatternError } from "../regex/mod.ts";
import { zodIssues } from "../toml/issues.ts";
import { catchAllProblem, GENERIC_LINES, namedGroupsProblem } from "./value_rules.ts";
import {
  describe,
  type PromptProfileOutput,
  promptProfileSchema,
  unknownFieldReason,
} from "./schema.ts";

export interface ProfileIssue {
  /** Path inside the prompt_profile table: [field] or [field, index]. */
  path: (string | number)[];
  reason: string;
}

export interface ValidatedProfile {
  values: PartialProfileValues;
  patterns: Partial<Record<FieldName, CompiledPattern>>;
}

export { describe, GENERIC_LINES };

/**
 * Validate one pattern source: compiles in the supported subset, is not a catch-all, and has the
 * named groups its field reads (when `field` says it reads any).
 */
export function checkPattern(src: string, field?: FieldSpec): CompiledPattern {
  const c = compilePattern(src);
  const problem = catchAllProblem(c.matcher) ??
    (field ? namedGroupsProblem(c.matcher, field) : null);
  if (problem !== null) throw new PatternError(problem);
  return c;
}

let schema: ReturnType<typeof promptProfileSchema<CompiledPattern>> | undefined;

/** Validate a `prompt_profile` table with its zod schema (lib/profile/schema.ts). */
export function validateProfileTable(
  table: unknown,
): { profile: ValidatedProfile; issues: ProfileIssue[] } {
  schema ??= promptProfileSchema(checkPattern);
  const r = schema.safeParse(table);
  if (!r.success) {
    const issues = zodIssues(r.error.issues, (_path, key) => unknownFieldReason(key));
    return { profile: { values: {}, patterns: {} }, issues };
  }
  return { profile: splitPatterns(r.data as PromptProfileOutput<CompiledPattern>), issues: [] };
}

/** Pattern fields come out of the schema as { source, compiled }: values keep the source. */
export function splitPatterns(out: PromptProfileOutput<CompiledPattern>): ValidatedProfile {
  const values: Record<string, unknown> = {};
  const patterns: Partial<Record<FieldName, CompiledPattern>> = {};
  for (const [k, v] of Object.entries(out)) {
    if (v === undefined) continue;
    if (typeof v === "object" && !Array.isArray(v)) {
      values[k] = v.source;
      patterns[k as FieldName] = v.compiled;
    } else values[k] = Array.isArray(v) ? [...v] : v;
  }
  return { values: values as PartialProfileValues, patterns };
}
