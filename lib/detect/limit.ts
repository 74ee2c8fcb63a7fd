/**
 * A usage limit on the screen and when it resets (`limit_reset_pattern`): the lowest line of the
 * bottom region, outside the input box, that the pattern matches — or that it matches joined with
 * the line below, because a long banner ("… or try again at Jul 5th, 2026 8:19 PM.") wraps. The
 * reset instant comes from the pattern's named groups (lib/limit/reset.ts) with the clock and the
 * local zone the caller passes; with no clock it stays null.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded, type Matcher, type RegexMatch } from "../regex/match.ts";
import { type ResetCaptures, resetIso } from "../limit/reset.ts";
import { bottomOutsideBox, type InputBox } from "./input.ts";
import type { Screen } from "./screen.ts";
import { contentOf } from "./text.ts";

export interface Limit {
  /** The banner as shown (one line, or two joined with a space). */
  limit: string | null;
  /** ISO 8601 instant the limit resets, or null (no time printed, unreadable, or no clock). */
  limit_resets_at: string | null;
}

export interface LimitClock {
  /** Epoch ms; without it no reset instant is computed. */
  now?: number;
  /** IANA name of the local zone, for a time printed without one (default UTC). */
  timeZone?: string;
}

export const NO_LIMIT: Limit = { limit: null, limit_resets_at: null };

export function limitOf(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null,
  clock: LimitClock,
): Limit {
  const re = p.matchers.patterns.limit_reset_pattern;
  if (re === null) return NO_LIMIT;
  const lines = bottomOutsideBox(s, box);
  for (let k = lines.length - 1; k >= 0; k--) {
    const hit = bannerAt(s, re, lines, k);
    if (!hit) continue;
    const g = hit.match.groups ?? {};
    const captures: ResetCaptures = {};
    for (const name of ["time", "date", "zone", "in"] as const) {
      const v = g[name];
      if (v !== undefined && v.trim() !== "") captures[name] = v;
    }
    const at = clock.now === undefined
      ? null
      : resetIso(captures, { now: clock.now, timeZone: clock.timeZone ?? "UTC" });
    return { limit: hit.text, limit_resets_at: at };
  }
  return NO_LIMIT;
}

/**
 * Line `lines[k]` as a banner: joined with the next line when the match reaches into it, else on
 * its own. A match that lies wholly in the next line is that line's own (found before, bottom up).
 */
function bannerAt(
  s: Screen,
  re: Matcher,
  lines: readonly number[],
  k: number,
): { text: string; match: RegexMatch } | null {
  const first = contentOf(s.lines[lines[k]]);
  if (first === "") return null;
  const nextIdx = lines[k + 1];
  if (nextIdx === lines[k] + 1) {
    const joined = `${first} ${contentOf(s.lines[nextIdx])}`;
    const m = execBounded(re, joined);
    if (m && m.index < first.length && m.index + m[0].length > first.length) {
      return { text: joined, match: m };
    }
  }
  const m = execBounded(re, first);
  return m ? { text: first, match: m } : null;
}
