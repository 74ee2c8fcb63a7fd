/**
 * A tree compiled into a flat program for the bounded backtracker (vm.ts). Instructions are three
 * Int32s: [op, a, b]. Alternatives and repetitions become SPLITs whose first target is the
 * preferred path (greedy: the body; lazy: the exit), which is what gives JavaScript's
 * leftmost-first match and its capture groups. Counted repetitions are expanded, so the program
 * size is capped: a pattern that would expand past MAX_PROGRAM fails to compile.
 */
import { CharSet } from "./charset.ts";
import { PatternError } from "./error.ts";
import { groupSpan, type Node, type Tree } from "./ir.ts";

export const enum Op {
  /** Match code point `a` exactly. */
  Char = 0,
  /** Match a code point in sets[a]. */
  Set = 1,
  /** Continue at `a`; on failure try `b`. */
  Split = 2,
  Jmp = 3,
  /** slots[a] = position. */
  Save = 4,
  /** slots[a .. b) = unset (JS clears a repeated group's captures at each iteration). */
  Reset = 5,
  Bol = 6,
  Eol = 7,
  Match = 8,
}

/** Largest program (instructions) a pattern may compile to. */
export const MAX_PROGRAM = 10_000;

export interface Program {
  readonly code: Int32Array;
  /** Number of instructions. */
  readonly length: number;
  readonly sets: readonly CharSet[];
  /** The sets' ASCII bitmaps side by side (4 words per set), so the common case is one load. */
  readonly ascii: Uint32Array;
  /** 2 × (groups + 1): start/end of the whole match, then of each group. */
  readonly slots: number;
}

class Emitter {
  code: number[] = [];
  sets: CharSet[] = [];
  #setIndex = new Map<CharSet, number>();

  get pc(): number {
    return this.code.length / 3;
  }

  emit(op: Op, a = 0, b = 0): number {
    const at = this.pc;
    if (at >= MAX_PROGRAM) {
      throw new PatternError(
        `too large: it compiles to more than ${MAX_PROGRAM} steps (smaller repetition counts)`,
      );
    }
    this.code.push(op, a, b);
    return at;
  }

  patch(at: number, a: number, b: number): void {
    this.code[3 * at + 1] = a;
    this.code[3 * at + 2] = b;
  }

  set(s: CharSet): number {
    let k = this.#setIndex.get(s);
    if (k === undefined) {
      k = this.sets.length;
      this.sets.push(s);
      this.#setIndex.set(s, k);
    }
    return k;
  }
}

function emitNode(e: Emitter, n: Node): void {
  switch (n.kind) {
    case "set": {
      const one = n.set.singleton();
      if (one >= 0) e.emit(Op.Char, one);
      else e.emit(Op.Set, e.set(n.set));
      return;
    }
    case "cat":
      for (const it of n.items) emitNode(e, it);
      return;
    case "alt": {
      const jumps: number[] = [];
      for (let k = 0; k < n.items.length; k++) {
        if (k < n.items.length - 1) {
          const split = e.emit(Op.Split);
          emitNode(e, n.items[k]);
          jumps.push(e.emit(Op.Jmp));
          e.patch(split, split + 1, e.pc);
        } else emitNode(e, n.items[k]);
      }
      for (const j of jumps) e.patch(j, e.pc, 0);
      return;
    }
    case "group":
      e.emit(Op.Save, 2 * n.index);
      emitNode(e, n.body);
      e.emit(Op.Save, 2 * n.index + 1);
      return;
    case "bol":
      e.emit(Op.Bol);
      return;
    case "eol":
      e.emit(Op.Eol);
      return;
    case "rep": {
      const span = groupSpan(n.body);
      const iteration = () => {
        if (span) e.emit(Op.Reset, 2 * span[0], 2 * span[1] + 2);
        emitNode(e, n.body);
      };
      for (let k = 0; k < n.min; k++) iteration();
      if (n.max === Infinity) {
        const loop = e.emit(Op.Split);
        iteration();
        e.emit(Op.Jmp, loop);
        const exit = e.pc;
        e.patch(loop, n.greedy ? loop + 1 : exit, n.greedy ? exit : loop + 1);
      } else {
        const splits: number[] = [];
        for (let k = n.min; k < n.max; k++) {
          splits.push(e.emit(Op.Split));
          iteration();
        }
        const exit = e.pc;
        for (const s of splits) e.patch(s, n.greedy ? s + 1 : exit, n.greedy ? exit : s + 1);
      }
      return;
    }
  }
}

export function compileProgram(tree: Tree): Program {
  const e = new Emitter();
  e.emit(Op.Save, 0);
  emitNode(e, tree.root);
  e.emit(Op.Save, 1);
  e.emit(Op.Match);
  const ascii = new Uint32Array(4 * e.sets.length);
  e.sets.forEach((s, k) => ascii.set(s.ascii, 4 * k));
  return {
    code: Int32Array.from(e.code),
    length: e.pc,
    sets: e.sets,
    ascii,
    slots: 2 * (tree.groups + 1),
  };
}
