/**
 * The CLI's permission mode, from the capture and the pane title.
 *
 * The lowest line that states a mode wins: a mode footer sits at the bottom, and a mode switch
 * leaves notes about other modes in the transcript above it. Option lines (a prompt's choices,
 * e.g. "❯ 1. Yes" or "Yes, and switch to auto mode") only count when no other line states a mode:
 * a choice offers a mode, it does not say which one is on. Within one line the more permissive
 * mode is named first (bypass, auto, plan, accept edits, interactive).
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { hasAny, isOptionLine, type Screen } from "./screen.ts";
import { isChoiceLine } from "./line_kinds.ts";

export type Mode = "accept_edits" | "interactive" | "plan" | "auto" | "bypass" | "unknown";

export function modeOf(s: Screen, p: ResolvedProfile, title: string | undefined): Mode {
  const mk = p.matchers.markers;
  const order: Array<[Mode, readonly string[]]> = [
    ["bypass", mk.mode_bypass_markers],
    ["auto", mk.mode_auto_markers],
    ["plan", mk.mode_plan_markers],
    ["accept_edits", mk.mode_accept_edits_markers],
    ["interactive", mk.mode_interactive_markers],
  ];
  const modeIn = (low: string): Mode | null => {
    for (const [mode, markers] of order) if (hasAny(low, markers)) return mode;
    return null;
  };
  const choice = (i: number) => isOptionLine(s.lines[i], p) || isChoiceLine(s.lines[i]);
  // Bottom up: the first line stating a mode that is not a choice wins, else the lowest choice
  // that states one. A line is tested for being a choice only when it names a mode at all.
  let offered: Mode | null = null;
  for (let k = s.nb.length - 1; k >= 0; k--) {
    const i = s.nb[k];
    const m = modeIn(s.lower[i]);
    if (m === null) continue;
    if (!choice(i)) return m;
    offered ??= m;
  }
  return offered ?? modeIn((title ?? "").toLowerCase()) ?? "unknown";
}
