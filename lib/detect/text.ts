/**
 * Capture text primitives shared by the detectors: line splitting, ANSI removal, decoration
 * stripping and reading SGR attributes of a styled (`capture-pane -e`) line.
 */
import { MAX_MATCH_LINE } from "../regex/match.ts";

/** Captures longer than this many lines are judged on their last lines only. */
export const MAX_LINES = 2000;

// CSI … final byte, OSC … BEL/ST, DCS/PM/APC … ST, and two-byte ESC sequences.
const ANSI =
  // deno-lint-ignore no-control-regex
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[P^_][^\x1b]*(?:\x1b\\)?|[@-Z\\-_])/g;

/** One escape sequence starting exactly at `lastIndex`. */
const ONE_ANSI = new RegExp(ANSI.source, "y");

export function stripAnsi(s: string): string {
  return s.indexOf("\x1b") < 0 ? s : s.replace(ANSI, "");
}

/**
 * Lines as the terminal shows them: ANSI removed, `\r` dropped, no trailing empty element for a
 * final newline, each line bounded, at most MAX_LINES (the last ones).
 */
export function captureLines(raw: string): string[] {
  let text = stripAnsi(raw);
  if (text.indexOf("\r") >= 0) text = text.replace(/\r/g, "");
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const kept = lines.length > MAX_LINES ? lines.slice(lines.length - MAX_LINES) : lines;
  for (let i = 0; i < kept.length; i++) {
    if (kept[i].length > MAX_MATCH_LINE) kept[i] = kept[i].slice(0, MAX_MATCH_LINE);
  }
  return kept;
}

/** Styled lines keep their escapes; only `\r` and the final newline go. */
export function styledLines(raw: string): string[] {
  const lines = raw.replace(/\r/g, "").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.length > MAX_LINES ? lines.slice(lines.length - MAX_LINES) : lines;
}

/**
 * The styled capture's lines, or null when it tells nothing about styles: missing, or drawn with
 * no SGR sequence at all (a CLI under NO_COLOR, or one whose colour library reads a CI variable,
 * draws plain text). Then nothing is dim or grey because no style was drawn, not because the text
 * is a command or typed input, and each detector falls back to what it does on the plain text.
 */
export function styledFormOf(raw: string | undefined): string[] | null {
  // deno-lint-ignore no-control-regex
  if (!raw || !/\x1b\[[0-9;:]*m/.test(raw)) return null;
  return styledLines(raw);
}

/** Box and bullet glyphs a TUI draws in front of content (DESIGN §5). A bare `>` is not one. */
export const DECORATION = "│─╭╮╰╯├┤┐└┘┌⎿❯●•*·›";
const DECORATION_CODES = new Set([...DECORATION].map((c) => c.charCodeAt(0)));

/** Unicode White_Space (what Rust's trim and JS's \s agree on), by code unit. */
function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x3000 || c === 0xfeff || c === 0x85;
}

export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (!isSpace(line.charCodeAt(i))) return false;
  return true;
}

/** Drop leading whitespace and decoration glyphs, then trailing whitespace. */
export function stripDecoration(line: string): string {
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (isSpace(c) || DECORATION_CODES.has(c)) i++;
    else break;
  }
  let j = line.length;
  while (j > i && isSpace(line.charCodeAt(j - 1))) j--;
  return line.slice(i, j);
}

const BOX_RIGHT = new Set([0x2502, 0x2503, 0x2551]); // │ ┃ ║

/** strip_decoration plus a trailing box border: the content of a line drawn inside a box. */
export function contentOf(line: string): string {
  const s = stripDecoration(line);
  let j = s.length;
  while (j > 0) {
    const c = s.charCodeAt(j - 1);
    if (isSpace(c) || BOX_RIGHT.has(c)) j--;
    else break;
  }
  return j === s.length ? s : s.slice(0, j);
}

/** A horizontal rule: a line made only of ─-like glyphs (TUIs draw one around the input line). */
/** A dashed rule (`╌╌╌`): the edges of the box a prompt draws its command or file preview in. */
export function isDashedRule(line: string): boolean {
  const t = line.trim();
  return t.length >= 3 && /^[╌┄]+$/.test(t);
}

export function isRule(line: string): boolean {
  const t = line.trim();
  return t.length >= 3 && /^[─━═╌┄-]+$/.test(t) && /[─━═╌┄]/.test(t);
}

export interface StyledChar {
  ch: string;
  dim: boolean;
  inverse: boolean;
  /** Foreground as a comparable key: "d" default, "p<n>" palette, "rgb(r,g,b)". */
  fg: string;
  /** Background, the same way ("d": default, or whatever an earlier line left set). */
  bg: string;
}

/** Walk a styled line and report each visible character with its SGR state. */
export function styledChars(line: string): StyledChar[] {
  const out: StyledChar[] = [];
  let dim = false, inverse = false, fg = "d", bg = "d";
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === "\x1b") {
      // deno-lint-ignore no-control-regex
      const m = /^\x1b\[([0-9;:]*)m/.exec(line.slice(i, i + 64));
      if (m) {
        const ps = m[1] === "" ? [0] : m[1].split(/[;:]/).map((x) => Number(x) || 0);
        for (let k = 0; k < ps.length; k++) {
          const p = ps[k];
          if (p === 0) {
            dim = false;
            inverse = false;
            fg = "d";
            bg = "d";
          } else if (p === 2) dim = true;
          else if (p === 22) dim = false;
          else if (p === 7) inverse = true;
          else if (p === 27) inverse = false;
          else if (p >= 30 && p <= 37) fg = `p${p - 30}`;
          else if (p >= 90 && p <= 97) fg = `p${p - 90 + 8}`;
          else if (p === 39) fg = "d";
          else if (p === 38 && ps[k + 1] === 5) {
            fg = `p${ps[k + 2] ?? 0}`;
            k += 2;
          } else if (p === 38 && ps[k + 1] === 2) {
            fg = `rgb(${ps[k + 2] ?? 0},${ps[k + 3] ?? 0},${ps[k + 4] ?? 0})`;
            k += 4;
          } else if (p >= 40 && p <= 47) bg = `p${p - 40}`;
          else if (p >= 100 && p <= 107) bg = `p${p - 100 + 8}`;
          else if (p === 49) bg = "d";
          else if (p === 48 && ps[k + 1] === 5) {
            bg = `p${ps[k + 2] ?? 0}`;
            k += 2;
          } else if (p === 48 && ps[k + 1] === 2) {
            bg = `rgb(${ps[k + 2] ?? 0},${ps[k + 3] ?? 0},${ps[k + 4] ?? 0})`;
            k += 4;
          }
        }
        i += m[0].length;
        continue;
      }
      // Any other escape sequence: skip exactly that one sequence, never the text after it.
      ONE_ANSI.lastIndex = i;
      const seq = ONE_ANSI.exec(line);
      i += seq ? seq[0].length : 1;
      continue;
    }
    const cp = line.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    out.push({ ch, dim, inverse, fg, bg });
    i += ch.length;
  }
  return out;
}

/** A foreground that reads as grey/dim: palette 8, 240-250ish greys, or an unsaturated mid RGB. */
export function isGreyFg(fg: string): boolean {
  if (fg === "p8" || fg === "p7") return true;
  const p = /^p(\d+)$/.exec(fg);
  if (p) {
    const n = Number(p[1]);
    return n >= 237 && n <= 250;
  }
  const m = /^rgb\((\d+),(\d+),(\d+)\)$/.exec(fg);
  if (m) {
    const [r, g, b] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return Math.max(r, g, b) - Math.min(r, g, b) <= 24 && r >= 90 && r <= 190;
  }
  return false;
}
