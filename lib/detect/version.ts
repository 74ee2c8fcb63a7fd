/**
 * The CLI's version as its own screen prints it (a welcome banner, a footer), through the profile's
 * `cli_version_pattern`. Reported only: no other verdict depends on it.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded } from "../regex/match.ts";
import type { Screen } from "./screen.ts";

/** Longest version string reported; anything longer is not a version. */
const MAX_VERSION = 40;

/** A version's shape once the pattern matched: digits first, then a dotted/dashed tail. */
const VERSION_SHAPE = /^[0-9]+(?:\.[0-9A-Za-z]+)+(?:[-+][0-9A-Za-z.-]+)?$/;

/** Group 1 of the last line matching `cli_version_pattern` (the newest banner), else null. */
export function cliVersionOf(s: Screen, p: ResolvedProfile): string | null {
  const re = p.matchers.patterns.cli_version_pattern;
  if (re === null) return null;
  for (let k = s.nb.length - 1; k >= 0; k--) {
    const m = execBounded(re, s.lines[s.nb[k]]);
    const v = m?.[1]?.trim();
    if (v !== undefined && v.length <= MAX_VERSION && VERSION_SHAPE.test(v)) return v;
  }
  return null;
}
