/**
 * Where a line sits in the transcript (issue 27, DESIGN §5 "A limit is live only where the CLI
 * draws it"): in the model's answer or a tool's output, in the user's own message, in a line the
 * CLI drew itself — and whether newer work lies between it and the input box.
 *
 * The transcript is what the CLI has drawn above its input box, or above a menu drawn in its place,
 * or the whole screen when it shows neither (Gemini CLI's limit dialog); a screen whose last line
 * is a shell prompt has none (a shell printed it, no CLI runs).
 *
 * Every verified CLI draws its transcript as blocks that open with a glyph and a space (`❯ `, `● `,
 * `⎿ `, `■ `, `✕ `, `ℹ `, `✦ `, `│ `): lines indented deeper, and lines that run on under a line
 * without a blank between, belong to the block above them; borders (rules, box edges) end one. What
 * a glyph means is the profile's: `answer_markers` open the model's own output, `input_sigils` the
 * echo of what was typed; any other glyph is the CLI's own drawing (an error, a notice, a box).
 * Under an answer, a tool's output is the first glyph line right below the tool call; a glyph line
 * right after that output is the CLI's own again (Claude Code draws a limit met mid-turn so, under
 * the output of the tool that ran last).
 *
 * Compiled shape rules over the profile's own words: a profile can describe its glyphs, never widen
 * where a line counts.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded } from "../regex/match.ts";
import type { InputBox } from "./input.ts";
import { type Live, modalTop } from "./liveness.ts";
import { isChoiceLine } from "./line_kinds.ts";
import { isBusyLine } from "./line_kinds.ts";
import { endsInShell } from "./readiness.ts";
import { hasAny, type Screen, startsAny } from "./screen.ts";
import { DECORATION, isBlank, isRule } from "./text.ts";

/** Where the transcript ends: the input box, a menu, or the screen's end; null for a shell. */
export function transcriptEnd(s: Screen, box: InputBox | null, live: Live): number | null {
  const nb = s.nb;
  if (nb.length === 0) return null;
  if (endsInShell(s, box)) return null;
  if (box) return box.line;
  if (live.live) return modalFloor(s, live.end);
  for (let k = Math.max(0, nb.length - 4); k < nb.length; k++) {
    if (isChoiceLine(s.lines[nb[k]])) return modalFloor(s, nb[k]);
  }
  return s.lines.length;
}

/** A menu's top: the rule it is drawn under, else its first choice line. */
function modalFloor(s: Screen, end: number): number {
  const top = modalTop(s, { live: true, start: end, end });
  if (top > 0) return top;
  for (let i = 0; i <= end; i++) if (isChoiceLine(s.lines[i])) return i;
  return end;
}

/** What a line of the transcript is part of. */
export type Place =
  /** A line the CLI drew itself: its own block, a reply under the user's message, a line after a tool's output. */
  | "cli"
  /** The model's answer, a tool call, or the tool's output. */
  | "answer"
  /** The user's own message (its echo in the transcript). */
  | "typed"
  /** Text under no glyph at all (a shell's output, a CLI that draws its answers bare). */
  | "prose";

const VARIATION = /[\uFE0E\uFE0F]/;
const SYMBOL = /[\p{S}\u2139]/u;

/** The glyph a line opens with (after its indentation), followed by a space, or null. */
export function glyphOf(line: string): string | null {
  const t = line.trimStart();
  const cp = t.codePointAt(0);
  if (cp === undefined) return null;
  const ch = String.fromCodePoint(cp);
  let rest = t.slice(ch.length);
  if (VARIATION.test(rest.charAt(0))) rest = rest.slice(1);
  if (rest !== "" && !/^\s/.test(rest)) return null;
  const ascii = cp < 0x80;
  if (ascii ? ch === "*" || ch === ">" : SYMBOL.test(ch) || DECORATION.includes(ch)) return ch;
  return null;
}

/** A border: a rule, a box edge or side, a band of block elements (Gemini CLI's ▄▄▄ / ▀▀▀). */
export function isBorder(line: string): boolean {
  if (isRule(line)) return true;
  let any = false;
  for (const ch of line) {
    if (/\s/.test(ch)) continue;
    const c = ch.codePointAt(0)!;
    if (c < 0x2500 || c > 0x259f) return false;
    any = true;
  }
  return any;
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/** The line that heads line `i`'s segment: itself when it opens with a glyph, else what it continues. */
function segmentOf(s: Screen, i: number): number | null {
  let k = i;
  // A text line right under a line no deeper than it runs on from that line (Codex wraps its
  // error block in column 0).
  while (
    glyphOf(s.lines[k]) === null && k > 0 && !isBlank(s.lines[k - 1]) &&
    !isBorder(s.lines[k - 1]) && indentOf(s.lines[k]) <= indentOf(s.lines[k - 1])
  ) k--;
  if (glyphOf(s.lines[k]) !== null) return k;
  return parentOf(s, k);
}

/** The nearest line above `i`, indented less than it, within its block; null at a border or the top. */
function parentOf(s: Screen, i: number): number | null {
  const r = indentOf(s.lines[i]);
  for (let k = i - 1; k >= 0; k--) {
    const l = s.lines[k];
    if (isBlank(l)) continue;
    if (isBorder(l)) return null;
    if (indentOf(l) < r) return k;
  }
  return null;
}

/** The outermost glyph line above segment head `seg` (itself when none): the block's head. */
function headOf(s: Screen, seg: number): number {
  let top = seg;
  for (let k = parentOf(s, seg); k !== null; k = parentOf(s, k)) {
    if (glyphOf(s.lines[k]) === null) break;
    top = k;
  }
  return top;
}

/** A line that opens with one of the profile's answer glyphs: the model's own output. */
export function isAnswerHead(s: Screen, p: ResolvedProfile, i: number): boolean {
  return startsAny(s.lines[i].trimStart(), p.values.answer_markers);
}

/** The echo of typed text: an input sigil opening the line; the text after it, else null. */
export function echoText(s: Screen, p: ResolvedProfile, i: number): string | null {
  const t = s.lines[i].trimStart();
  for (const g of p.values.input_sigils) {
    if (t.startsWith(g + " ")) return t.slice(g.length).trim();
  }
  return null;
}

/** Where transcript line `i` sits (see the module comment). */
export function placeOf(s: Screen, p: ResolvedProfile, i: number): Place {
  const seg = segmentOf(s, i);
  if (seg === null || glyphOf(s.lines[seg]) === null) return "prose";
  const top = headOf(s, seg);
  const answer = isAnswerHead(s, p, top);
  const typed = !answer && echoText(s, p, top) !== null;
  if (!answer && !typed) return "cli";
  if (seg === top) return answer ? "answer" : "typed";
  if (typed) return "cli";
  return afterToolOutput(s, top, seg) ? "cli" : "answer";
}

/**
 * Under answer head `top`, segment `seg` comes right after a tool's output: the first glyph line
 * right below the head (no blank between: a tool call and its output) is the output, and `seg` is
 * a later one at the same depth with no blank line since the head.
 */
function afterToolOutput(s: Screen, top: number, seg: number): boolean {
  const depth = indentOf(s.lines[seg]);
  let first = -1;
  for (let k = top + 1; k < seg; k++) {
    const l = s.lines[k];
    if (isBlank(l) || isBorder(l)) return false;
    if (first < 0 && glyphOf(l) !== null && indentOf(l) === depth) first = k;
  }
  return first > top;
}

/**
 * The CLI's own words on line `i`: a `cli_unavailable_markers` line or a limit line (2.1.332
 * writes "● Usage limit reached · set to continue automatically at …" under its banner).
 */
function cliWords(s: Screen, p: ResolvedProfile, i: number): boolean {
  if (hasAny(s.lower[i], p.matchers.markers.cli_unavailable_markers)) return true;
  const re = p.matchers.patterns.limit_reset_pattern;
  return re !== null && execBounded(re, s.lines[i]) !== null;
}

/**
 * Newer work between line `from` (the last line of what is judged, in the block headed by `head`)
 * and the transcript's end: a busy line, an answer block that is not the CLI's own words, or the
 * echo of typed text (a slash command the CLI typed to open its menu is not).
 */
export function newerWorkBelow(
  s: Screen,
  p: ResolvedProfile,
  head: number,
  from: number,
  end: number,
): boolean {
  const level = indentOf(s.lines[head]);
  for (let j = from + 1; j < end; j++) {
    const l = s.lines[j];
    if (isBlank(l) || isBorder(l)) continue;
    if (isBusyLine(s, p, j)) return true;
    if (glyphOf(l) === null || indentOf(l) > level) continue;
    if (isAnswerHead(s, p, j)) {
      if (!cliWords(s, p, j)) return true;
      continue;
    }
    const typed = echoText(s, p, j);
    if (typed !== null && !typed.startsWith("/")) return true;
  }
  return false;
}

/** The head of the block line `i` belongs to (for {@link newerWorkBelow}); `i` when it heads none. */
export function blockHeadOf(s: Screen, i: number): number {
  const seg = segmentOf(s, i);
  return seg === null ? i : headOf(s, seg);
}

/**
 * Lines `first`..`last` are the CLI's own and still current: drawn by the CLI (not in an answer, a
 * tool's output or the user's message) with no newer work below them before the transcript's end.
 */
export function drawnByCli(
  s: Screen,
  p: ResolvedProfile,
  first: number,
  last: number,
  end: number,
): boolean {
  return placeOf(s, p, first) === "cli" && !newerWorkBelow(s, p, blockHeadOf(s, first), last, end);
}
