/**
 * The matcher: a backtracking search that remembers every (instruction, position) state it has
 * already tried (the "bit-state" technique). It explores alternatives in the same priority order as
 * JavaScript's backtracking engine, so the first match and its capture groups are the ones
 * JavaScript would report; but a state that failed once is never tried again, so the whole search
 * of a line, over every start position, takes at most (line length + 1) × program length steps.
 * On top of that bound a hard step budget applies to every search: past it the line counts as not
 * matching and the budget counter goes up.
 *
 * Positions are UTF-16 indices (what String#slice and the detectors use); every step consumes a
 * whole code point, so a surrogate pair is never split.
 */
import { Op, type Program } from "./program.ts";

/** Hard cap on the steps of one search (one line), whatever its length and program size. */
export const MAX_STEPS = 1 << 20;

export interface SearchResult {
  /** Slot values (UTF-16 positions, -1 = unset): [start, end, g1start, g1end, …]. */
  slots: Int32Array;
}

/** What a search costs, for callers that report it (and tests that check the bound). */
export interface SearchStats {
  steps: number;
  overBudget: boolean;
}

// Scratch buffers, grown on demand and reused: a search allocates nothing on the common path.
let visited = new Uint32Array(1024);
let stack = new Int32Array(1024);

function growStack(need: number): void {
  let n = stack.length;
  while (n < need) n *= 2;
  const s = new Int32Array(n);
  s.set(stack);
  stack = s;
}

export interface SearchOptions {
  /** First UTF-16 index a match may start at. */
  from: number;
  /** Only try a match starting at `from` (an anchored pattern). */
  anchored: boolean;
  /** Code points a match can start with (skip other start positions), or null. */
  first: { has(cp: number): boolean } | null;
  /** Track capture groups (false: only whether it matches, which is cheaper). */
  captures: boolean;
  /** Step budget for this search (at most MAX_STEPS). */
  budget: number;
}

/** The code point at UTF-16 index `i`: a lone surrogate stands for itself (NaN past the end). */
function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** UTF-16 length of a code point from codePointAt (1 for NaN, so a step past the end is 1). */
function widthOf(cp: number): number {
  return cp > 0xffff ? 2 : 1;
}

/**
 * The first position at or after `start` a match may start at, or -1 when none is left: skip what
 * cannot begin a match (`opts.first`); an anchored search tries `start` alone.
 */
function nextStart(text: string, start: number, opts: SearchOptions): number {
  const n = text.length;
  if (opts.first === null) return start <= n ? start : -1;
  // With a first-character set, the end of the text can begin no match.
  while (start < n) {
    const c = codePointAt(text, start);
    if (opts.first.has(c)) return start;
    if (opts.anchored) return -1;
    start += widthOf(c);
  }
  return -1;
}

/** Push one stack entry (a pair); returns the new stack pointer. */
function push(sp: number, a: number, b: number): number {
  if (sp + 2 > stack.length) growStack(sp + 2);
  stack[sp] = a;
  stack[sp + 1] = b;
  return sp + 2;
}

/** Set capture slot `s`, pushing the entry that restores it on backtracking; returns the new sp. */
function setSlot(slots: Int32Array, s: number, value: number, sp: number): number {
  const next = push(sp, -1 - s, slots[s]);
  slots[s] = value;
  return next;
}

const NO_MATCH = 0, MATCH = 1, OVER_BUDGET = 2;

/**
 * One depth-first run of `prog` from `start`, over the states `visited` has not seen yet; counts
 * its steps on from `stats.steps`. Stack entries are pairs: (pc, pos) to try, or
 * (-1 - slot, old value) to restore a capture slot when backtracking past a Save/Reset.
 */
function runFrom(
  prog: Program,
  text: string,
  start: number,
  opts: SearchOptions,
  budget: number,
  stats: SearchStats,
  slots: Int32Array,
): number {
  const n = text.length, code = prog.code, sets = prog.sets, ascii = prog.ascii;
  const stride = prog.length, caps = opts.captures;
  let steps = stats.steps;
  let sp = push(0, 0, start);
  while (sp > 0) {
    const b = stack[--sp];
    const a = stack[--sp];
    if (a < 0) {
      slots[-1 - a] = b;
      continue;
    }
    let pc = a, pos = b;
    // Follow one thread until it fails; alternatives are pushed for later.
    for (;;) {
      const bit = pos * stride + pc;
      const word = bit >>> 5, mask = 1 << (bit & 31);
      if ((visited[word] & mask) !== 0) break;
      visited[word] |= mask;
      if (++steps > budget) {
        stats.steps = steps;
        return OVER_BUDGET;
      }
      const at = 3 * pc;
      const op = code[at];
      if (op === Op.Char || op === Op.Set) {
        if (pos >= n) break;
        const c = codePointAt(text, pos);
        if (op === Op.Char) {
          if (c !== code[at + 1]) break;
        } else if (c < 128) {
          if ((ascii[4 * code[at + 1] + (c >> 5)] & (1 << (c & 31))) === 0) break;
        } else if (!sets[code[at + 1]].has(c)) break;
        pos += widthOf(c);
        pc++;
      } else if (op === Op.Split) {
        sp = push(sp, code[at + 2], pos);
        pc = code[at + 1];
      } else if (op === Op.Jmp) {
        pc = code[at + 1];
      } else if (op === Op.Save) {
        if (caps) sp = setSlot(slots, code[at + 1], pos, sp);
        pc++;
      } else if (op === Op.Reset) {
        if (caps) {
          for (let s = code[at + 1], e = code[at + 2]; s < e; s++) {
            if (slots[s] !== -1) sp = setSlot(slots, s, -1, sp);
          }
        }
        pc++;
      } else if (op === Op.Bol) {
        if (pos !== 0) break;
        pc++;
      } else if (op === Op.Eol) {
        if (pos !== n) break;
        pc++;
      } else { // Op.Match
        stats.steps = steps;
        if (!caps) {
          slots[0] = start;
          slots[1] = pos;
        }
        return MATCH;
      }
    }
  }
  stats.steps = steps;
  return NO_MATCH;
}

/**
 * Search `text` for the leftmost-first match of `prog`. Returns the slots on a match, null on no
 * match or when the budget ran out (`stats.overBudget`).
 */
export function search(
  prog: Program,
  text: string,
  opts: SearchOptions,
  stats: SearchStats,
  slots: Int32Array,
): Int32Array | null {
  // One visited bit per (position, instruction) state, shared by the runs from every start.
  const bits = (text.length + 1) * prog.length;
  const words = (bits + 31) >>> 5;
  if (visited.length < words) visited = new Uint32Array(Math.max(words, visited.length * 2));
  else visited.fill(0, 0, words);
  slots.fill(-1);
  const budget = Math.min(opts.budget, MAX_STEPS);
  stats.steps = 0;
  for (let start = nextStart(text, opts.from, opts); start >= 0;) {
    const outcome = runFrom(prog, text, start, opts, budget, stats, slots);
    if (outcome === MATCH) return slots;
    if (outcome === OVER_BUDGET) {
      stats.overBudget = true;
      return null;
    }
    if (opts.anchored) break;
    // Advance one code point (a surrogate pair is never split).
    start = nextStart(text, start + widthOf(codePointAt(text, start)), opts);
  }
  return null;
}
