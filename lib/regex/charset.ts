/**
 * Sets of code points, the only thing a compiled pattern ever tests a character against. Case
 * folding, classes, `.` and `\d \w \s` are all resolved into one of these when a pattern compiles,
 * so matching never needs a flag. Ranges are sorted, disjoint and not adjacent; ASCII membership is
 * a bitmap lookup because nearly every character of a terminal line is ASCII.
 */

export const MAX_CODE_POINT = 0x10ffff;

export class CharSet {
  /** [lo0, hi0, lo1, hi1, …], inclusive, normalised. */
  readonly ranges: Int32Array;
  /** Membership of code points 0–127, one bit each (4 words). */
  readonly ascii: Uint32Array;

  private constructor(ranges: Int32Array) {
    this.ranges = ranges;
    this.ascii = new Uint32Array(4);
    for (let i = 0; i < ranges.length; i += 2) {
      const lo = ranges[i], hi = Math.min(ranges[i + 1], 127);
      for (let c = lo; c <= hi; c++) this.ascii[c >> 5] |= 1 << (c & 31);
    }
  }

  /** Build from any list of inclusive [lo, hi] pairs (unsorted, overlapping is fine). */
  static of(pairs: ReadonlyArray<readonly [number, number]>): CharSet {
    const sorted = pairs.filter(([lo, hi]) => lo <= hi).map(([lo, hi]) => [lo, hi] as const)
      .sort((a, b) => a[0] - b[0]);
    const out: number[] = [];
    for (const [lo, hi] of sorted) {
      const n = out.length;
      if (n > 0 && lo <= out[n - 1] + 1) out[n - 1] = Math.max(out[n - 1], hi);
      else out.push(lo, hi);
    }
    return new CharSet(Int32Array.from(out));
  }

  /**
   * From ranges already in normal form (sorted, disjoint, not adjacent — what `ranges` holds), as
   * a frozen pattern stores them (frozen.ts): no sorting or merging.
   */
  static fromRanges(ranges: readonly number[]): CharSet {
    return new CharSet(Int32Array.from(ranges));
  }

  static single(cp: number): CharSet {
    return CharSet.of([[cp, cp]]);
  }

  has(cp: number): boolean {
    if (cp < 128) return (this.ascii[cp >> 5] & (1 << (cp & 31))) !== 0;
    const r = this.ranges;
    let lo = 0, hi = (r.length >> 1) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cp < r[2 * mid]) hi = mid - 1;
      else if (cp > r[2 * mid + 1]) lo = mid + 1;
      else return true;
    }
    return false;
  }

  union(other: CharSet): CharSet {
    return CharSet.of([...this.pairs(), ...other.pairs()]);
  }

  /** Every code point not in this set (lone surrogates included, as JS matches them). */
  negate(): CharSet {
    const out: Array<[number, number]> = [];
    let next = 0;
    for (const [lo, hi] of this.pairs()) {
      if (lo > next) out.push([next, lo - 1]);
      next = hi + 1;
    }
    if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
    return CharSet.of(out);
  }

  intersects(other: CharSet): boolean {
    const a = this.ranges, b = other.ranges;
    let i = 0, j = 0;
    while (i < a.length && j < b.length) {
      if (a[i + 1] < b[j]) i += 2;
      else if (b[j + 1] < a[i]) j += 2;
      else return true;
    }
    return false;
  }

  /** Number of code points in the set. */
  size(): number {
    let n = 0;
    for (let i = 0; i < this.ranges.length; i += 2) n += this.ranges[i + 1] - this.ranges[i] + 1;
    return n;
  }

  /** How many of the 95 printable ASCII characters (space … `~`) the set holds. */
  printableAscii(): number {
    let n = 0;
    for (let c = 0x20; c <= 0x7e; c++) if (this.has(c)) n++;
    return n;
  }

  /** The only member, or -1. */
  singleton(): number {
    return this.ranges.length === 2 && this.ranges[0] === this.ranges[1] ? this.ranges[0] : -1;
  }

  isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  *pairs(): Iterable<[number, number]> {
    for (let i = 0; i < this.ranges.length; i += 2) yield [this.ranges[i], this.ranges[i + 1]];
  }

  /** Members, for small sets only (callers check size() first). */
  members(): number[] {
    const out: number[] = [];
    for (const [lo, hi] of this.pairs()) for (let c = lo; c <= hi; c++) out.push(c);
    return out;
  }
}

/** JS `\s` (WhiteSpace + LineTerminator), the same set in every RegExp mode. */
export const SPACE = CharSet.of([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/** `\d`: ASCII digits only (documented; Rust's is Unicode). */
export const DIGIT = CharSet.of([[0x30, 0x39]]);
/** `\w`: ASCII word characters only (documented; Rust's is Unicode). */
export const WORD = CharSet.of([[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]);
/** `.` without the `s` flag: anything but the JS line terminators. */
export const DOT = CharSet.of([[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]]).negate();
export const ANY = CharSet.of([[0, MAX_CODE_POINT]]);

export function isSurrogate(cp: number): boolean {
  return cp >= 0xd800 && cp <= 0xdfff;
}
