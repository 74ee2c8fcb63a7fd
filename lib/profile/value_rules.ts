/**
 * The rules a `prompt_profile` value must keep that need neither zod nor the regex parser: the
 * limits on markers and what makes a marker or a compiled pattern unusable. The schema (schema.ts,
 * validate.ts) applies them to a file it validates; the configuration cache (lib/config/cache.ts)
 * applies them again to what it reads back, so a damaged cache is caught without loading zod.
 */
import type { FieldSpec } from "./fields.ts";
import { hasControl } from "../base/control.ts";

/** Limits on a `prompt_profile` table: they keep sweep.sh's grep alternations and drover fast. */
export const PROFILE_LIMITS = {
  /** Markers in one list field. */
  markersPerField: 64,
  /** Characters in one marker. */
  markerLength: 256,
  /** Markers in one profile table, all fields together. */
  markersPerProfile: 256,
} as const;

/** Why a marker string is unusable, or null. One reason per marker, the first that applies. */
export function markerProblem(m: string): string | null {
  if (m.length === 0) return "empty marker string (it would match every line)";
  if (m.trim() === "") return "marker is only whitespace (it would match almost every line)";
  if (hasControl(m)) return "marker contains a control character (tab, newline, escape …)";
  if (m.length > PROFILE_LIMITS.markerLength) {
    return `marker is ${m.length} characters long; at most ${PROFILE_LIMITS.markerLength} are allowed`;
  }
  return null;
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

/** What a compiled pattern's matcher offers these checks. */
export interface PatternMatcher {
  test(line: string): boolean;
  readonly names: ReadonlyMap<string, number>;
}

/** Why a compiled pattern would fire on any screen, or null. */
export function catchAllProblem(m: PatternMatcher): string | null {
  if (m.test("")) return "matches the empty string, so it would match every line";
  if (GENERIC_LINES.every((l) => m.test(l))) {
    return "matches every ordinary line (it would fire on any screen)";
  }
  return null;
}

/** A field that reads named groups: only names it knows, and at least one it needs; else why not. */
export function namedGroupsProblem(m: PatternMatcher, field: FieldSpec): string | null {
  const groups = field.namedGroups;
  if (!groups) return null;
  const names = [...m.names.keys()];
  const unknown = names.filter((n) => !groups.allowed.includes(n));
  if (unknown.length > 0) {
    return `unknown named group ${unknown.map((n) => `"${n}"`).join(", ")} (allowed: ${
      groups.allowed.join(", ")
    })`;
  }
  if (!groups.anyOf.some((n) => names.includes(n))) {
    return `needs a named group ${groups.anyOf.map((n) => `(?P<${n}>…)`).join(" or ")}`;
  }
  return null;
}
