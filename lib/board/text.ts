/**
 * Board and table cells: one line of terminal text per cell, measured in columns. Pane titles,
 * commands and event messages come from other programs, so everything that could steer the
 * terminal or the reader is taken out before it can reach the terminal (cellText), and a line
 * never grows past the width it was given.
 */
import { replaceControls } from "../base/control.ts";

/** Columns a code point takes: 0 for combining marks, 2 for wide (CJK, emoji), else 1. */
function columnsOf(cp: number): number {
  if (
    (cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0xfe00 && cp <= 0xfe0f)
  ) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) return 2;
  return 1;
}

/** Terminal columns of plain (escape-free) text. */
export function width(text: string): number {
  let n = 0;
  for (const ch of text) n += columnsOf(ch.codePointAt(0)!);
  return n;
}

/**
 * The one sanitiser for everything the board and the `panes` table print (titles, targets, CLI
 * names, event names, times, messages): text safe for one cell of one line.
 * - whitespace controls (tab, newline, CR) and the Unicode line/paragraph separators become one
 *   space;
 * - every other C0/C1 control and DEL becomes "?", so a hostile title cannot move the cursor,
 *   switch screens or change colours;
 * - invisible format characters are removed: the bidi controls (U+061C, U+200E/F, U+202A–202E,
 *   U+2066–2069), which would reorder the rest of the line (a title with U+202E reads backwards),
 *   zero-width spaces, the BOM and tag characters; only the joiners U+200C/U+200D stay (scripts
 *   and emoji need them);
 * - a lone surrogate (not text at all) becomes U+FFFD.
 */
export function cellText(text: string): string {
  const flat = text.toWellFormed().replace(/[\t\n\r\u2028\u2029]+/g, " ");
  return replaceControls(flat, () => "?").replace(/[\p{Cf}--[\u200c\u200d]]/gv, "");
}

/** `text` cut to at most `cols` columns, with "…" marking a cut. */
export function fit(text: string, cols: number): string {
  if (cols <= 0) return "";
  if (width(text) <= cols) return text;
  let out = "";
  let n = 0;
  for (const ch of text) {
    const w = columnsOf(ch.codePointAt(0)!);
    if (n + w > cols - 1) break;
    out += ch;
    n += w;
  }
  return out + "…";
}

/** `text` fitted to exactly `cols` columns (cut or space-padded). */
export function cell(text: string, cols: number): string {
  const t = fit(text, cols);
  return t + " ".repeat(Math.max(0, cols - width(t)));
}
