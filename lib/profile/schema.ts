/**
 * The zod schemas of a prompt-shape profile: the `prompt_profile` table (derived from the one
 * FIELDS table, so a new field is one entry there) and a shipped profile file. Reasons are written
 * for a person and never echo more than a short excerpt of a value; callers turn each issue into
 * `file:line: field: reason` with the TOML line map.
 *
 * Pattern checking needs the regex engine, so it is passed in (validate.ts wires it): this module
 * and zod load only where a profile is validated — a configuration file, `config check`, the
 * generator of the precompiled shipped profiles and the tests — never on an ordinary start.
 */
import { z } from "../deps/zod.ts";
import { type FieldName, FIELDS, type FieldSpec } from "./fields.ts";
import { markerProblem, PROFILE_LIMITS } from "./value_rules.ts";

export { markerProblem, PROFILE_LIMITS };

export function describe(v: unknown): string {
  if (Array.isArray(v)) return "an array";
  if (v === null) return "null";
  if (v instanceof Date) return "a date";
  return `a ${typeof v}`;
}

/** A value as an error quotes it: JSON-escaped and cut, so a huge value is never echoed. */
export function quote(v: unknown): string {
  const s = typeof v === "string" ? v : String(v);
  return s.length > 80 ? JSON.stringify(s.slice(0, 60)).slice(0, -1) + '…"' : JSON.stringify(s);
}

const MARKER = z.string({ error: (i) => `must be a string, got ${describe(i.input)}` })
  .check((ctx) => {
    const problem = markerProblem(ctx.value);
    if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
  });

const MARKERS = z.array(MARKER, {
  error: (i) => `must be an array of strings, got ${describe(i.input)}`,
})
  .min(1, "empty list (omit the field to use the default)")
  .max(
    PROFILE_LIMITS.markersPerField,
    `too many markers; at most ${PROFILE_LIMITS.markersPerField} per field`,
  );

/**
 * A pattern checker: the compiled form, or throws an Error whose message is the reason. `field`
 * says which field the pattern is for (a field may require named groups, FieldSpec.namedGroups).
 */
export type PatternCheck<P> = (source: string, field?: FieldSpec) => P;

function patternSchema<P>(check: PatternCheck<P>, field: FieldSpec) {
  return z.string({ error: (i) => `must be a string (a regex), got ${describe(i.input)}` })
    .transform((v, ctx): { source: string; compiled: P } => {
      try {
        return { source: v, compiled: check(v, field) };
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        ctx.issues.push({
          code: "custom",
          message: `invalid pattern ${quote(v)}: ${reason.slice(0, 300)}`,
          input: v,
        });
        return z.NEVER;
      }
    });
}

function fieldSchema<P>(f: FieldSpec, check: PatternCheck<P>) {
  if (f.kind === "markers") return MARKERS;
  if (f.kind === "marker") return MARKER;
  return patternSchema(check, f);
}

/** Closest field name for a typo (at most 3 edits), or null. */
export function nearestField(key: string): string | null {
  if (key.length > 64) return null;
  let best: string | null = null, bestD = 4;
  for (const f of FIELDS) {
    const d = distance(key, f.name);
    if (d < bestD) {
      bestD = d;
      best = f.name;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0];
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j];
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length];
}

/** The reason given for a key a `prompt_profile` table does not have. */
export function unknownFieldReason(key: string): string {
  const near = nearestField(key);
  return `unknown field${near ? ` (did you mean ${near}?)` : ""}; known fields: see ` +
    "`drover profile show --sources`";
}

/**
 * The `prompt_profile` table: every FIELDS entry, optional, nothing else. Pattern fields come out
 * as `{ source, compiled }` (what `check` returned).
 */
export function promptProfileSchema<P>(check: PatternCheck<P>) {
  const shape: Record<string, z.ZodType> = {};
  for (const f of FIELDS) shape[f.name] = fieldSchema(f, check).optional();
  return z.strictObject(shape, {
    error: (i) =>
      i.code === "invalid_type" ? `must be a table, got ${describe(i.input)}` : undefined,
  }).check((ctx) => {
    let total = 0;
    for (const v of Object.values(ctx.value)) {
      if (Array.isArray(v)) total += v.length;
      else if (typeof v === "string") total++;
    }
    if (total > PROFILE_LIMITS.markersPerProfile) {
      ctx.issues.push({
        code: "custom",
        message: `${total} markers in one profile; at most ${PROFILE_LIMITS.markersPerProfile}`,
        input: ctx.value,
      });
    }
  });
}

export type PromptProfileOutput<P> = Partial<
  Record<FieldName, string | string[] | { source: string; compiled: P }>
>;

// ---------------------------------------------------------------------------------------------
// A shipped profile file (profiles/*.toml): [profile] metadata + [prompt_profile].

const NON_EMPTY = z.string({ error: (i) => `must be a non-empty string, got ${describe(i.input)}` })
  .refine((s) => s.trim() !== "", { error: "must be a non-empty string, got an empty string" });

export const PROFILE_META = z.strictObject({
  id: NON_EMPTY,
  name: NON_EMPTY,
  clis: z.array(z.string().min(1), { error: "must be a non-empty array of CLI names" })
    .min(1, "empty list"),
  verified: z.boolean({ error: "must be true or false" }),
  default: z.boolean({ error: "must be true or false" }).optional(),
  cli_version: NON_EMPTY.optional(),
  verified_versions: z.array(NON_EMPTY, {
    error: "must be a non-empty array of version strings",
  }).min(1, "must be a non-empty array of version strings").optional(),
  recorded: NON_EMPTY.optional(),
  fixtures: NON_EMPTY.optional(),
  scenarios: z.array(z.string()).optional(),
  notes: NON_EMPTY.optional(),
  tmux: z.unknown().optional(),
}, {
  error: (i) =>
    i.code === "invalid_type"
      ? "missing [profile] table (id, name, clis, verified, provenance)"
      : undefined,
});

export function profileFileSchema<P>(check: PatternCheck<P>) {
  return z.strictObject({
    profile: PROFILE_META,
    prompt_profile: promptProfileSchema(check).optional(),
  }).check((ctx) => {
    // The default profile is what every field falls back to: it must set every seed field.
    const meta = ctx.value.profile;
    const table = ctx.value.prompt_profile ?? {};
    if (meta.default !== true) return;
    for (const f of FIELDS) {
      if (f.seed && table[f.name] === undefined) {
        ctx.issues.push({
          code: "custom",
          path: ["prompt_profile"],
          message: `the default profile must set every seed field; ${f.name} is missing`,
          input: table,
        });
      }
    }
  });
}
