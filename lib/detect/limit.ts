/**
 * A usage limit on the screen and when it resets (`limit_reset_pattern`): the lowest line of the
 * bottom region, outside the input box, that the pattern matches — or that it matches joined with
 * the lines right below, because a long banner ("… or try again at Jul 5th, 2026 8:19 PM.") wraps. The
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

/**
 * The IANA name of a zone, or where to get it: reading the machine's zone starts ICU, which costs
 * more than the rest of a `detect` start together, so callers hand over a function and it is
 * called only when a printed reset time needs it.
 */
export type ZoneSource = string | (() => string);

export interface LimitClock {
  /** Epoch ms; without it no reset instant is computed. */
  now?: number;
  /** The local zone, for a time printed without one (default UTC). */
  timeZone?: ZoneSource;
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
    const at = clock.now === undefined ? null : resetIso(captures, {
      now: clock.now,
      timeZone: typeof clock.timeZone === "function" ? clock.timeZone() : clock.timeZone ?? "UTC",
    });
    return { limit: hit.text, limit_resets_at: at };
  }
  return NO_LIMIT;
}

/** How many screen lines one banner may wrap over (Codex's is three at 80 columns). */
export const MAX_BANNER_LINES = 4;

/**
 * Line `lines[k]` as a banner: joined with as many of the lines right below it as the match
 * reaches into (up to MAX_BANNER_LINES), else on its own. A match that starts in a later line is
 * that line's own (found before, bottom up).
 */
function bannerAt(
  s: Screen,
  re: Matcher,
  lines: readonly number[],
  k: number,
): { text: string; match: RegexMatch } | null {
  const parts = [contentOf(s.lines[lines[k]])];
  if (parts[0] === "") return null;
  for (let j = 1; j < MAX_BANNER_LINES && lines[k + j] === lines[k] + j; j++) {
    parts.push(contentOf(s.lines[lines[k + j]]));
  }
  for (let n = parts.length; n >= 1; n--) {
    const text = parts.slice(0, n).join(" ");
    const m = execBounded(re, text);
    if (!m || m.index >= parts[0].length) continue;
    // Joined: only when the match needs the last line joined (else fewer lines say the same).
    const shorter = n === 1 ? 0 : parts.slice(0, n - 1).join(" ").length;
    if (n === 1 || m.index + m[0].length > shorter) return { text, match: m };
  }
  return null;
}
