/**
 * What the CLI is doing when no permission prompt is live: ready for input, busy mid-response, a
 * known dialog still on screen, or gone (a bare shell).
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded } from "../regex/match.ts";
import { bottomOutsideBox, type InputBox } from "./input.ts";
import { hasAny, type Screen } from "./screen.ts";

export type Readiness = "ready" | "dialog" | "bare_shell" | "indeterminate";

/** Shell prompt sigils ending a bare shell's last line. */
const SHELL_SIGILS = ["$", "%", "#", "❯", "➜"];

export function readinessOf(
  s: Screen,
  p: ResolvedProfile,
  dialogIdx: number | undefined,
): Readiness {
  const nb = s.nb;
  if (nb.some((i) => hasAny(s.lower[i], p.matchers.markers.readiness_markers))) return "ready";
  if (dialogIdx !== undefined) return "dialog";
  if (nb.length > 0 && SHELL_SIGILS.some((g) => s.lines[nb[nb.length - 1]].trimEnd().endsWith(g))) {
    return "bare_shell";
  }
  return "indeterminate";
}

/** Mid-response: markers or the busy-line pattern in the bottom region, outside the input line. */
export function midResponseOf(s: Screen, p: ResolvedProfile, box: InputBox | null): boolean {
  const mk = p.matchers.markers;
  const busyRe = p.matchers.patterns.mid_response_pattern;
  return bottomOutsideBox(s, box).some((i) =>
    hasAny(s.lower[i], mk.mid_response_markers) ||
    (busyRe !== null && execBounded(busyRe, s.lines[i]) !== null)
  );
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
