/**
 * The live-prompt gate of DESIGN §5: is a modal prompt on screen now (not scrolled into the
 * transcript), and which lines form it. The windows are compiled constants a profile cannot change.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
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

/** The live-prompt gate: both windows exactly as DESIGN §5 states them. */
export function livePrompt(s: Screen, p: ResolvedProfile): Live {
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
