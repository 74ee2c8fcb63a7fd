/**
 * The input line: where it is (bordered `│ > … │`, open `❯ …` between rules, or a profile's
 * `input_line_pattern`), and the text typed into it, with placeholder hints (marker or dim/grey
 * in the styled capture) not counted as text.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded, type Matcher } from "../regex/match.ts";
import { bottomOf, isOptionLine, type Screen, startsAny, styledLine } from "./screen.ts";
import { isBlank, isGreyFg, isRule, styledChars } from "./text.ts";

/** How many non-blank lines at the bottom an `input_line_pattern` input line may sit in. */
export const INPUT_LINE_WINDOW = 8;

export interface InputBox {
  /** Line index of the sigil line. */
  line: number;
  /** Line indices that belong to the input (sigil line + continuation). */
  lines: number[];
  /** Text after the sigil (continuation joined with "\n"). */
  text: string;
  /** Column (UTF-16 index in the plain line) where the text after the sigil begins. */
  textCol: number;
  /**
   * The open form (`❯ …` between rules): the line under the rule that closes it, where the CLI's
   * status area begins. Absent for the other forms, which draw no such area.
   */
  below?: number;
}

/** The input line: bordered `│ > … │`, or the open `❯ …` form between rules. Last one wins. */
export function inputBoxOf(s: Screen, p: ResolvedProfile): InputBox | null {
  const openRe = p.matchers.patterns.input_line_pattern;
  if (openRe) return openInputLineOf(s, p, openRe);
  const sigils = p.values.input_sigils;
  for (let i = s.lines.length - 1; i >= 0; i--) {
    const raw = s.lines[i];
    const t = raw.trim();
    if (t === "") continue;
    const lead = raw.length - raw.trimStart().length;
    if (t.startsWith("│")) {
      const innerRaw = t.slice(1);
      const inner = innerRaw.replace(/[\s│]+$/, "").trim();
      const s0 = sigils.find((g) => inner.startsWith(g));
      if (s0 === undefined) continue;
      const text = inner.slice(s0.length).trim();
      if (execBounded(p.matchers.patterns.option_line_pattern, text) !== null) continue;
      const col = raw.indexOf(s0, lead + 1) + s0.length;
      return { line: i, lines: [i], text, textCol: col };
    }
    const s1 = sigils.find((g) => t.startsWith(g));
    if (s1 === undefined) continue;
    // Open form: the nearest non-blank line above is a rule, and a rule closes it below.
    let above = i - 1;
    while (above >= 0 && isBlank(s.lines[above])) above--;
    if (above < 0 || !isRule(s.lines[above])) continue;
    let below = i + 1;
    const cont: number[] = [];
    while (below < s.lines.length && !isRule(s.lines[below]) && below - i <= 30) {
      cont.push(below);
      below++;
    }
    if (below >= s.lines.length || !isRule(s.lines[below])) continue;
    const first = t.slice(s1.length).trim();
    if (execBounded(p.matchers.patterns.option_line_pattern, first) !== null) continue;
    const rest = cont.map((j) => s.lines[j].trim()).filter((x) => x !== "");
    const text = [first, ...rest].filter((x) => x !== "").join("\n");
    return { line: i, lines: [i, ...cont], text, textCol: lead + s1.length, below: below + 1 };
  }
  return null;
}

/** The text typed into the input line: null when empty, an option line or a placeholder hint. */
export function inputTextOf(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null,
  styled: string[] | null,
): string | null {
  if (!box) return null;
  const text = box.text;
  const low = text.toLowerCase();
  const isOption = execBounded(p.matchers.patterns.option_line_pattern, text) !== null;
  const placeholder = startsAny(low, p.matchers.markers.input_placeholder_markers) ||
    isDimPlaceholder(styled, s, box);
  return text !== "" && !isOption && !placeholder ? text : null;
}

/** The bottom region without the input line's own lines (typed text is not screen state). */
export function bottomOutsideBox(s: Screen, box: InputBox | null): number[] {
  const boxLines = new Set(box?.lines ?? []);
  return bottomOf(s).filter((i) => !boxLines.has(i));
}

/**
 * The status area under an open-form input box: the non-blank lines below its closing rule, drawn
 * indented, down to the first line that starts in column 0 (what a shell prints after the CLI
 * exited is no longer the CLI's). The mode footer is drawn there, and so is the output of a
 * user's status-line command: none of its words is the CLI's state unless the profile's
 * `status_limit_pattern` says so (DESIGN §5).
 */
export function statusAreaOf(s: Screen, box: InputBox | null): number[] {
  if (!box || box.below === undefined) return [];
  const out: number[] = [];
  for (let i = box.below; i < s.lines.length; i++) {
    const l = s.lines[i];
    if (isBlank(l)) continue;
    if (!/^\s/.test(l)) break;
    out.push(i);
  }
  return out;
}

/** True when the styled capture shows the input text dim/grey (a placeholder hint). */
function isDimPlaceholder(styled: string[] | null, s: Screen, box: InputBox): boolean {
  const sl = styledLine(styled, s, box.line);
  if (sl === undefined) return false;
  const chars = styledChars(sl);
  // Map the plain column to the styled character list (both count UTF-16 units).
  let col = 0;
  let k = 0;
  while (k < chars.length && col < box.textCol) {
    col += chars[k].ch.length;
    k++;
  }
  const text = chars.slice(k).filter((c) => c.ch.trim() !== "" && !c.inverse);
  if (text.length === 0) return false;
  return text.every((c) => c.dim || isGreyFg(c.fg));
}

/**
 * `input_line_pattern`: the CLI draws its input line with no box or rules (Codex's `› …`, Gemini's
 * ` > …` above a status footer). The lowest matching line among the bottom non-blank lines that is
 * not an option line; group 1 is the text.
 */
function openInputLineOf(s: Screen, p: ResolvedProfile, re: Matcher): InputBox | null {
  const window = s.nb.slice(-INPUT_LINE_WINDOW);
  for (let k = window.length - 1; k >= 0; k--) {
    const i = window[k];
    const raw = s.lines[i];
    const m = execBounded(re, raw);
    if (!m) continue;
    if (isOptionLine(raw, p)) continue;
    const g = m[1] ?? "";
    const text = g.trim();
    const at = g === "" ? m.index + m[0].length : raw.indexOf(g, m.index);
    const textCol = at + (g.length - g.trimStart().length);
    return { line: i, lines: [i], text, textCol };
  }
  return null;
}
