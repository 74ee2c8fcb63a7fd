/**
 * The choices a live prompt offers: its numbered option lines, which of them grants broadly, and
 * the un-numbered choices some CLIs draw instead — a row (`choice_row_markers`) or a column (a
 * list whose selected entry carries the selection glyph: Claude Code 2.1.332's "❯ No / Yes").
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded } from "../regex/match.ts";
import { type Live, modalTop } from "./liveness.ts";
import { isChoiceLine, SELECT_GLYPHS } from "./line_kinds.ts";
import { hasAny, isOptionLine, type Screen, styledLine } from "./screen.ts";
import {
  contentOf,
  isBlank,
  isGreyFg,
  isRule,
  stripDecoration,
  type StyledChar,
  styledChars,
} from "./text.ts";

export interface OptionLine {
  number: number;
  text: string;
  selected: boolean;
}

export interface ChoiceRowEntry {
  text: string;
  selected: boolean;
}

/** Numbered options of the live prompt: the last run numbered 1, 2, 3 … in the region. */
export function optionsOf(
  s: Screen,
  live: Live,
  region: readonly number[],
  p: ResolvedProfile,
): OptionLine[] {
  if (!live.live) return [];
  const found: OptionLine[] = [];
  for (const i of region) {
    const raw = s.lines[i];
    const stripped = stripDecoration(raw);
    const m = execBounded(p.matchers.patterns.option_line_pattern, stripped);
    if (!m) continue;
    const digits = /[0-9]+/.exec(m[0]) ?? /^[0-9]+/.exec(stripped);
    if (!digits) continue;
    const text = contentOf(stripped.slice(m.index + m[0].length));
    const lead = raw.slice(0, raw.trimEnd().length - stripped.length);
    const selected = SELECT_GLYPHS.some((g) => lead.includes(g));
    found.push({ number: Number(digits[0]), text: text.trim(), selected });
  }
  // Group into consecutive runs and keep the last one that starts at 1.
  const runs: OptionLine[][] = [];
  for (const o of found) {
    const cur = runs[runs.length - 1];
    if (cur && o.number === cur[cur.length - 1].number + 1) cur.push(o);
    else runs.push([o]);
  }
  for (let r = runs.length - 1; r >= 0; r--) if (runs[r][0].number === 1) return runs[r];
  return runs.length > 0 ? runs[runs.length - 1] : [];
}

/** The first option whose text carries a broad-grant marker. */
export function broadGrantOf(options: readonly OptionLine[], p: ResolvedProfile): number | null {
  for (const o of options) {
    if (hasAny(o.text.toLowerCase(), p.matchers.broadGrant)) return o.number;
  }
  return null;
}

/** How many entries an un-numbered column may have (a longer run is not a choice list). */
const MAX_COLUMN = 8;

/**
 * An un-numbered column of choices in the live modal (below its top rule): the lowest entry
 * drawn with a selection glyph ("❯ No"), and the lines right above and below it whose text starts
 * in the same column ("  Yes"), up to a blank line, a rule or anything else. Two entries at least;
 * none when the modal has numbered options.
 */
export function choiceColumnOf(
  s: Screen,
  live: Live,
  p: ResolvedProfile,
): ChoiceRowEntry[] | null {
  if (!live.live) return null;
  const top = modalTop(s, live);
  for (let i = live.end; i > top; i--) {
    const raw = s.lines[i];
    if (!isChoiceLine(raw) || isOptionLine(raw, p)) continue;
    const lead = raw.length - raw.trimStart().length;
    const glyph = SELECT_GLYPHS.find((g) => raw.startsWith(g, lead))!;
    const rest = raw.slice(lead + glyph.length);
    const col = lead + glyph.length + (rest.length - rest.trimStart().length);
    const entry = (j: number): string | null => {
      if (j <= top || j > live.end) return null;
      const l = s.lines[j];
      if (isBlank(l) || isRule(l) || isOptionLine(l, p)) return null;
      const at = l.length - l.trimStart().length;
      return at === col && !SELECT_GLYPHS.some((g) => l.includes(g)) ? contentOf(l) : null;
    };
    const above: string[] = [];
    for (let j = i - 1; above.length < MAX_COLUMN; j--) {
      const e = entry(j);
      if (e === null) break;
      above.unshift(e);
    }
    const below: string[] = [];
    for (let j = i + 1; below.length < MAX_COLUMN; j++) {
      const e = entry(j);
      if (e === null) break;
      below.push(e);
    }
    const all = [
      ...above.map((text) => ({ text, selected: false })),
      { text: contentOf(rest), selected: true },
      ...below.map((text) => ({ text, selected: false })),
    ];
    return all.length >= 2 && all.length <= MAX_COLUMN ? all : null;
  }
  return null;
}

/**
 * `choice_row_markers`: the lowest line of the live region that carries every choice, in order.
 * A choice is selected when it is the only one drawn bright (not dim, not grey) in the styled
 * capture; when every choice is bright, when it is the only one drawn on a background of its own
 * (Cline 3.0.65: "[y] Approve" black on blue, "[n] Deny" white on the modal's grey, as is the rest
 * of the row). With no styled capture, or no single such choice, none is selected (so nothing
 * that relies on the selection acts).
 */
export function choiceRowOf(
  s: Screen,
  p: ResolvedProfile,
  region: readonly number[],
  styled: string[] | null,
): ChoiceRowEntry[] | null {
  const markers = p.values.choice_row_markers;
  if (!markers || markers.length === 0) return null;
  const lows = p.matchers.markers.choice_row_markers;
  for (let k = region.length - 1; k >= 0; k--) {
    const i = region[k];
    const low = s.lower[i];
    const cols: number[] = [];
    let from = 0;
    for (const m of lows) {
      const at = low.indexOf(m, from);
      if (at < 0) break;
      cols.push(at);
      from = at + m.length;
    }
    if (cols.length !== lows.length) continue;
    const line = styledLine(styled, s, i);
    const picked = line === undefined ? null : selectedChoices(line, cols, lows);
    const single = picked !== null && picked.filter(Boolean).length === 1;
    return markers.map((m, n) => ({ text: m, selected: single && picked![n] }));
  }
  return null;
}

/**
 * For each choice at `cols` (UTF-16 columns of the plain line): is it the one drawn as selected in
 * its styled line? Bright where the others are dim or grey; else, when all are bright, set on a
 * background of its own where the others share the background of the rest of the row.
 */
function selectedChoices(
  sl: string,
  cols: readonly number[],
  markers: readonly string[],
): boolean[] {
  const chars: StyledChar[] = styledChars(sl);
  // UTF-16 column of each styled character.
  const at: number[] = [];
  let col = 0;
  for (const c of chars) {
    at.push(col);
    col += c.ch.length;
  }
  const inChoice = cols.map((c0, n) =>
    chars.filter((c, j) => at[j] >= c0 && at[j] < c0 + markers[n].length && c.ch.trim() !== "")
  );
  const bright = inChoice.map((cs) =>
    cs.length > 0 && cs.every((c) => !c.dim && (c.inverse || !isGreyFg(c.fg)))
  );
  if (bright.filter(Boolean).length !== bright.length) return bright;
  // Every choice bright: the background tells. The row's own background is the one most of the
  // blanks after the last choice are drawn on (a selected last choice pads one blank after it).
  const last = cols[cols.length - 1] + markers[markers.length - 1].length;
  const counts = new Map<string, number>();
  chars.forEach((c, j) => {
    if (at[j] >= last) counts.set(c.bg, (counts.get(c.bg) ?? 0) + 1);
  });
  const ranked = [...counts].sort((x, y) => y[1] - x[1]);
  const row = ranked.length > 0 && (ranked.length === 1 || ranked[0][1] > ranked[1][1])
    ? ranked[0][0]
    : null;
  return inChoice.map((cs) =>
    row !== null && cs.length > 0 && cs.every((c) => c.bg === cs[0].bg && c.bg !== row)
  );
}
