/**
 * What a line must contain before the matcher runs on it. Detectors run every pattern on nearly
 * every line of every pane, and almost none of those lines match; a required piece of text found
 * (or not) with indexOf settles most of them without starting the matcher at all.
 *
 * From the tree: a set of alternatives ("factors"), one of which every match contains, each a short
 * sequence of small character sets (a case-folded letter is a set of two). With only one-member
 * sets the search is String#indexOf; otherwise it is a RegExp with no repetition at all, which V8
 * runs in time proportional to line length × factor length. A factor at a bounded distance from the
 * start of every match also tells the matcher where it can begin looking.
 */
import { CharSet } from "./charset.ts";
import { type Node, width } from "./ir.ts";

/** Largest set a factor position may be (a case-folded letter is 2, `[.)]` is 2). */
const SMALL_SET = 4;
/** Most alternatives a requirement may have. */
const MAX_ALTS = 16;
/** Longest factor kept (longer ones are cut: the prefix is still required). */
const MAX_FACTOR = 32;

type Factor = CharSet[];

interface Req {
  alts: Factor[];
  /** Most code points between the start of the node's match and the factor (Infinity: unknown). */
  before: number;
}

interface Info {
  /** The node matches exactly one of these (finite, small); null when it is not that simple. */
  exact: Factor[] | null;
  /** Something every match contains; null when nothing useful is known. */
  req: Req | null;
}

function score(r: Req | null): number {
  if (!r || r.alts.length === 0) return 0;
  let min = Infinity;
  for (const f of r.alts) min = Math.min(min, f.length);
  // Longer factors filter better; each extra alternative costs a little.
  return min === Infinity ? 0 : min * 4 - r.alts.length;
}

function better(a: Req | null, b: Req | null): Req | null {
  return score(b) > score(a) ? b : a;
}

function product(a: Factor[], b: Factor[]): Factor[] | null {
  if (a.length * b.length > MAX_ALTS) return null;
  const out: Factor[] = [];
  for (const x of a) {
    for (const y of b) {
      const f = [...x, ...y];
      if (f.length > MAX_FACTOR) return null;
      out.push(f);
    }
  }
  return out;
}

function asReq(exact: Factor[] | null, before = 0): Req | null {
  if (!exact || exact.some((f) => f.length === 0)) return null;
  return { alts: exact, before };
}

function info(n: Node): Info {
  switch (n.kind) {
    case "set":
      return { exact: n.set.size() <= SMALL_SET ? [[n.set]] : null, req: null };
    case "bol":
    case "eol":
      return { exact: [[]], req: null };
    case "group":
      return info(n.body);
    case "alt": {
      const parts = n.items.map(info);
      let exact: Factor[] | null = [];
      for (const p of parts) {
        if (!p.exact || exact === null || exact.length + p.exact.length > MAX_ALTS) exact = null;
        else exact.push(...p.exact);
      }
      let req: Req | null = { alts: [], before: 0 };
      for (const p of parts) {
        const r = better(p.req, asReq(p.exact));
        if (!r || req === null || req.alts.length + r.alts.length > MAX_ALTS) {
          req = null;
          break;
        }
        req.alts.push(...r.alts);
        req.before = Math.max(req.before, r.before);
      }
      return { exact, req };
    }
    case "rep": {
      if (n.min === 0) return { exact: n.max === 0 ? [[]] : null, req: null };
      const body = info(n.body);
      let exact: Factor[] | null = null;
      if (n.min === n.max && body.exact) {
        exact = [[]];
        for (let k = 0; k < n.min && exact; k++) exact = product(exact, body.exact);
      }
      const req = better(body.req, asReq(body.exact));
      return { exact, req: better(req, asReq(exact)) };
    }
    case "cat": {
      const parts = n.items.map(info);
      let best: Req | null = null;
      let offset = 0; // most code points before items[k]
      let run: Factor[] | null = null; // exact product of the current run of exact items
      let runStart = 0;
      let all: Factor[] | null = [[]];
      for (let k = 0; k < parts.length; k++) {
        const p = parts[k];
        if (p.req) {
          best = better(best, { alts: p.req.alts, before: offset + p.req.before });
        }
        if (p.exact) {
          const next: Factor[] | null = run ? product(run, p.exact) : p.exact;
          if (next) {
            if (!run) runStart = offset;
            run = next;
          } else {
            run = p.exact;
            runStart = offset;
          }
          best = better(best, asReq(run, runStart));
        } else run = null;
        all = all && p.exact ? product(all, p.exact) : null;
        offset += width(n.items[k]).max;
      }
      return { exact: all, req: best };
    }
  }
}

export interface Prefilter {
  /** UTF-16 index of the first occurrence of a required factor, or -1 (then nothing matches). */
  find(line: string): number;
  /** Most UTF-16 units between a match's start and that occurrence (Infinity: unknown). */
  readonly before: number;
}

function setSource(s: CharSet): string {
  // Astral characters raw: V8 15.0 mishandles some escaped astral classes (see regex_oracle.ts).
  const cp = (c: number) => c > 0xffff ? String.fromCodePoint(c) : `\\u{${c.toString(16)}}`;
  const one = s.singleton();
  if (one >= 0) return cp(one);
  return "[" + s.members().map(cp).join("") + "]";
}

/**
 * A prefilter as plain data (what profiles/compiled.json stores, see frozen.ts): literal words
 * searched with indexOf, or the source of a RegExp with no repetition (run with the `u` flag).
 */
export type PrefilterSpec =
  | { readonly words: readonly string[]; readonly before: number }
  | { readonly regex: string; readonly before: number };

/** The requirement of a tree as data, or null when none is worth checking. */
export function prefilterSpecOf(root: Node): PrefilterSpec | null {
  const top = info(root);
  const r = better(top.req, asReq(top.exact));
  if (!r || score(r) <= 0) return null;
  const before = r.before === Infinity ? Infinity : 2 * r.before;
  const literal = r.alts.every((f) => f.every((s) => s.singleton() >= 0));
  if (literal) {
    const words = [
      ...new Set(r.alts.map((f) => String.fromCodePoint(...f.map((s) => s.singleton())))),
    ];
    return { words, before };
  }
  // No repetition anywhere in this RegExp: its cost is bounded by line length × factor length.
  return { regex: r.alts.map((f) => f.map(setSource).join("")).join("|"), before };
}

/** The search a spec describes. */
export function prefilterFrom(spec: PrefilterSpec): Prefilter {
  const before = spec.before;
  if ("words" in spec) {
    const words = [...spec.words];
    if (words.length === 1) {
      const w = words[0];
      return { find: (line) => line.indexOf(w), before };
    }
    return {
      find(line) {
        let at = -1;
        for (const w of words) {
          const k = line.indexOf(w);
          if (k >= 0 && (at < 0 || k < at)) at = k;
        }
        return at;
      },
      before,
    };
  }
  const re = new RegExp(spec.regex, "u");
  return {
    find(line) {
      const m = re.exec(line);
      return m ? m.index : -1;
    },
    before,
  };
}

/** The requirement of a tree, or null when none is worth checking. */
export function prefilterOf(root: Node): Prefilter | null {
  const spec = prefilterSpecOf(root);
  return spec ? prefilterFrom(spec) : null;
}
