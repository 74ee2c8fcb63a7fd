/**
 * Board cells: one line of terminal text per cell, measured in columns. Pane titles, commands and
 * event messages come from other programs, so every control character is replaced before it can
 * reach the terminal, and a line never grows past the width it was given.
 */

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
 * Text safe for one cell: whitespace controls (newline, tab, CR) become one space, every other
 * C0/C1 control and DEL becomes "?", so a hostile title cannot move the cursor or change colours.
 */
export function cellText(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\t\n\r]+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
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
