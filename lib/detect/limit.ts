/**
 * A usage limit on the screen and when it resets (`limit_reset_pattern`), read only where the CLI
 * draws one (issue 27, DESIGN §5): the lowest line of the transcript's last lines that the pattern
 * matches — or that it matches joined with the lines right below, because a long banner ("… or try
 * again at Jul 5th, 2026 8:19 PM.") wraps — counts when the CLI drew it (blocks.ts: not inside an
 * answer, a tool's output or the user's message) and no newer work lies below it. A limit line
 * anywhere else is history, and so is every limit line above it. The lines under the input box
 * (the CLI's status area) are not read with this pattern: there only `status_limit_pattern` is the
 * CLI's own (unavailable.ts), read when the transcript shows no live limit ("⚠ Limit reached
 * (resets 8m)": the match is the limit, its `in` group counted from the capture time).
 *
 * The reset instant comes from the pattern's named groups (lib/limit/reset.ts) with the clock and
 * the local zone the caller passes; with no clock it stays null. A printed reset is trusted only
 * from the capture time to {@link TRUSTED_RESET_AHEAD_MS} ahead ("resets Jan 1, 2020", "Dec 4
 * 2099" are unreadable), and a zone printed blank ("( )") is unreadable, not UTC.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded, type Matcher, type RegexMatch } from "../regex/match.ts";
import { PRINTED_PRECISION_MS, type ResetCaptures, resetInstant } from "../limit/reset.ts";
import { drawnByCli, transcriptEnd } from "./blocks.ts";
import type { InputBox } from "./input.ts";
import type { Live } from "./liveness.ts";
import { BOTTOM_REGION, type Screen } from "./screen.ts";
import { contentOf } from "./text.ts";
import { statusLimitOf } from "./unavailable.ts";

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

/**
 * How far ahead a printed reset is believed: a weekly limit resets within 7 days; one day more
 * covers zones and rounding. Further ahead (or before the capture) the time was misread or is
 * not this limit's.
 */
export const TRUSTED_RESET_AHEAD_MS = 8 * 24 * 60 * 60_000;

/** The transcript's last non-blank lines (where a live banner can be), above its end. */
export function transcriptTail(s: Screen, end: number): number[] {
  const out: number[] = [];
  for (let k = s.nb.length - 1; k >= 0 && out.length < BOTTOM_REGION; k--) {
    if (s.nb[k] < end) out.push(s.nb[k]);
  }
  return out.reverse();
}

export function limitOf(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null,
  live: Live,
  clock: LimitClock,
): Limit {
  const end = transcriptEnd(s, box, live);
  if (end === null) return NO_LIMIT;
  const banner = bannerLimitOf(s, p, end, clock);
  if (banner !== null) return banner;
  const status = statusLimitOf(s, p, box);
  if (status === null) return NO_LIMIT;
  return { limit: status.match[0].trim(), limit_resets_at: resetOf(status.match, clock) };
}

/** The live limit banner of the transcript above `end`, else null. */
function bannerLimitOf(
  s: Screen,
  p: ResolvedProfile,
  end: number,
  clock: LimitClock,
): Limit | null {
  const re = p.matchers.patterns.limit_reset_pattern;
  if (re === null) return null;
  const lines = transcriptTail(s, end);
  for (let k = lines.length - 1; k >= 0; k--) {
    const hit = bannerAt(s, re, lines, k);
    if (!hit) continue;
    // The lowest limit line decides: one the CLI did not draw, or with newer work below it, is
    // history, and every limit line above it is older still.
    if (!drawnByCli(s, p, lines[k], lines[k + hit.lines - 1], end)) return null;
    return { limit: hit.text, limit_resets_at: resetOf(hit.match, clock) };
  }
  return null;
}

/** The reset a banner's named groups name, when it is readable and trusted; else null. */
function resetOf(match: RegexMatch, clock: LimitClock): string | null {
  if (clock.now === undefined) return null;
  const g = match.groups ?? {};
  // A zone printed blank is unreadable (never the local zone).
  if (g.zone !== undefined && g.zone.trim() === "") return null;
  const captures: ResetCaptures = {};
  for (const name of ["time", "date", "zone", "in"] as const) {
    const v = g[name];
    if (v !== undefined && v.trim() !== "") captures[name] = v;
  }
  const at = resetInstant(captures, {
    now: clock.now,
    timeZone: typeof clock.timeZone === "function" ? clock.timeZone() : clock.timeZone ?? "UTC",
  });
  if (at === null) return null;
  if (at < clock.now - PRINTED_PRECISION_MS || at > clock.now + TRUSTED_RESET_AHEAD_MS) return null;
  return new Date(at).toISOString();
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
): { text: string; match: RegexMatch; lines: number } | null {
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
    if (n === 1 || m.index + m[0].length > shorter) return { text, match: m, lines: n };
  }
  return null;
}
