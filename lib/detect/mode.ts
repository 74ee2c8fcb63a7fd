/** The CLI's permission mode, from the pane title and the capture. */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { hasAny, type Screen } from "./screen.ts";

export type Mode = "accept_edits" | "interactive" | "unknown";

export function modeOf(s: Screen, p: ResolvedProfile, title: string | undefined): Mode {
  const mk = p.matchers.markers;
  const hay = ((title ?? "") + "\n").toLowerCase();
  const inMode = (markers: readonly string[]) =>
    hasAny(hay, markers) || s.lower.some((l) => hasAny(l, markers));
  return inMode(mk.mode_accept_edits_markers)
    ? "accept_edits"
    : inMode(mk.mode_interactive_markers)
    ? "interactive"
    : "unknown";
}
