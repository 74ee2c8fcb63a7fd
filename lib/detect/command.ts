/**
 * What a permission prompt asks about: the command or the file, whether the live prompt is a
 * permission prompt at all, and the manual-pattern candidate derived from the command.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded } from "../regex/match.ts";
import { boxedCommandOf } from "./command_box.ts";
import { type Live, modalTop } from "./liveness.ts";
import { hasAny, type Screen, startsAny, styledLine } from "./screen.ts";
import {
  contentOf,
  DECORATION,
  isDashedRule,
  isGreyFg,
  isRule,
  stripDecoration,
  styledChars,
} from "./text.ts";

export interface Subject {
  command: string | null;
  file_path: string | null;
  /**
   * The rows of the box the command came from (`command_box_markers`): the box holds the command
   * and nothing else, so its rows are the command's whole block.
   */
  boxRows?: number;
}

/**
 * The command and file path. On a live prompt, only from the modal itself (from its top rule down
 * to its end), so a command left in the transcript above never stands in for the one asked about.
 */
export function subjectOf(
  s: Screen,
  p: ResolvedProfile,
  live: Live,
  region: readonly number[],
  styled: string[] | null,
): Subject {
  const lastLine = live.live ? live.end : s.lines.length - 1;
  const top = live.live ? modalTop(s, live) : 0;
  const header = commandOf(s, p, lastLine, top, (i) => lineIsGrey(styled, s, i));
  const boxed = header === null ? boxedCommandOf(s, p, top, lastLine) : null;
  const command = header ?? boxed?.command ?? commandLineOf(s, p, region);
  const file_path = filePathOf(s, p, top, lastLine);
  return boxed ? { command, file_path, boxRows: boxed.rows } : { command, file_path };
}

/** Trim whitespace and side borders so boxed layouts read like open ones. */
function core(line: string): string {
  return line.replace(/^[\s│┃|]+/, "").replace(/[\s│┃|]+$/, "");
}

/**
 * How many non-blank lines form the block holding the prompt's command (bottom-most occurrence):
 * the command and its description. A block longer than that means lines nobody judged would run
 * too; a command that is not on a line of its own (wrapped, several lines) gives null. A dashed
 * rule (`╌╌╌`, the box Claude Code 2.1.332 draws the command in) bounds the block like a blank line.
 */
export function commandBlockOf(s: Screen, command: string | null): number | null {
  if (command === null || command.trim() === "") return null;
  const want = command.trim();
  const lines = s.lines.map(core);
  let at = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i] === want || (lines[i].endsWith(want) && lines[i].length - want.length <= 3)) {
      at = i;
      break;
    }
  }
  if (at < 0) return null;
  const edge = (l: string) => l === "" || isDashedRule(l);
  let n = 1;
  for (let i = at + 1; i < lines.length && !edge(lines[i]); i++) n++;
  for (let i = at - 1; i >= 0 && !edge(lines[i]); i--) n++;
  return n;
}

/** Approval markers anywhere on screen. */
export function approvalOf(s: Screen, p: ResolvedProfile): boolean {
  return s.nb.some((i) => hasAny(s.lower[i], p.matchers.markers.approval_markers));
}

/**
 * A live prompt that asks for a permission: an approval marker, a command header or a file prompt
 * in the modal itself (from its top rule down). The transcript above the modal — a tool call line
 * `● Bash(…)` of the turn, or a notice that names a `Bash(*)` rule — never makes a dialog below it
 * a permission prompt, and a header counts only where it starts a line.
 */
export function permissionPromptOf(
  s: Screen,
  p: ResolvedProfile,
  live: Live,
  region: readonly number[],
  file_path: string | null,
): boolean {
  if (!live.live) return false;
  const mk = p.matchers.markers;
  const top = modalTop(s, live);
  const modal = region.filter((i) => i >= top);
  const approvalInModal = modal.some((i) => hasAny(s.lower[i], mk.approval_markers));
  const headerInModal = modal.some((i) =>
    startsAny(stripDecoration(s.lower[i]), mk.command_header_markers)
  );
  return approvalInModal || headerInModal || file_path !== null;
}

/** The command, else the file path, when it parses as a command (the manual-pattern candidate). */
export function manualPatternOf(subject: Subject, p: ResolvedProfile): string | null {
  const candidate = subject.command ?? subject.file_path;
  return candidate !== null && parsesAsCommand(candidate, p) ? candidate.trim() : null;
}

function isConfirmationBoundary(c: string, p: ResolvedProfile): boolean {
  const low = c.toLowerCase();
  return startsAny(low, p.matchers.markers.live_prompt_markers) ||
    hasAny(low, p.matchers.markers.approval_markers) ||
    execBounded(p.matchers.patterns.option_line_pattern, c) !== null;
}

/**
 * The command awaiting a decision; the last header wins.
 * - Inline form (`Bash(…)` at the start of a decoration-stripped line): up to the last `)`, also
 *   when the call wraps over following lines (joined with "\n"). A marker mid-sentence (an
 *   explanation naming a `Bash(find:*)` rule) is not a tool call.
 * - Header form (`Bash command` on its own), boxed: when a dashed box (`╌╌╌` rules) follows the
 *   header before any confirmation boundary, the command is exactly what is inside it (Claude Code
 *   2.1.332 puts an optional tip and the description between the header and the box).
 * - Header form, unboxed: the block of non-blank lines after it, up to a
 *   confirmation boundary or a blank line. With the styled capture, grey/dim lines (the CLI's
 *   description of the command) end the command. Without styles, the block's last line is taken
 *   for the description only when the rest of the block is exactly the call the modal asks about,
 *   as the transcript draws it right above the modal (`● Bash(npm run build)`, Claude Code
 *   2.1.197); otherwise the whole block is kept — erring on the side of more text, never
 *   truncating a multi-line command to its harmless first line.
 */
function commandOf(
  s: Screen,
  p: ResolvedProfile,
  lastLine: number,
  firstLine: number,
  grey: (i: number) => boolean | null,
): string | null {
  const markers = p.matchers.markers.command_header_markers;
  const inline = markers.filter((m) => m.endsWith("("));
  const header = markers.filter((m) => !m.endsWith("("));
  for (let idx = lastLine; idx >= firstLine; idx--) {
    const low = contentOf(s.lines[idx]).toLowerCase();
    const m = inline.find((mk) => low.startsWith(mk));
    if (m !== undefined) {
      const call = inlineCallAt(s, idx, m);
      if (call !== null) return call.text;
    }
    if (startsAny(low, header)) {
      const boxed = boxedAfter(s, p, idx, lastLine);
      if (boxed !== null) return boxed;
      const block: string[] = [];
      const rows: number[] = [];
      for (let j = idx + 1; j < s.lines.length; j++) {
        const c = contentOf(s.lines[j]);
        if (c === "") {
          if (block.length === 0) continue;
          break;
        }
        if (isConfirmationBoundary(c, p) || isRule(s.lines[j])) break;
        if (block.length > 0 && grey(j) === true) break;
        block.push(c.trim());
        rows.push(j);
      }
      if (block.length === 0) continue;
      const whole = joinRows(s, rows, block);
      // Without styles the description is one more line of the block. The call the modal asks
      // about, as the transcript shows it right above, tells where the command ends: the block
      // is that command plus at most one line (dropped only when no style says it is a command).
      if (firstLine > 0 && block.length > 1 && grey(rows[rows.length - 1]) === null) {
        const call = pendingCallAbove(s, inline, firstLine);
        const head = joinRows(s, rows.slice(0, -1), block.slice(0, -1));
        if (call !== null && call === head) return head;
      }
      return whole;
    }
  }
  return null;
}

/**
 * The inline form at row `idx` (`Bash(…)` after the marker `m`): the text up to the last `)`, also
 * when the call wraps over following rows; `closed` when that `)` ends the call's last row.
 */
function inlineCallAt(
  s: Screen,
  idx: number,
  m: string,
): { text: string; rows: number[]; closed: boolean } | null {
  const parts = [contentOf(s.lines[idx]).slice(m.length)];
  const rows = [idx];
  for (let j = idx + 1; j < s.lines.length && j <= idx + 20; j++) {
    if (parts[parts.length - 1].includes(")")) break;
    const next = contentOf(s.lines[j]);
    if (next === "") break;
    parts.push(next);
    rows.push(j);
  }
  const joined = joinRows(s, rows, parts.map((x) => x.trim()));
  const end = joined.lastIndexOf(")");
  if (end < 0 || joined.slice(0, end).trim() === "") return null;
  return { text: joined.slice(0, end).trim(), rows, closed: end === joined.trimEnd().length - 1 };
}

/** Non-blank rows that may sit between the pending call and the modal (its status line). */
const PENDING_GAP = 2;

/**
 * The tool call a live modal asks about, as the transcript draws it right above the modal (Claude
 * Code 2.1.197: `● Bash(npm run build)`, one status row, then the modal's rule): the nearest
 * inline call above row `top` whose `)` closes its last row, with at most {@link PENDING_GAP}
 * non-blank rows between it and the modal. null when there is none (scrolled away, cut short
 * with `…`, or another block in between).
 */
function pendingCallAbove(s: Screen, inline: readonly string[], top: number): string | null {
  for (let i = top - 1; i >= 0 && i >= top - 24; i--) {
    const low = contentOf(s.lines[i]).toLowerCase();
    const m = inline.find((mk) => low.startsWith(mk));
    if (m === undefined) continue;
    const call = inlineCallAt(s, i, m);
    if (call === null || !call.closed) return null;
    const after = call.rows[call.rows.length - 1] + 1;
    let between = 0;
    for (let j = after; j < top; j++) if (contentOf(s.lines[j]) !== "") between++;
    return after <= top && between <= PENDING_GAP ? call.text : null;
  }
  return null;
}

/**
 * Join the rows of a command as the CLI drew them. The CLIs wrap a long command at a space and
 * drop that space (seen in: tests/fixtures/unseen/claude-code/<v>/bash-wrap@100x30, 2.1.332
 * even inside a quoted string): a row that ends so close to the screen's width that the next
 * row's first word could not have fitted after it (one space, a right margin of
 * {@link WRAP_MARGIN} columns) is that soft wrap, and joins with the space back. Any other break
 * is the command's own line break and stays "\n" (a command separator for the allowlist).
 */
function joinRows(s: Screen, rows: readonly number[], parts: readonly string[]): string {
  const width = screenWidth(s);
  let out = parts[0] ?? "";
  for (let k = 1; k < parts.length; k++) {
    const used = [...s.lines[rows[k - 1]].trimEnd()].length;
    const word = [...(parts[k].split(/\s/, 1)[0] ?? "")].length;
    const soft = width > 0 && used + 1 + word > width - WRAP_MARGIN;
    out += (soft ? " " : "\n") + parts[k];
  }
  return out;
}

/** Columns a CLI keeps free at the right edge when it wraps (Claude Code 2.1.197: 3). */
const WRAP_MARGIN = 3;

/**
 * The screen's width, known only from a rule drawn across it (a rule at least as wide as every
 * line; the CLIs draw one above their input box and around their prompts); 0 when there is none,
 * and then no row counts as soft-wrapped.
 */
function screenWidth(s: Screen): number {
  let rule = 0;
  let any = 0;
  for (const i of s.nb) {
    const n = [...s.lines[i].trimEnd()].length;
    if (n > any) any = n;
    if (isRule(s.lines[i]) && n > rule) rule = n;
  }
  return rule >= any ? rule : 0;
}

/** The text inside the first dashed box below line `idx` (before any confirmation boundary). */
function boxedAfter(s: Screen, p: ResolvedProfile, idx: number, lastLine: number): string | null {
  for (let j = idx + 1; j <= lastLine; j++) {
    if (isDashedRule(s.lines[j])) {
      const inside: string[] = [];
      const rows: number[] = [];
      for (let k = j + 1; k <= lastLine; k++) {
        if (isDashedRule(s.lines[k])) {
          return inside.length > 0 ? joinRows(s, rows, inside) : null;
        }
        const c = contentOf(s.lines[k]).trim();
        if (c !== "") {
          inside.push(c);
          rows.push(k);
        }
      }
      return null; // an unclosed box: not this shape
    }
    const c = contentOf(s.lines[j]);
    if (c !== "" && isConfirmationBoundary(c, p)) return null;
  }
  return null;
}

/**
 * `command_line_pattern`: the command line of a live permission prompt (Codex's `$ cmd`, Gemini's
 * `? Shell cmd`), searched in the live region from the bottom up; group 1 is the command.
 */
function commandLineOf(s: Screen, p: ResolvedProfile, region: readonly number[]): string | null {
  const re = p.matchers.patterns.command_line_pattern;
  if (!re) return null;
  for (let k = region.length - 1; k >= 0; k--) {
    for (const text of logicalLines(s, region, k)) {
      const g = execBounded(re, text)?.[1]?.trim();
      if (g) return g;
    }
  }
  return null;
}

/** A short right-aligned trailer (Qwen Code's `←`) after a gap of 3+ spaces at a row's end. */
const TRAILER = /^(.*?\S)\s{3,}(\S{1,2})$/u;

/**
 * Row `k` of `region` as drawn, then — when it is a wrapped line — joined with the rows that
 * continue it (up to 3, each indented deeper than row `k`; soft wraps join with a space). A
 * right-aligned trailer stays on the first row of a wrapped line (seen in:
 * tests/fixtures/unseen/qwen/0.24.4/shell-wrap@100x30, `? Shell git log … -- src/auth      ←`
 * over `src/session | … (Collect recent` and `auth changes)`); it moves back to the end.
 */
function logicalLines(s: Screen, region: readonly number[], k: number): string[] {
  const first = contentOf(s.lines[region[k]]);
  const out = [first];
  const indent = (i: number) => s.lines[i].length - s.lines[i].trimStart().length;
  const m = TRAILER.exec(first);
  const head = m ? m[1] : first;
  const tail = m ? ` ${m[2]}` : "";
  let body = head;
  for (let j = k + 1; j < region.length && j <= k + 3; j++) {
    const i = region[j];
    if (region[j] !== region[j - 1] + 1 || indent(i) <= indent(region[k])) break;
    body += ` ${contentOf(s.lines[i]).trim()}`;
    out.push(body + tail);
  }
  return out;
}

function filePathOf(s: Screen, p: ResolvedProfile, from: number, to: number): string | null {
  const re = p.matchers.patterns.file_prompt_pattern;
  for (let i = from; i <= to; i++) {
    const m = execBounded(re, contentOf(s.lines[i]));
    if (!m) continue;
    const g = m[1] ?? m.slice(1).find((x) => x !== undefined) ?? "";
    const path = g.trim().replace(/^["'`]+|["'`]+$/g, "").trim();
    if (path !== "") return path;
  }
  return null;
}

const DECORATION_CHARS = new Set([...DECORATION]);

/** Every visible character of line `i` is dim or grey; null when there is no styled form. */
function lineIsGrey(styled: string[] | null, s: Screen, i: number): boolean | null {
  const sl = styledLine(styled, s, i);
  if (sl === undefined) return null;
  const chars = styledChars(sl).filter((c) => c.ch.trim() !== "" && !DECORATION_CHARS.has(c.ch));
  return chars.length > 0 && chars.every((c) => c.dim || isGreyFg(c.fg));
}

/** "Parses as a command": the anchor's manual-pattern shape check. */
function parsesAsCommand(p: string, prof: ResolvedProfile): boolean {
  const t = p.trim();
  if (t === "") return false;
  const low = t.toLowerCase();
  if (
    hasAny(low, prof.matchers.markers.prompt_boilerplate_markers) || low === "yes" || low === "no"
  ) {
    return false;
  }
  const head = t.split(/\s+/).find((tok) => !/^[A-Za-z0-9_]+=/.test(tok));
  if (!head) return false;
  return /[A-Za-z0-9]/.test(head) && /^[A-Za-z0-9_\-./~]+$/.test(head);
}
