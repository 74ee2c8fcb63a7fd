/**
 * The live-prompt gate of DESIGN §5: is a modal prompt on screen now (not scrolled into the
 * transcript, not quoted in output), and which lines form it. The windows and the layout rule are
 * compiled constants a profile cannot change; a profile only says what the input line, the busy
 * line and the prompt's markers look like.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { type InputBox, inputBoxOf } from "./input.ts";
import { endsInShellPrompt, isBusyLine } from "./line_kinds.ts";
import { hasAny, isOptionLine, type Screen, screenOf, startsAny } from "./screen.ts";
import { isBlank, stripDecoration } from "./text.ts";

export const LIVE_TAIL = 4;
export const LIVE_BLOCK = 15;
export const SHIFTED_MAX_BELOW = 13;
export const SHIFTED_OPTION_ABOVE = 6;

export interface Live {
  live: boolean;
  /** Line indices [start, end] of the live modal region (inclusive). */
  start: number;
  end: number;
}

const NONE: Live = { live: false, start: -1, end: -1 };

interface Candidate {
  start: number;
  end: number;
  /** The lowest line of the modal itself (a marker or an option line): what must be lowest. */
  anchor: number;
}

/**
 * The live-prompt gate: the two windows of DESIGN §5 find a candidate modal, then the screen's
 * own layout must not contradict it (see `contradicted`). Text typed into the input line is not
 * screen state, so the input line's own lines never count as part of a modal.
 */
export function livePrompt(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null = inputBoxOf(s, p),
): Live {
  const inBox = new Set(box?.lines ?? []);
  const nb = inBox.size === 0 ? s.nb : s.nb.filter((i) => !inBox.has(i));
  const c = candidateOf(s, p, nb);
  if (c === null || contradicted(s, p, box, c.anchor)) return NONE;
  return { live: true, start: c.start, end: c.end };
}

/** The two windows of DESIGN §5, exactly as stated there, over the non-blank lines `nb`. */
function candidateOf(s: Screen, p: ResolvedProfile, nb: readonly number[]): Candidate | null {
  const markers = p.matchers.markers.live_prompt_markers;
  if (nb.length === 0) return null;
  const tail = nb.slice(-LIVE_TAIL);
  const block = nb.slice(-LIVE_BLOCK);
  const blockHas = block.some((i) => hasAny(s.lower[i], markers));
  const markerAt = (i: number) => hasAny(s.lower[i], markers);
  const optionAt = (i: number) => isOptionLine(s.lines[i], p);
  // 1. At the true end.
  if (tail.some(markerAt) || (blockHas && tail.some(optionAt))) {
    let anchor = tail[0];
    for (const i of tail) if (markerAt(i) || optionAt(i)) anchor = i;
    return { start: block[0], end: nb[nb.length - 1], anchor };
  }
  // 2. Shifted: a footer starting a line, an option line among the 6 non-blank lines above it.
  const lowest = Math.max(0, nb.length - 1 - SHIFTED_MAX_BELOW);
  for (let k = nb.length - 1; k >= lowest; k--) {
    const line = stripDecoration(s.lower[nb[k]]);
    if (!startsAny(line, markers)) continue;
    const above = nb.slice(Math.max(0, k - SHIFTED_OPTION_ABOVE), k);
    if (above.some(optionAt)) {
      return { start: nb[Math.max(0, k - LIVE_BLOCK + 1)], end: nb[k], anchor: nb[k] };
    }
  }
  return null;
}

/**
 * The layout rule (compiled; issue 16). Every verified CLI draws a live modal at the bottom of
 * its screen in place of its input line, so what the CLI draws only when NO modal is up, found
 * below the candidate, proves the candidate is a copy (agent output, a tool result, a `cat` of a
 * saved screen, text being streamed):
 *   - the CLI's input line (as the profile describes it: sigils, input_line_pattern);
 *   - its busy line (mid_response_markers / mid_response_pattern), outside the input line;
 *   - its ready footer (readiness_markers), outside the input line;
 *   - a bare shell prompt as the last non-blank line (the CLI is not running at all).
 * Content that is neither (a task list, a status strip) may still sit below a live modal.
 */
function contradicted(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null,
  anchor: number,
): boolean {
  if (box !== null && box.line > anchor) return true;
  const inBox = new Set(box?.lines ?? []);
  for (let k = s.nb.length - 1; k >= 0 && s.nb[k] > anchor; k--) {
    const i = s.nb[k];
    if (inBox.has(i)) continue;
    if (isBusyLine(s, p, i) || hasAny(s.lower[i], p.matchers.markers.readiness_markers)) {
      return true;
    }
  }
  const last = s.nb[s.nb.length - 1];
  return last > anchor && endsInShellPrompt(s.lines[last]);
}

/** The live-prompt gate alone, on raw capture text (for callers that need only liveness). */
export function livePromptOf(plain: string, profile: ResolvedProfile): Live {
  return livePrompt(screenOf(plain), profile);
}

/** The non-blank lines of the live region; none when no prompt is live. */
export function regionOf(s: Screen, live: Live): number[] {
  const out: number[] = [];
  if (!live.live) return out;
  for (let i = live.start; i <= live.end; i++) if (!isBlank(s.lines[i])) out.push(i);
  return out;
}

/** How far up from the bottom the modal's top rule is looked for. */
const BOTTOM_MODAL_RULE_WITHIN = 40;

/**
 * The lines of the modal at the bottom of a capture, with no profile at all: from the lowest full
 * rule (─) among the last lines, else the last LIVE_BLOCK non-blank lines. For compiled checks
 * (the approve gate's dialog refusal) that must not depend on a profile's markers.
 */
export function bottomModalLines(plain: string): string[] {
  const s = screenOf(plain);
  const from = Math.max(0, s.lines.length - BOTTOM_MODAL_RULE_WITHIN);
  for (let i = s.lines.length - 1; i >= from; i--) {
    const t = s.lines[i].trim();
    if (t.length >= 3 && /^─+$/.test(t)) return s.lines.slice(i + 1).filter((l) => !isBlank(l));
  }
  return s.nb.slice(-LIVE_BLOCK).map((i) => s.lines[i]);
}

/** The line a live modal starts at: the nearest full rule (─) above its end, else the screen top. */
export function modalTop(s: Screen, live: Live): number {
  for (let i = live.end; i >= 0; i--) {
    const t = s.lines[i].trim();
    if (t.length >= 3 && /^─+$/.test(t)) return i;
  }
  return 0;
}
