/**
 * What one line of a screen is, read alone: the selected entry of a choice list, the end of a
 * shell prompt, a busy line. The detectors of liveness, readiness and options all ask; it sits
 * below them so none of them imports another for it.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded } from "../regex/match.ts";
import { hasAny, type Screen } from "./screen.ts";
import { isBlank } from "./text.ts";

/** Glyphs that mark an option line as the selected one. */
export const SELECT_GLYPHS = ["❯", "›"];

/** The selected entry of an un-numbered list: a selection glyph, a space, then text. */
export function isChoiceLine(line: string): boolean {
  const t = line.trimStart();
  for (const g of SELECT_GLYPHS) {
    if (t.startsWith(g + " ") && !isBlank(t.slice(g.length))) return true;
  }
  return false;
}

/** Shell prompt sigils ending a bare shell's last line (compiled: DESIGN §5). */
export const SHELL_SIGILS = ["$", "%", "#", "❯", "➜"] as const;

/**
 * A line a shell prompt ends: its last visible character is a prompt sigil. A `%` right after a
 * digit is a percentage ("context 84%"), not zsh's prompt.
 */
export function endsInShellPrompt(line: string): boolean {
  const t = line.trimEnd();
  if (!SHELL_SIGILS.some((g) => t.endsWith(g))) return false;
  return !(t.endsWith("%") && /[0-9]$/.test(t.slice(0, -1)));
}

/** A busy line: a mid_response marker or the mid_response_pattern on line `i`. */
export function isBusyLine(s: Screen, p: ResolvedProfile, i: number): boolean {
  const busyRe = p.matchers.patterns.mid_response_pattern;
  return hasAny(s.lower[i], p.matchers.markers.mid_response_markers) ||
    (busyRe !== null && execBounded(busyRe, s.lines[i]) !== null);
}
