/**
 * Matching that cannot be stalled. Every profile pattern runs on drover's own matcher (vm.ts):
 * linear in line length × pattern size, with a hard step budget per line, and the results
 * JavaScript's RegExp#exec would give (first match, leftmost; greedy and lazy; capture groups
 * numbered by their opening parenthesis; a repeated group's captures cleared at each iteration).
 * A required-text prefilter and first-character skipping keep the common no-match case cheap.
 */
import { anchoredStart, firstSet, nullable, type Tree } from "./ir.ts";
import { type Prefilter, prefilterFrom, type PrefilterSpec, prefilterSpecOf } from "./prefilter.ts";
import { compileProgram, type Program } from "./program.ts";
import { MAX_STEPS, search, type SearchStats } from "./vm.ts";
import type { CharSet } from "./charset.ts";

/**
 * Lines longer than this are cut before a pattern runs on them. Terminal lines are at most a few
 * hundred columns; a joined (-J) line can be longer, but nothing a detector looks for sits past
 * the first 4096 characters of a line. The cut bounds the work of every pattern on every line.
 */
export const MAX_MATCH_LINE = 4096;

export { MAX_STEPS };

/**
 * Steps every pattern search inside one `withStepBudget` call may take together. The per-line
 * bound keeps one search short; this keeps a whole screen short when a hostile profile meets a
 * hostile screen (thousands of long lines that each come close to their own bound).
 */
let scopeLeft = Infinity;

/** Run `f` with a shared step budget for all its searches; past it they count as no match. */
export function withStepBudget<T>(steps: number, f: () => T): T {
  const saved = scopeLeft;
  scopeLeft = steps;
  try {
    return f();
  } finally {
    scopeLeft = saved;
  }
}

export function boundLine(line: string): string {
  return line.length > MAX_MATCH_LINE ? line.slice(0, MAX_MATCH_LINE) : line;
}

/** A match in RegExp#exec's shape: [whole, group 1, …] plus the start index. */
export interface RegexMatch extends Array<string | undefined> {
  /** The whole match. */
  0: string;
  index: number;
  input: string;
  /** Named groups by name (present only when the pattern names any), like RegExp#exec. */
  groups?: Record<string, string | undefined>;
}

/**
 * Everything a matcher runs, derived from its tree: what a frozen pattern stores (frozen.ts), so a
 * start builds no program and analyses no tree.
 */
export interface MatcherParts {
  readonly program: Program;
  readonly prefilter: PrefilterSpec | null;
  /** Every match starts at the start of the line. */
  readonly anchored: boolean;
  /** The characters a match can start with (null: it may be empty). */
  readonly first: CharSet | null;
}

export function matcherParts(tree: Tree): MatcherParts {
  return {
    program: compileProgram(tree),
    prefilter: prefilterSpecOf(tree.root),
    anchored: anchoredStart(tree.root),
    first: nullable(tree.root) ? null : firstSet(tree.root),
  };
}

/** A tree's groups without the tree (a frozen pattern keeps only these and its parts). */
export type TreeShape = Pick<Tree, "groups" | "names">;

export class Matcher {
  /** The pattern as written. */
  readonly source: string;
  /** Number of capture groups. */
  readonly groups: number;
  /** Named groups → index. */
  readonly names: ReadonlyMap<string, number>;
  /** Searches the step budget stopped (counted as no match). */
  overBudget = 0;
  /** Steps the last search took (for tests and reports). */
  lastSteps = 0;
  readonly #prog: Program;
  readonly #pre: Prefilter | null;
  readonly #anchored: boolean;
  readonly #first: CharSet | null;
  readonly #stats: SearchStats = { steps: 0, overBudget: false };
  readonly #slots: Int32Array;

  constructor(tree: Tree, source: string);
  constructor(shape: TreeShape, source: string, parts: MatcherParts);
  constructor(tree: TreeShape, source: string, parts?: MatcherParts) {
    const built = parts ?? matcherParts(tree as Tree);
    this.source = source;
    this.groups = tree.groups;
    this.names = tree.names;
    this.#prog = built.program;
    this.#slots = new Int32Array(this.#prog.slots);
    this.#pre = built.prefilter ? prefilterFrom(built.prefilter) : null;
    this.#anchored = built.anchored;
    this.#first = built.first;
  }

  /** Program size in instructions. */
  get size(): number {
    return this.#prog.length;
  }

  #run(line: string, captures: boolean): Int32Array | null {
    let from = 0;
    this.lastSteps = 0;
    if (this.#pre) {
      const hit = this.#pre.find(line);
      if (hit < 0) return null;
      if (!this.#anchored && Number.isFinite(this.#pre.before)) {
        from = Math.max(0, hit - this.#pre.before);
        // Never start inside a surrogate pair.
        const c = line.charCodeAt(from);
        if (from > 0 && c >= 0xdc00 && c <= 0xdfff) {
          const h = line.charCodeAt(from - 1);
          if (h >= 0xd800 && h <= 0xdbff) from--;
        }
      }
    }
    const stats = this.#stats;
    stats.steps = 0;
    stats.overBudget = false;
    if (scopeLeft <= 0) {
      this.overBudget++;
      return null;
    }
    const budget = Math.min(MAX_STEPS, (line.length + 1) * this.#prog.length, scopeLeft);
    const slots = search(
      this.#prog,
      line,
      {
        from,
        anchored: this.#anchored,
        first: this.#first,
        captures,
        budget,
      },
      stats,
      this.#slots,
    );
    this.lastSteps = stats.steps;
    scopeLeft -= stats.steps;
    if (stats.overBudget) this.overBudget++;
    return slots;
  }

  /** RegExp#exec on the line (cut to MAX_MATCH_LINE). Never throws; over budget = no match. */
  exec(line: string): RegexMatch | null {
    const text = boundLine(line);
    let slots: Int32Array | null;
    try {
      slots = this.#run(text, true);
    } catch {
      return null;
    }
    if (!slots) return null;
    const out = new Array<string | undefined>(this.groups + 1) as RegexMatch;
    for (let g = 0; g <= this.groups; g++) {
      const a = slots[2 * g], b = slots[2 * g + 1];
      out[g] = a >= 0 && b >= 0 ? text.slice(a, b) : undefined;
    }
    out.index = slots[0];
    out.input = text;
    if (this.names.size > 0) {
      const named: Record<string, string | undefined> = {};
      for (const [name, g] of this.names) named[name] = out[g];
      out.groups = named;
    }
    return out;
  }

  /** Does the line (cut to MAX_MATCH_LINE) match? Never throws; over budget = false. */
  test(line: string): boolean {
    try {
      return this.#run(boundLine(line), false) !== null;
    } catch {
      return false;
    }
  }
}

/** `m.exec(line)`: the matcher never throws and never runs past its budget. */
export function execBounded(m: Matcher, line: string): RegexMatch | null {
  return m.exec(line);
}
