/**
 * What the CLI is doing when no permission prompt is live: ready for input, busy mid-response, a
 * known dialog still on screen, or gone (a bare shell).
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded } from "../regex/match.ts";
import { bottomOutsideBox, type InputBox, statusAreaOf } from "./input.ts";
import { LIVE_TAIL } from "./liveness.ts";
import { endsInShellPrompt, isBusyLine, isChoiceLine } from "./line_kinds.ts";
import { hasAny, type Screen } from "./screen.ts";
import { isBlank, isRule } from "./text.ts";

export type Readiness = "ready" | "dialog" | "bare_shell" | "indeterminate";

export function readinessOf(
  s: Screen,
  p: ResolvedProfile,
  dialogIdx: number | undefined,
  box: InputBox | null = null,
): Readiness {
  const nb = s.nb;
  if (nb.some((i) => hasAny(s.lower[i], p.matchers.markers.readiness_markers))) return "ready";
  if (dialogIdx !== undefined) return "dialog";
  if (endsInShell(s, box)) return "bare_shell";
  return "indeterminate";
}

/**
 * The screen ends in a shell prompt: its last non-blank line does, and that line is not in the
 * CLI's status area under its input box (a status line ending in "$" or "%" is the user's
 * decoration, not a shell).
 */
export function endsInShell(s: Screen, box: InputBox | null): boolean {
  if (s.nb.length === 0) return false;
  const last = s.nb[s.nb.length - 1];
  return endsInShellPrompt(s.lines[last]) && !statusAreaOf(s, box).includes(last);
}

/** How far above the input line the activity line may sit (a long task list under it). */
export const ACTIVITY_ABOVE = 40;

/**
 * Mid-response around an input line that is not ruled (activity.ts reads a ruled one): a busy
 * line in the bottom region, outside the input line; or the busy-line pattern on the activity
 * line — the last line above the input line that starts in column 0 (what is drawn under it, a
 * task list or a tip, is indented), which a long task list can push out of the bottom region. The
 * busy line alone is enough: a user's status line replaces the footer that would say "esc to
 * interrupt".
 */
export function midResponseOf(s: Screen, p: ResolvedProfile, box: InputBox | null): boolean {
  if (bottomOutsideBox(s, box).some((i) => isBusyLine(s, p, i))) return true;
  const busyRe = p.matchers.patterns.mid_response_pattern;
  const activity = box ? activityLineAbove(s, box.line) : undefined;
  return activity !== undefined && busyRe !== null &&
    execBounded(busyRe, s.lines[activity]) !== null;
}

/** The last line above the input line (and its top rule) that starts in column 0. */
function activityLineAbove(s: Screen, inputLine: number): number | undefined {
  let i = inputLine - 1;
  while (i >= 0 && (isBlank(s.lines[i]) || isRule(s.lines[i]))) i--;
  for (let n = 0; i >= 0 && n < ACTIVITY_ABOVE; i--, n++) {
    const l = s.lines[i];
    if (isBlank(l)) continue;
    if (!/^\s/.test(l)) return i;
  }
  return undefined;
}

/**
 * A menu at the true end of the screen: one of the last non-blank lines is the selected entry of
 * a list — a numbered option with the selection glyph ("❯ 1. Yes, and switch to default …") or an
 * un-numbered one ("❯ Yes, set auto mode as my default …") — that is not the input line (which
 * sits right under a rule), with no shell prompt below. Some dialogs draw no footer a live-prompt
 * marker could anchor; their shape still says the CLI waits for a choice.
 */
export function menuAtEndOf(s: Screen, box: InputBox | null): boolean {
  // A shell prompt under it: a shell printed the lines (the CLI is gone), nobody waits on them.
  if (s.nb.length === 0 || endsInShell(s, box)) return false;
  const from = Math.max(0, s.nb.length - LIVE_TAIL);
  for (let k = from; k < s.nb.length; k++) {
    const i = s.nb[k];
    if (box && box.lines.includes(i)) continue;
    if (!isChoiceLine(s.lines[i])) continue;
    if (k === 0 || !isRule(s.lines[s.nb[k - 1]])) return true;
  }
  return false;
}

/** A known dialog heading that is still on screen: below the last input line, if any. */
export function dialogMarkerLine(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null,
): number | undefined {
  const floor = box ? box.line : -1;
  for (let k = s.nb.length - 1; k >= 0; k--) {
    const i = s.nb[k];
    if (i <= floor) break;
    if (hasAny(s.lower[i], p.matchers.markers.dialog_markers)) return i;
  }
  return undefined;
}

/** The `dialog_markers` entry, as the profile spells it, on the dialog line. */
export function dialogNameOf(
  s: Screen,
  p: ResolvedProfile,
  dialogIdx: number | undefined,
): string | null {
  if (dialogIdx === undefined) return null;
  const dialog = p.matchers.markers.dialog_markers.find((m) => s.lower[dialogIdx].includes(m));
  if (dialog === undefined) return null;
  return p.values.dialog_markers.find((m) => m.toLowerCase() === dialog) ?? dialog;
}
