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
  const n = text.length;
  const code = prog.code;
  const sets = prog.sets;
  const ascii = prog.ascii;
  const plen = prog.length;
  const stride = plen;
  const bits = (n + 1) * stride;
  const words = (bits + 31) >>> 5;
  if (visited.length < words) visited = new Uint32Array(Math.max(words, visited.length * 2));
  else visited.fill(0, 0, words);
  slots.fill(-1);
  const budget = Math.min(opts.budget, MAX_STEPS);
  const caps = opts.captures;
  let steps = 0;

  for (let start = opts.from; start <= n;) {
    // Next start position: skip what cannot begin a match; never start inside a surrogate pair.
    if (opts.first !== null && start < n) {
      let c = text.charCodeAt(start);
      let w = 1;
      if (c >= 0xd800 && c <= 0xdbff && start + 1 < n) {
        const d = text.charCodeAt(start + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
          w = 2;
        }
      }
      if (!opts.first.has(c)) {
        if (opts.anchored) break;
        start += w;
        continue;
      }
    } else if (opts.first !== null && start === n) {
      break;
    }
    // One depth-first run from `start`. Stack entries are pairs: (pc, pos) to try, or
    // (-1 - slot, old value) to restore a capture slot when backtracking past a Save/Reset.
    let sp = 0;
    if (stack.length < 2) growStack(2);
    stack[sp++] = 0;
    stack[sp++] = start;
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
          stats.overBudget = true;
          return null;
        }
        const at = 3 * pc;
        const op = code[at];
        if (op === Op.Char || op === Op.Set) {
          if (pos >= n) break;
          let c = text.charCodeAt(pos);
          let w = 1;
          if (c >= 0xd800 && c <= 0xdbff && pos + 1 < n) {
            const d = text.charCodeAt(pos + 1);
            if (d >= 0xdc00 && d <= 0xdfff) {
              c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
              w = 2;
            }
          }
          if (op === Op.Char) {
            if (c !== code[at + 1]) break;
          } else if (c < 128) {
            if ((ascii[4 * code[at + 1] + (c >> 5)] & (1 << (c & 31))) === 0) break;
          } else if (!sets[code[at + 1]].has(c)) break;
          pos += w;
          pc++;
        } else if (op === Op.Split) {
          if (sp + 2 > stack.length) growStack(sp + 2);
          stack[sp++] = code[at + 2];
          stack[sp++] = pos;
          pc = code[at + 1];
        } else if (op === Op.Jmp) {
          pc = code[at + 1];
        } else if (op === Op.Save) {
          if (caps) {
            const s = code[at + 1];
            if (sp + 2 > stack.length) growStack(sp + 2);
            stack[sp++] = -1 - s;
            stack[sp++] = slots[s];
            slots[s] = pos;
          }
          pc++;
        } else if (op === Op.Reset) {
          if (caps) {
            for (let s = code[at + 1], e = code[at + 2]; s < e; s++) {
              if (slots[s] === -1) continue;
              if (sp + 2 > stack.length) growStack(sp + 2);
              stack[sp++] = -1 - s;
              stack[sp++] = slots[s];
              slots[s] = -1;
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
          return slots;
        }
      }
    }
    if (opts.anchored) break;
    // Advance one code point.
    const c = text.charCodeAt(start);
    start += c >= 0xd800 && c <= 0xdbff && start + 1 < n &&
        text.charCodeAt(start + 1) >= 0xdc00 && text.charCodeAt(start + 1) <= 0xdfff
      ? 2
      : 1;
  }
  stats.steps = steps;
  return null;
}
