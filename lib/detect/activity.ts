/**
 * Busy by shape (issue 21, DESIGN §5 "Busy and the region above the input box"): where the input
 * box is drawn between rules (Claude Code), the CLI draws what it is doing now — its activity
 * line, the turn's summary, the tips under them — in the region between the transcript's last
 * answer block and the box, and its mode footer below the box. A busy or activity line anywhere
 * else is history (a spinner line left above a newer answer) or quoted (an answer that says "esc
 * to interrupt"). Pending background work is read from the same two places.
 *
 * An input line a profile draws with no rules (`input_line_pattern`: Codex, Gemini CLI, Qwen
 * Code, OpenCode) has no such boundary; there the bottom region is read as before (readiness.ts).
 * Compiled shape rules over the profile's own words (`activity_line_pattern`,
 * `background_pattern`): a profile describes the lines, never where they count.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded } from "../regex/match.ts";
import { placeOf } from "./blocks.ts";
import { bottomOutsideBox, type InputBox } from "./input.ts";
import { isBusyLine } from "./line_kinds.ts";
import { midResponseOf } from "./readiness.ts";
import type { Screen } from "./screen.ts";
import { isBlank, isRule } from "./text.ts";

/**
 * How many non-blank lines above the input box the turn's region is looked at (a long task list
 * under it). Blank rows do not count: in a tall pane a CLI can leave the rows between its
 * transcript and its input box empty (Cline 3.0.65 at 120x60: the busy line 42 rows above the box).
 */
export const TURN_REGION_ABOVE = 40;

/** The two places a ruled input box gives the CLI's own state lines. */
export interface TurnRegion {
  /** Non-blank lines between the last answer block (or the user's message) and the box. */
  above: number[];
  /** Non-blank lines of the bottom region below the box (the mode footer, a status line). */
  below: number[];
}

/** The turn's region around a ruled input box; null when the box is not ruled or not there. */
export function turnRegionOf(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null,
): TurnRegion | null {
  if (box === null || p.matchers.patterns.input_line_pattern !== null) return null;
  let i = box.line - 1;
  while (i >= 0 && isBlank(s.lines[i])) i--;
  if (i < 0 || !isRule(s.lines[i])) return null;
  const above: number[] = [];
  for (let k = i - 1, n = 0; k >= 0 && n < TURN_REGION_ABOVE; k--) {
    if (isBlank(s.lines[k])) continue;
    n++;
    const place = placeOf(s, p, k);
    // Under reduced motion the spinner is the answer glyph ("● Thundering… (2m 53s · …)"): the
    // busy-line pattern tells it from an answer.
    if ((place === "answer" || place === "typed") && !isBusyPatternLine(s, p, k)) break;
    above.unshift(k);
  }
  const below = bottomOutsideBox(s, box).filter((k) => k > box.line);
  return { above, below };
}

/**
 * Mid-response: around a ruled input box, a busy line or the activity line in the turn's region
 * above the box, or a busy line in the footer below it; around any other input line, the bottom
 * region as readiness.ts reads it.
 */
export function busyOf(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null,
  region: TurnRegion | null,
): boolean {
  if (region === null) return midResponseOf(s, p, box);
  return region.below.some((i) => isBusyLine(s, p, i)) ||
    region.above.some((i) => isBusyLine(s, p, i) || isActivityLine(s, p, i));
}

function isBusyPatternLine(s: Screen, p: ResolvedProfile, i: number): boolean {
  const re = p.matchers.patterns.mid_response_pattern;
  return re !== null && execBounded(re, s.lines[i]) !== null;
}

/** The profile's activity line (`activity_line_pattern`) on line `i`. */
export function isActivityLine(s: Screen, p: ResolvedProfile, i: number): boolean {
  const re = p.matchers.patterns.activity_line_pattern;
  return re !== null && execBounded(re, s.lines[i]) !== null;
}

/**
 * What background work the CLI still runs (`background_pattern`, group 1: "2 shells", "1
 * background agent"), read in the turn's region: the lowest line above the box first (the turn's
 * summary), then the footer. Null when the box is not ruled or nothing is pending.
 */
export function backgroundOf(
  s: Screen,
  p: ResolvedProfile,
  region: TurnRegion | null,
): string | null {
  const re = p.matchers.patterns.background_pattern;
  if (re === null || region === null) return null;
  const lines = [...region.above].reverse().concat(region.below);
  for (const i of lines) {
    const m = execBounded(re, s.lines[i].trim());
    const what = m?.[1]?.trim();
    if (what) return what;
  }
  return null;
}
