/**
 * The parsed capture every detector reads, and the small matching helpers they share. The bottom
 * region is a compiled window (DESIGN §5), never a profile field.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded } from "../regex/match.ts";
import { captureLines, contentOf, isBlank, stripAnsi, stripDecoration } from "./text.ts";

/** Non-blank lines at the bottom of the screen that count as "the bottom region". */
export const BOTTOM_REGION = 15;

export interface Screen {
  lines: string[];
  lower: string[];
  /** Indices of the non-blank lines. */
  nb: number[];
}

export function screenOf(plain: string): Screen {
  const lines = captureLines(plain);
  const lower = lines.map((l) => l.toLowerCase());
  const nb: number[] = [];
  for (let i = 0; i < lines.length; i++) if (!isBlank(lines[i])) nb.push(i);
  return { lines, lower, nb };
}

/** Indices of the non-blank lines of the bottom region. */
export function bottomOf(s: Screen): number[] {
  return s.nb.slice(-BOTTOM_REGION);
}

export function hasAny(hay: string, markers: readonly string[]): boolean {
  for (const m of markers) if (hay.includes(m)) return true;
  return false;
}

export function startsAny(hay: string, markers: readonly string[]): boolean {
  for (const m of markers) if (hay.startsWith(m)) return true;
  return false;
}

export function isOptionLine(line: string, p: ResolvedProfile): boolean {
  return execBounded(p.matchers.patterns.option_line_pattern, stripDecoration(line)) !== null;
}

/** The last index in `idx` that satisfies `pred`. */
export function lastIndex(
  idx: readonly number[],
  pred: (i: number) => boolean,
): number | undefined {
  for (let k = idx.length - 1; k >= 0; k--) if (pred(idx[k])) return idx[k];
  return undefined;
}

/**
 * The styled form of plain line `i`: the same line when the two captures line up, else the LOWEST
 * styled line with the same text — live prompts sit at the bottom, and an older copy of the same
 * text higher up (a scrolled-away prompt) must never lend its styles to the live one.
 */
export function styledLine(styled: string[] | null, s: Screen, i: number): string | undefined {
  if (!styled) return undefined;
  const plain = s.lines[i].trimEnd();
  const same = styled.length === s.lines.length ? styled[i] : undefined;
  if (same !== undefined && stripAnsi(same).trimEnd() === plain) return same;
  for (let k = styled.length - 1; k >= 0; k--) {
    if (stripAnsi(styled[k]).trimEnd() === plain) return styled[k];
  }
  return undefined;
}

/** The bottom region's non-blank lines (what BOTTOM_REGION counts), decoration stripped. */
export function tailOf(plain: string): string[] {
  const lines = captureLines(plain).filter((l) => !isBlank(l));
  return lines.slice(-BOTTOM_REGION).map(contentOf);
}
