/**
 * The detectors of DESIGN §5: pure functions of one capture and the resolved profile of the pane's
 * own CLI. No screen wording lives here — only in profiles/*.toml. The windows and the decoration
 * glyph set are compiled constants a profile cannot change.
 */
import { execBounded } from "../regex/match.ts";
import type { ResolvedProfile } from "../profile/resolve.ts";
import {
  captureLines,
  contentOf,
  DECORATION,
  isBlank,
  isGreyFg,
  isRule,
  stripAnsi,
  stripDecoration,
  styledChars,
  styledLines,
} from "./text.ts";
import type { StyledChar } from "./text.ts";

export { stripDecoration } from "./text.ts";

/** Raw capture-pane output: plain (`-p -J`) and optionally styled (`-p -e -J`). */
export interface Capture {
  plain: string;
  styled?: string;
}

export interface DetectOptions {
  /** The pane title (mode markers also read it). */
  title?: string;
}

export type PaneState = "unavailable" | "prompt" | "dialog" | "busy" | "shell" | "idle" | "unknown";
export type Readiness = "ready" | "dialog" | "bare_shell" | "indeterminate";
export type Mode = "accept_edits" | "interactive" | "unknown";

export interface OptionLine {
  number: number;
  text: string;
  selected: boolean;
}

/** Every verdict of §5 under the §7 `detect --json` names (plus documented extensions). */
export interface Verdicts {
  cli: string;
  state: PaneState;
  readiness: Readiness;
  approval: boolean;
  live_prompt: boolean;
  permission_prompt: boolean;
  mid_response: boolean;
  command: string | null;
  file_path: string | null;
  options: OptionLine[];
  broad_grant_option: number | null;
  input_box: string | null;
  mode: Mode;
  stream_error: string | null;
  context_bloat_k: number | null;
  context_used_pct: number | null;
  paste_buffer: string | null;
  cli_unavailable: string | null;
  manual_pattern: string | null;
  /** Extension: an input line is visible (empty or not). */
  input_line: boolean;
  /** Extension: the first `dialog_markers` entry seen on a live dialog screen, else null. */
  dialog: string | null;
  /**
   * Extension (`choice_row_markers`): the un-numbered choice row of a live prompt (OpenCode's
   * "Allow once  Allow always  Reject"), in screen order, with the one the styled capture shows
   * selected; null when the profile describes none or none is on the live prompt.
   */
  choice_row: ChoiceRowEntry[] | null;
}

// Compiled windows (DESIGN §5): never profile fields.
export const LIVE_TAIL = 4;
export const LIVE_BLOCK = 15;
export const SHIFTED_MAX_BELOW = 13;
export const SHIFTED_OPTION_ABOVE = 6;
/** Non-blank lines at the bottom of the screen that count as "the bottom region". */
export const BOTTOM_REGION = 15;
/** Shell prompt sigils ending a bare shell's last line. */
const SHELL_SIGILS = ["$", "%", "#", "❯", "➜"];
/** Glyphs that mark an option line as the selected one. */
const SELECT_GLYPHS = ["❯", "›"];

interface Screen {
  lines: string[];
  lower: string[];
  /** Indices of the non-blank lines. */
  nb: number[];
}

function screenOf(plain: string): Screen {
  const lines = captureLines(plain);
  const lower = lines.map((l) => l.toLowerCase());
  const nb: number[] = [];
  for (let i = 0; i < lines.length; i++) if (!isBlank(lines[i])) nb.push(i);
  return { lines, lower, nb };
}

function hasAny(hay: string, markers: readonly string[]): boolean {
  for (const m of markers) if (hay.includes(m)) return true;
  return false;
}

function startsAny(hay: string, markers: readonly string[]): boolean {
  for (const m of markers) if (hay.startsWith(m)) return true;
  return false;
}

function isOptionLine(line: string, p: ResolvedProfile): boolean {
  return execBounded(p.matchers.patterns.option_line_pattern, stripDecoration(line)) !== null;
}

export interface Live {
  live: boolean;
  /** Line indices [start, end] of the live modal region (inclusive). */
  start: number;
  end: number;
}

/** The live-prompt gate: both windows exactly as DESIGN §5 states them. */
function livePrompt(s: Screen, p: ResolvedProfile): Live {
  const nb = s.nb;
  const markers = p.matchers.markers.live_prompt_markers;
  const none: Live = { live: false, start: -1, end: -1 };
  if (nb.length === 0) return none;
  const tail = nb.slice(-LIVE_TAIL);
  const block = nb.slice(-LIVE_BLOCK);
  const blockHas = block.some((i) => hasAny(s.lower[i], markers));
  // 1. At the true end.
  if (
    tail.some((i) => hasAny(s.lower[i], markers)) ||
    (blockHas && tail.some((i) => isOptionLine(s.lines[i], p)))
  ) {
    return { live: true, start: block[0], end: nb[nb.length - 1] };
  }
  // 2. Shifted: a footer starting a line, an option line among the 6 non-blank lines above it.
  const lowest = Math.max(0, nb.length - 1 - SHIFTED_MAX_BELOW);
  for (let k = nb.length - 1; k >= lowest; k--) {
    const line = stripDecoration(s.lower[nb[k]]);
    if (!startsAny(line, markers)) continue;
    const above = nb.slice(Math.max(0, k - SHIFTED_OPTION_ABOVE), k);
    if (above.some((i) => isOptionLine(s.lines[i], p))) {
      return { live: true, start: nb[Math.max(0, k - LIVE_BLOCK + 1)], end: nb[k] };
    }
  }
  return none;
}

/** The live-prompt gate alone, on raw capture text (for callers that need only liveness). */
export function livePromptOf(plain: string, profile: ResolvedProfile): Live {
  return livePrompt(screenOf(plain), profile);
}

function inRegion(s: Screen, live: Live): number[] {
  const out: number[] = [];
  for (let i = live.start; i <= live.end; i++) if (!isBlank(s.lines[i])) out.push(i);
  return out;
}

/** Numbered options of the live prompt: the last run numbered 1, 2, 3 … in the region. */
function optionsOf(s: Screen, live: Live, p: ResolvedProfile): OptionLine[] {
  if (!live.live) return [];
  const found: OptionLine[] = [];
  for (const i of inRegion(s, live)) {
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
 * - Header form (`Bash command` on its own): the block of non-blank lines after it, up to a
 *   confirmation boundary or a blank line. With the styled capture, grey/dim lines (the CLI's
 *   description of the command) end the command; without it the whole block is kept — erring on
 *   the side of more text, never truncating a multi-line command to its harmless first line.
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
    const line = contentOf(s.lines[idx]);
    const low = line.toLowerCase();
    const m = inline.find((mk) => low.startsWith(mk));
    if (m !== undefined) {
      const parts = [line.slice(m.length)];
      for (let j = idx + 1; j < s.lines.length && j <= idx + 20; j++) {
        if (parts[parts.length - 1].includes(")")) break;
        const next = contentOf(s.lines[j]);
        if (next === "") break;
        parts.push(next);
      }
      const joined = parts.map((x) => x.trim()).join("\n");
      const end = joined.lastIndexOf(")");
      if (end >= 0 && joined.slice(0, end).trim() !== "") return joined.slice(0, end).trim();
    }
    if (startsAny(low, header)) {
      const block: string[] = [];
      for (let j = idx + 1; j < s.lines.length; j++) {
        const c = contentOf(s.lines[j]);
        if (c === "") {
          if (block.length === 0) continue;
          break;
        }
        if (isConfirmationBoundary(c, p) || isRule(s.lines[j])) break;
        if (block.length > 0 && grey(j) === true) break;
        block.push(c.trim());
      }
      if (block.length > 0) return block.join("\n");
    }
  }
  return null;
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

/** First all-digit capture group of the last matching line (for bloat k / percent). */
function numberOf(s: Screen, re: RegExp, lines: readonly number[]): number | null {
  for (let k = lines.length - 1; k >= 0; k--) {
    const m = execBounded(re, s.lines[lines[k]]);
    if (!m) continue;
    for (let g = 1; g < m.length; g++) {
      if (m[g] !== undefined && /^[0-9]+$/.test(m[g])) return Number(m[g]);
    }
  }
  return null;
}

interface InputBox {
  /** Line index of the sigil line. */
  line: number;
  /** Line indices that belong to the input (sigil line + continuation). */
  lines: number[];
  /** Text after the sigil (continuation joined with "\n"). */
  text: string;
  /** Column (UTF-16 index in the plain line) where the text after the sigil begins. */
  textCol: number;
}

/** The input line: bordered `│ > … │`, or the open `❯ …` form between rules. Last one wins. */
function inputBoxOf(s: Screen, p: ResolvedProfile): InputBox | null {
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
    return { line: i, lines: [i, ...cont], text, textCol: lead + s1.length };
  }
  return null;
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

/** The styled form of plain line `i`, when the styled capture lines up with the plain one. */
function styledLine(styled: string[] | null, s: Screen, i: number): string | undefined {
  if (!styled) return undefined;
  const plain = s.lines[i].trimEnd();
  const same = styled.length === s.lines.length ? styled[i] : undefined;
  if (same !== undefined && stripAnsi(same).trimEnd() === plain) return same;
  return styled.find((l) => stripAnsi(l).trimEnd() === plain);
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

/** Run every detector on one capture with the pane's own resolved profile. Never throws. */
export function detect(
  capture: Capture,
  profile: ResolvedProfile,
  opts: DetectOptions = {},
): Verdicts {
  const p = profile;
  const mk = p.matchers.markers;
  const s = screenOf(capture.plain ?? "");
  const nb = s.nb;
  const bottom = nb.slice(-BOTTOM_REGION);
  const all = s.lower;

  const anyLine = (markers: readonly string[], lines: readonly number[] = allIdx(s)) =>
    lines.find((i) => hasAny(all[i], markers));

  // Live prompt and its region.
  const live = livePrompt(s, p);
  const region = live.live ? inRegion(s, live) : [];
  const options = optionsOf(s, live, p);

  // Command and file path: on a live prompt, only from the modal itself (from its top rule down to
  // its end), so a command left in the transcript above never stands in for the one asked about.
  const lastLine = live.live ? live.end : s.lines.length - 1;
  const top = live.live ? modalTop(s, live) : 0;
  const styled = capture.styled ? styledLines(capture.styled) : null;
  const command = commandOf(s, p, lastLine, top, (i) => lineIsGrey(styled, s, i)) ??
    commandLineOf(s, p, region);
  const file_path = filePathOf(s, p, top, lastLine);

  const approval = anyLine(mk.approval_markers) !== undefined;
  const approvalInRegion = region.some((i) => hasAny(all[i], mk.approval_markers));
  const headerInRegion = region.some((i) => {
    const low = stripDecoration(all[i]);
    return mk.command_header_markers.some((m) =>
      m.endsWith("(") ? low.includes(m) : low.startsWith(m)
    );
  });
  const fileInRegion = live.live && file_path !== null;
  const permission_prompt = live.live && (approvalInRegion || headerInRegion || fileInRegion);

  // Broad grant: which option's text carries the marker.
  let broad_grant_option: number | null = null;
  for (const o of options) {
    if (hasAny(o.text.toLowerCase(), p.matchers.broadGrant)) {
      broad_grant_option = o.number;
      break;
    }
  }

  // Input box.
  const box = inputBoxOf(s, p);
  let input_box: string | null = null;
  if (box) {
    const text = box.text;
    const low = text.toLowerCase();
    const isOption = execBounded(p.matchers.patterns.option_line_pattern, text) !== null;
    const placeholder = startsAny(low, mk.input_placeholder_markers) ||
      isDimPlaceholder(styled, s, box);
    if (text !== "" && !isOption && !placeholder) input_box = text;
  }
  const boxLines = new Set(box?.lines ?? []);

  // Mid-response: markers or the busy-line pattern in the bottom region.
  const busyRe = p.matchers.patterns.mid_response_pattern;
  const bottomOutsideBox = bottom.filter((i) => !boxLines.has(i));
  const mid_response = bottomOutsideBox.some((i) =>
    hasAny(all[i], mk.mid_response_markers) ||
    (busyRe !== null && execBounded(busyRe, s.lines[i]) !== null)
  );

  // Readiness.
  const dialogIdx = dialogMarkerLine(s, p, box);
  let readiness: Readiness;
  if (anyLine(mk.readiness_markers) !== undefined) readiness = "ready";
  else if (dialogIdx !== undefined) readiness = "dialog";
  else if (
    nb.length > 0 && SHELL_SIGILS.some((g) => s.lines[nb[nb.length - 1]].trimEnd().endsWith(g))
  ) {
    readiness = "bare_shell";
  } else readiness = "indeterminate";

  // Mode: title + capture.
  const hay = ((opts.title ?? "") + "\n").toLowerCase();
  const inMode = (markers: readonly string[]) =>
    hasAny(hay, markers) || all.some((l) => hasAny(l, markers));
  const mode: Mode = inMode(mk.mode_accept_edits_markers)
    ? "accept_edits"
    : inMode(mk.mode_interactive_markers)
    ? "interactive"
    : "unknown";

  // Stuck shapes.
  const streamIdx = lastIndex(allIdx(s), (i) => hasAny(all[i], mk.stream_error_markers));
  const stream_error = streamIdx === undefined ? null : contentOf(s.lines[streamIdx]);
  const context_bloat_k = numberOf(s, p.matchers.patterns.context_bloat_pattern, allIdx(s));
  const pctRe = p.matchers.patterns.context_used_pattern;
  const context_used_pct = pctRe === null ? null : numberOf(s, pctRe, bottom);
  const pasteLines = box ? box.lines : bottom;
  let paste_buffer: string | null = null;
  for (let k = pasteLines.length - 1; k >= 0 && paste_buffer === null; k--) {
    const m = execBounded(p.matchers.patterns.paste_buffer_pattern, s.lines[pasteLines[k]]);
    if (m) paste_buffer = m[0];
  }
  const unavailIdx = lastIndex(bottomOutsideBox, (i) => hasAny(all[i], mk.cli_unavailable_markers));
  const cli_unavailable = unavailIdx === undefined ? null : contentOf(s.lines[unavailIdx]);

  // Manual pattern.
  const candidate = command ?? file_path;
  const manual_pattern = candidate !== null && parsesAsCommand(candidate, p)
    ? candidate.trim()
    : null;

  // Derived state, in the §5 precedence.
  const dialogLive = live.live && !permission_prompt;
  let state: PaneState;
  if (cli_unavailable !== null) state = "unavailable";
  else if (permission_prompt) state = "prompt";
  else if (dialogLive || dialogIdx !== undefined) state = "dialog";
  else if (mid_response) state = "busy";
  else if (readiness === "bare_shell") state = "shell";
  else if (readiness === "ready" || box !== null) state = "idle";
  else state = "unknown";

  const dialog = dialogIdx === undefined
    ? null
    : (mk.dialog_markers.find((m) => all[dialogIdx].includes(m)) ?? null);

  return {
    cli: p.cli,
    state,
    readiness,
    approval,
    live_prompt: live.live,
    permission_prompt,
    mid_response,
    command,
    file_path,
    options,
    broad_grant_option,
    input_box,
    mode,
    stream_error,
    context_bloat_k,
    context_used_pct,
    paste_buffer,
    cli_unavailable,
    manual_pattern,
    input_line: box !== null,
    choice_row: live.live ? choiceRowOf(s, p, region, capture.styled) : null,
    dialog: dialog === null
      ? null
      : (p.values.dialog_markers.find((m) => m.toLowerCase() === dialog) ?? dialog),
  };
}

/** The line a live modal starts at: the nearest full rule (─) above its end, else the screen top. */
function modalTop(s: Screen, live: Live): number {
  for (let i = live.end; i >= 0; i--) {
    const t = s.lines[i].trim();
    if (t.length >= 3 && /^─+$/.test(t)) return i;
  }
  return 0;
}

function allIdx(s: Screen): number[] {
  return s.nb;
}

function lastIndex(idx: readonly number[], pred: (i: number) => boolean): number | undefined {
  for (let k = idx.length - 1; k >= 0; k--) if (pred(idx[k])) return idx[k];
  return undefined;
}

/** A known dialog heading that is still on screen: below the last input line, if any. */
function dialogMarkerLine(s: Screen, p: ResolvedProfile, box: InputBox | null): number | undefined {
  const floor = box ? box.line : -1;
  for (let k = s.nb.length - 1; k >= 0; k--) {
    const i = s.nb[k];
    if (i <= floor) break;
    if (hasAny(s.lower[i], p.matchers.markers.dialog_markers)) return i;
  }
  return undefined;
}

// ---- Extensions for CLIs whose screens the seed fields cannot describe (issue 7, lab-others) ----

/** How many non-blank lines at the bottom an `input_line_pattern` input line may sit in. */
export const INPUT_LINE_WINDOW = 8;

/**
 * `input_line_pattern`: the CLI draws its input line with no box or rules (Codex's `› …`, Gemini's
 * ` > …` above a status footer). The lowest matching line among the bottom non-blank lines that is
 * not an option line; group 1 is the text.
 */
function openInputLineOf(s: Screen, p: ResolvedProfile, re: RegExp): InputBox | null {
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

/**
 * `command_line_pattern`: the command line of a live permission prompt (Codex's `$ cmd`, Gemini's
 * `? Shell cmd`), searched in the live region from the bottom up; group 1 is the command.
 */
function commandLineOf(s: Screen, p: ResolvedProfile, region: readonly number[]): string | null {
  const re = p.matchers.patterns.command_line_pattern;
  if (!re) return null;
  for (let k = region.length - 1; k >= 0; k--) {
    const m = execBounded(re, contentOf(s.lines[region[k]]));
    const g = m?.[1]?.trim();
    if (g) return g;
  }
  return null;
}

export interface ChoiceRowEntry {
  text: string;
  selected: boolean;
}

/**
 * `choice_row_markers`: the lowest line of the live region that carries every choice, in order.
 * A choice is selected when it is the only one drawn bright (not dim, not grey) in the styled
 * capture; with no styled capture, or no single bright choice, none is selected (so nothing that
 * relies on the selection acts).
 */
function choiceRowOf(
  s: Screen,
  p: ResolvedProfile,
  region: readonly number[],
  styled: string | undefined,
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
    const bright = styled ? brightChoices(styledLines(styled), s.lines[i], cols, lows) : null;
    const single = bright !== null && bright.filter(Boolean).length === 1;
    return markers.map((m, n) => ({ text: m, selected: single && bright![n] }));
  }
  return null;
}

/** For each choice at `cols` (UTF-16 columns of the plain line): drawn bright in the styled line? */
function brightChoices(
  styled: string[],
  plainLine: string,
  cols: readonly number[],
  markers: readonly string[],
): boolean[] | null {
  const plain = plainLine.trimEnd();
  const sl = styled.find((l) => stripAnsi(l).trimEnd() === plain);
  if (sl === undefined) return null;
  const chars: StyledChar[] = styledChars(sl);
  // UTF-16 column of each styled character.
  const at: number[] = [];
  let col = 0;
  for (const c of chars) {
    at.push(col);
    col += c.ch.length;
  }
  return cols.map((c0, n) => {
    const c1 = c0 + markers[n].length;
    const inChoice = chars.filter((c, j) => at[j] >= c0 && at[j] < c1 && c.ch.trim() !== "");
    return inChoice.length > 0 && inChoice.every((c) => !c.dim && (c.inverse || !isGreyFg(c.fg)));
  });
}
