/**
 * Where a CLI says it cannot serve beyond its unavailable markers (issue 21, DESIGN §5): an error
 * it draws with the answer glyph as the last block above its input box, a usage limit in the
 * status area under the box, and a menu whose own options say it is a usage limit.
 *
 * Shapes, not places alone: the banner counts only when the block's first line *starts* with the
 * profile's `unavailable_banner_pattern` and no newer work lies below it (a model answer that
 * mentions the error mid-sentence, or an older banner above newer work, is history); in the
 * status area only `status_limit_pattern` is the CLI's own (every other line there is a user's
 * status-line command); a limit menu is a live prompt whose options carry `limit_menu_markers`.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded, type RegexMatch } from "../regex/match.ts";
import { blockHeadOf, echoText, glyphOf, newerWorkBelow } from "./blocks.ts";
import { type InputBox, statusAreaOf } from "./input.ts";
import type { OptionLine } from "./options.ts";
import { BOTTOM_REGION, hasAny, type Screen } from "./screen.ts";
import { contentOf } from "./text.ts";

/**
 * The line of the CLI's own error banner, when it is the last block above the transcript's end
 * (`end`, the input box or a menu); else undefined.
 */
export function unavailableBannerLine(
  s: Screen,
  p: ResolvedProfile,
  end: number,
): number | undefined {
  const re = p.matchers.patterns.unavailable_banner_pattern;
  if (re === null) return undefined;
  let seen = 0;
  for (let k = s.nb.length - 1; k >= 0 && seen < BOTTOM_REGION; k--) {
    const i = s.nb[k];
    if (i >= end) continue;
    seen++;
    const glyph = glyphOf(s.lines[i]);
    if (glyph === null || blockHeadOf(s, i) !== i) continue;
    if (echoText(s, p, i) !== null) continue;
    const m = execBounded(re, afterGlyph(s.lines[i], glyph));
    if (m === null || m.index !== 0) continue;
    // The lowest banner decides: newer work below it makes it (and any older one) history.
    return newerWorkBelow(s, p, i, i, end) ? undefined : i;
  }
  return undefined;
}

/** A block head's text after its glyph (any glyph: "⏺" is no decoration glyph). */
function afterGlyph(line: string, glyph: string): string {
  return contentOf(line.trimStart().slice(glyph.length).replace(/^[\uFE0E\uFE0F]/, ""));
}

/** A usage limit in the status area under the input box: its line and the pattern's match. */
export interface StatusLimit {
  line: number;
  match: RegexMatch;
}

/** The lowest status-area line `status_limit_pattern` matches, else null. */
export function statusLimitOf(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null,
): StatusLimit | null {
  const re = p.matchers.patterns.status_limit_pattern;
  if (re === null) return null;
  const area = statusAreaOf(s, box);
  for (let k = area.length - 1; k >= 0; k--) {
    const m = execBounded(re, contentOf(s.lines[area[k]]));
    if (m !== null) return { line: area[k], match: m };
  }
  return null;
}

/**
 * The option of a live menu that names a usage limit ("Stop and wait for limit to reset"), as the
 * screen shows it; null when the menu (or no menu) has none. `options` are the live prompt's own.
 */
export function limitMenuOf(p: ResolvedProfile, options: readonly OptionLine[]): string | null {
  const markers = p.matchers.markers.limit_menu_markers;
  if (markers.length === 0) return null;
  const o = options.find((o) => hasAny(o.text.toLowerCase(), markers));
  return o === undefined ? null : o.text;
}
