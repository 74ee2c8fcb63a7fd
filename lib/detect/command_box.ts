/**
 * A command drawn in a box of its own right above a modal's question (`command_box_markers`,
 * GitHub Copilot CLI): the box's rows are the command, and nothing else is.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { hasAny, type Screen } from "./screen.ts";
import { contentOf } from "./text.ts";

/** How far above its question a command box may end, and how tall it may be (rows). */
const BOX_GAP = 3;
const BOX_ROWS = 40;

/** A row of a modal without its outer side borders (`│ … │`), as drawn inside them. */
function innerOf(line: string): string {
  return line.replace(/^\s*[│┃]\s?/, "").replace(/\s?[│┃]\s*$/, "").trimEnd();
}

const BOX_TOP = /^\s*╭─+╮$/;
const BOX_BOTTOM = /^\s*╰─+╯$/;

/**
 * `command_box_markers`: the command a modal draws in a box of its own right above its question
 * (GitHub Copilot CLI: `│ ╭───╮ │`, `│ │ touch x │ │`, `│ ╰───╯ │`, then "Do you want to run this
 * command?"). The box's rows are the command: a row that fills the box to its right edge is a soft
 * wrap and joins with the next one with no break; any other row ends a line of the command ("\n",
 * a separator for the allowlist). null when the question has no such box right above it.
 */
export function boxedCommandOf(
  s: Screen,
  p: ResolvedProfile,
  firstLine: number,
  lastLine: number,
): { command: string; rows: number } | null {
  const markers = p.matchers.markers.command_box_markers;
  if (markers.length === 0) return null;
  let q = -1;
  for (let i = lastLine; i >= firstLine; i--) {
    if (hasAny(s.lower[i], markers)) {
      q = i;
      break;
    }
  }
  if (q < 0) return null;
  let bottom = -1;
  for (let i = q - 1; i >= firstLine && i >= q - 1 - BOX_GAP; i--) {
    const inner = innerOf(s.lines[i]);
    if (BOX_BOTTOM.test(inner)) {
      bottom = i;
      break;
    }
    if (contentOf(s.lines[i]) !== "") return null;
  }
  if (bottom < 0) return null;
  const rows: string[] = [];
  for (let i = bottom - 1; i >= firstLine && i >= bottom - BOX_ROWS; i--) {
    const inner = innerOf(s.lines[i]);
    if (BOX_TOP.test(inner)) {
      // The box's inner width: its top edge less the two corners and one column of padding a side.
      const width = [...inner.trim()].length - 4;
      const drawn = rows.reverse();
      const command = joinBoxRows(drawn, width);
      if (command === null) return null;
      return { command, rows: drawn.filter((r) => r.trim() !== "").length };
    }
    const row = /^\s*│ ?(.*?) ?│$/.exec(inner);
    if (row === null) return null;
    rows.push(row[1].trimEnd());
  }
  return null;
}

/**
 * The box's rows as one command. Copilot wraps a long command at a space and drops it (seen in:
 * tests/fixtures/copilot/1.0.102/shell-prompt-long): a row after which the next row's first word
 * would not have fitted in the box is that soft wrap and joins with the space back, as
 * command.ts's joinRows does for open layouts; any other break stays "\n".
 */
function joinBoxRows(drawn: readonly string[], width: number): string | null {
  const rows = [...drawn];
  while (rows.length > 0 && rows[rows.length - 1].trim() === "") rows.pop();
  while (rows.length > 0 && rows[0].trim() === "") rows.shift();
  if (rows.length === 0) return null;
  let out = rows[0].trim();
  for (let k = 1; k < rows.length; k++) {
    const used = [...rows[k - 1].trimEnd()].length;
    const word = [...(rows[k].trim().split(/\s/, 1)[0] ?? "")].length;
    out += (used + 1 + word > width ? " " : "\n") + rows[k].trim();
  }
  return out;
}
