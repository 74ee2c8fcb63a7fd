/** Case folding shared by the JS emitter and the ERE export (a `(?i)` pattern carries no flag). */
import { PatternError } from "./error.ts";

export function caseVariants(cp: number): number[] {
  const ch = String.fromCodePoint(cp);
  const set = new Set<number>([cp]);
  for (const v of [ch.toLowerCase(), ch.toUpperCase()]) {
    if ([...v].length === 1) set.add(v.codePointAt(0)!);
  }
  return [...set];
}

export function addRangeCase(
  lo: number,
  hi: number,
  out: Array<[number, number]>,
  i: boolean,
): void {
  out.push([lo, hi]);
  if (!i) return;
  const lowA = 0x61, lowZ = 0x7a, upA = 0x41, upZ = 0x5a;
  const a = Math.max(lo, lowA), b = Math.min(hi, lowZ);
  if (a <= b) out.push([a - 32, b - 32]);
  const c = Math.max(lo, upA), d = Math.min(hi, upZ);
  if (c <= d) out.push([c + 32, d + 32]);
  if (hi > 0x7f) {
    for (let cp = Math.max(lo, 0x80); cp <= hi; cp++) {
      if (caseVariants(cp).length > 1) {
        throw new PatternError("a case-insensitive non-ASCII range has no portable ERE form");
      }
      if (cp - lo > 5000) break;
    }
  }
}
