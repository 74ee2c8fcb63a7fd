/**
 * Strict validation of a `prompt_profile` table (user config or shipped profile). A typo must never
 * silently fall back to a default, and a hostile value (empty marker, catch-all pattern,
 * back-reference) must never reach a detector.
 */
import { type FieldName, FIELDS, fieldSpec, type PartialProfileValues } from "./fields.ts";
import { type CompiledPattern, compilePattern, PatternError } from "../regex/mod.ts";

export interface ProfileIssue {
  /** Path inside the prompt_profile table: [field] or [field, index]. */
  path: (string | number)[];
  reason: string;
}

export interface ValidatedProfile {
  values: PartialProfileValues;
  patterns: Partial<Record<FieldName, CompiledPattern>>;
}

/**
 * Ordinary lines no marker or pattern may match all of: one that does matches every line of every
 * screen, and every verdict built on it would be true everywhere.
 */
export const GENERIC_LINES: readonly string[] = [
  "hello world",
  "x",
  "0",
  "$ ls -la",
  "────────",
  "Done.",
  "   ",
];

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function checkMarker(m: unknown, path: (string | number)[], issues: ProfileIssue[]): m is string {
  if (typeof m !== "string") {
    issues.push({ path, reason: `must be a string, got ${describe(m)}` });
    return false;
  }
  if (m.length === 0) {
    issues.push({ path, reason: "empty marker string (it would match every line)" });
    return false;
  }
  if (m.trim() === "") {
    issues.push({ path, reason: "marker is only whitespace (it would match almost every line)" });
    return false;
  }
  if (CONTROL.test(m)) {
    issues.push({ path, reason: "marker contains a control character (tab, newline, escape …)" });
    return false;
  }
  return true;
}

export function describe(v: unknown): string {
  if (Array.isArray(v)) return "an array";
  if (v === null) return "null";
  if (v instanceof Date) return "a date";
  return `a ${typeof v}`;
}

/** Validate one pattern source: compiles in the supported subset and is not a catch-all. */
export function checkPattern(src: string): CompiledPattern {
  const c = compilePattern(src);
  if (c.matcher.test("")) {
    throw new PatternError("matches the empty string, so it would match every line");
  }
  if (GENERIC_LINES.every((l) => c.matcher.test(l))) {
    throw new PatternError("matches every ordinary line (it would fire on any screen)");
  }
  return c;
}

export function validateProfileTable(
  table: unknown,
): { profile: ValidatedProfile; issues: ProfileIssue[] } {
  const issues: ProfileIssue[] = [];
  const values: Record<string, unknown> = {};
  const patterns: Partial<Record<FieldName, CompiledPattern>> = {};
  if (typeof table !== "object" || table === null || Array.isArray(table)) {
    issues.push({ path: [], reason: `must be a table, got ${describe(table)}` });
    return { profile: { values: {}, patterns }, issues };
  }
  for (const [key, v] of Object.entries(table as Record<string, unknown>)) {
    const spec = fieldSpec(key);
    if (!spec) {
      const near = suggest(key);
      issues.push({
        path: [key],
        reason: `unknown field${near ? ` (did you mean ${near}?)` : ""}; known fields: see ` +
          "`drover profile show --sources`",
      });
      continue;
    }
    if (spec.kind === "markers") {
      if (!Array.isArray(v)) {
        issues.push({ path: [key], reason: `must be an array of strings, got ${describe(v)}` });
        continue;
      }
      if (v.length === 0) {
        issues.push({ path: [key], reason: "empty list (omit the field to use the default)" });
        continue;
      }
      let ok = true;
      v.forEach((m, i) => {
        if (!checkMarker(m, [key, i], issues)) ok = false;
      });
      if (ok) values[key] = [...v];
    } else if (spec.kind === "marker") {
      if (checkMarker(v, [key], issues)) values[key] = v;
    } else {
      if (typeof v !== "string") {
        issues.push({ path: [key], reason: `must be a string (a regex), got ${describe(v)}` });
        continue;
      }
      try {
        patterns[key as FieldName] = checkPattern(v);
        values[key] = v;
      } catch (e) {
        const reason = e instanceof PatternError ? e.message : String(e);
        issues.push({ path: [key], reason: `invalid pattern ${quotePattern(v)}: ${reason}` });
      }
    }
  }
  return { profile: { values: values as PartialProfileValues, patterns }, issues };
}

/** The pattern as the error quotes it: JSON-escaped, and cut so a huge one is not echoed. */
function quotePattern(v: string): string {
  return v.length > 80 ? JSON.stringify(v.slice(0, 60)).slice(0, -1) + '…"' : JSON.stringify(v);
}

function suggest(key: string): string | null {
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
