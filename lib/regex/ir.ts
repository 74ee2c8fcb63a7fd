/**
 * The one form a pattern takes after parsing: a small tree of code-point sets, concatenation,
 * alternation, repetition, capture groups and the two anchors. Case folding, `.`, classes and
 * `\d \w \s` are resolved into sets here, so the safety rules (safety.ts), the matcher
 * (program.ts, vm.ts) and its prefilter all read the same tree and no flag survives into matching.
 *
 * The sets follow what the pattern meant before this engine existed (the flag-free JavaScript it
 * was compiled to): `(?i)` folds a character to itself plus its single-code-point lower and upper
 * case; `\d`, `\w` are ASCII; `\s` is JavaScript's; `.` excludes the JavaScript line terminators
 * unless the pattern starts with `(?s)`. Everything is matched a whole code point at a time.
 */
import type { AST } from "../deps/regexpp.ts";
import { addRangeCase, caseVariants } from "./case.ts";
import { ANY, CharSet, DIGIT, DOT, isSurrogate, SPACE, WORD } from "./charset.ts";
import { PatternError } from "./error.ts";

export type Node =
  | { readonly kind: "set"; readonly set: CharSet }
  | { readonly kind: "cat"; readonly items: readonly Node[] }
  | { readonly kind: "alt"; readonly items: readonly Node[] }
  | {
    readonly kind: "rep";
    readonly min: number;
    /** Infinity for `*`, `+`, `{n,}`. */
    readonly max: number;
    readonly greedy: boolean;
    readonly body: Node;
  }
  /** Capture group `index` (1-based, numbered by its opening parenthesis, as in JS and Rust). */
  | { readonly kind: "group"; readonly index: number; readonly body: Node }
  | { readonly kind: "bol" }
  | { readonly kind: "eol" };

export interface Tree {
  readonly root: Node;
  /** Number of capture groups. */
  readonly groups: number;
  /** Named groups (`(?P<name>…)`, `(?<name>…)`) → their index; each name once, as in Rust. */
  readonly names: ReadonlyMap<string, number>;
}

export const EMPTY: Node = { kind: "cat", items: [] };

function noSurrogate(cp: number): void {
  if (isSurrogate(cp)) {
    throw new PatternError(
      `lone surrogate U+${cp.toString(16).toUpperCase()} (not a character; Rust regex rejects it)`,
    );
  }
}

function escapeSet(kind: string, negate: boolean): CharSet {
  const base = kind === "digit" ? DIGIT : kind === "space" ? SPACE : kind === "word" ? WORD : null;
  if (!base) throw new PatternError("Unicode property classes (\\p{…}) have no POSIX ERE form");
  return negate ? base.negate() : base;
}

function classSet(node: AST.CharacterClass, i: boolean): CharSet {
  if (node.unicodeSets) throw new PatternError("set-notation classes have no ERE form");
  const pairs: Array<[number, number]> = [];
  for (const e of node.elements) {
    if (e.type === "Character") {
      noSurrogate(e.value);
      if (node.negate && e.value > 0xffff) {
        throw new PatternError("a negated class with characters beyond U+FFFF");
      }
      for (const v of i ? caseVariants(e.value) : [e.value]) {
        if (node.negate && v > 0xffff) {
          throw new PatternError("a negated class with characters beyond U+FFFF");
        }
        pairs.push([v, v]);
      }
    } else if (e.type === "CharacterClassRange") {
      const lo = e.min.value, hi = e.max.value;
      noSurrogate(lo);
      noSurrogate(hi);
      if (hi > 0xffff) throw new PatternError("a class range beyond U+FFFF is not supported");
      const rs: Array<[number, number]> = [];
      addRangeCase(lo, hi, rs, i);
      pairs.push(...rs);
    } else if (e.type === "CharacterSet") {
      pairs.push(...escapeSet(e.kind, e.negate ?? false).pairs());
    } else {
      throw new PatternError("this character-class construct is not supported");
    }
  }
  const set = CharSet.of(pairs);
  if (set.isEmpty() && !node.negate) {
    throw new PatternError("an empty character class matches nothing");
  }
  return node.negate ? set.negate() : set;
}

function charNode(cp: number, i: boolean): Node {
  noSurrogate(cp);
  const vs = i ? caseVariants(cp) : [cp];
  return { kind: "set", set: CharSet.of(vs.map((v) => [v, v] as [number, number])) };
}

function seq(items: Node[]): Node {
  return items.length === 1 ? items[0] : { kind: "cat", items };
}

function alts(items: Node[]): Node {
  return items.length === 1 ? items[0] : { kind: "alt", items };
}

/** Where each node came from: [start, end) in the parsed (JS) source. */
export type Spans = WeakMap<Node, readonly [number, number]>;

/**
 * Convert a parsed (JS `u`-mode) pattern into the tree. `dotAll` comes from a leading `(?s)`.
 * `spans`, when given, records the source range of every node (for error messages).
 */
export function fromAst(
  ast: AST.Pattern,
  ignoreCase: boolean,
  dotAll: boolean,
  spans?: Spans,
): Tree {
  let groups = 0;
  const names = new Map<string, number>();
  const walk = (node: AST.Node, i: boolean): Node => {
    const n = convert(node, i);
    if (spans && !spans.has(n)) spans.set(n, [node.start, node.end]);
    return n;
  };
  const convert = (node: AST.Node, i: boolean): Node => {
    switch (node.type) {
      case "Alternative":
        return seq(node.elements.map((e) => walk(e, i)));
      case "Group": {
        let inner = i;
        if (node.modifiers?.add.ignoreCase) inner = true;
        if (node.modifiers?.remove?.ignoreCase) inner = false;
        return alts(node.alternatives.map((a) => walk(a, inner)));
      }
      case "CapturingGroup": {
        const index = ++groups;
        if (node.name) {
          // JavaScript allows a name twice in different alternatives; Rust regex never does.
          if (names.has(node.name)) {
            throw new PatternError(`duplicate capture group name "${node.name}"`);
          }
          names.set(node.name, index);
        }
        const body = alts(node.alternatives.map((a) => walk(a, i)));
        if (spans && !spans.has(body)) spans.set(body, [node.start, node.end]);
        return { kind: "group", index, body };
      }
      case "Quantifier":
        return {
          kind: "rep",
          min: node.min,
          max: node.max,
          greedy: node.greedy,
          body: walk(node.element, i),
        };
      case "Character":
        return charNode(node.value, i);
      case "CharacterSet":
        if (node.kind === "any") return { kind: "set", set: dotAll ? ANY : DOT };
        return { kind: "set", set: escapeSet(node.kind, node.negate ?? false) };
      case "CharacterClass":
        return { kind: "set", set: classSet(node, i) };
      case "Assertion":
        if (node.kind === "start") return { kind: "bol" };
        if (node.kind === "end") return { kind: "eol" };
        if (node.kind === "word") {
          throw new PatternError("word-boundary assertions (\\b, \\B) have no POSIX ERE form");
        }
        throw new PatternError("look-around assertions are not supported (Rust regex has none)");
      case "Backreference":
        throw new PatternError(
          "back-references are not supported (patterns must run in linear time)",
        );
      default:
        throw new PatternError(`construct '${node.raw}' is not supported`);
    }
  };
  const root = alts(ast.alternatives.map((a) => walk(a, ignoreCase)));
  return { root, groups, names };
}

// ---------------------------------------------------------------------------------------------
// Facts about a tree, shared by the safety rules, the compiler and the prefilter.

/** Can the node match the empty string? (Anchors count as empty.) */
export function nullable(n: Node): boolean {
  switch (n.kind) {
    case "set":
      return false;
    case "cat":
      return n.items.every(nullable);
    case "alt":
      return n.items.some(nullable);
    case "rep":
      return n.min === 0 || nullable(n.body);
    case "group":
      return nullable(n.body);
    case "bol":
    case "eol":
      return true;
  }
}

/** Smallest and largest number of code points a match of the node spans (max may be Infinity). */
export function width(n: Node): { min: number; max: number } {
  switch (n.kind) {
    case "set":
      return { min: 1, max: 1 };
    case "cat": {
      let min = 0, max = 0;
      for (const it of n.items) {
        const w = width(it);
        min += w.min;
        max += w.max;
      }
      return { min, max };
    }
    case "alt": {
      let min = Infinity, max = 0;
      for (const it of n.items) {
        const w = width(it);
        min = Math.min(min, w.min);
        max = Math.max(max, w.max);
      }
      return { min: min === Infinity ? 0 : min, max };
    }
    case "rep": {
      if (n.max === 0) return { min: 0, max: 0 };
      const w = width(n.body);
      return { min: w.min * n.min, max: w.max === 0 ? 0 : w.max * n.max };
    }
    case "group":
      return width(n.body);
    case "bol":
    case "eol":
      return { min: 0, max: 0 };
  }
}

/** The capture groups inside a node, as [lowest, highest] index, or null when it has none. */
export function groupSpan(n: Node): [number, number] | null {
  let lo = Infinity, hi = -Infinity;
  const visit = (m: Node) => {
    if (m.kind === "group") {
      lo = Math.min(lo, m.index);
      hi = Math.max(hi, m.index);
    }
    if (m.kind === "cat" || m.kind === "alt") m.items.forEach(visit);
    else if (m.kind === "rep" || m.kind === "group") visit(m.body);
  };
  visit(n);
  return lo === Infinity ? null : [lo, hi];
}

/** Characters a non-empty match of the node can start with (null: none, the node is empty). */
export function firstSet(n: Node): CharSet | null {
  switch (n.kind) {
    case "set":
      return n.set;
    case "cat": {
      let acc: CharSet | null = null;
      for (const it of n.items) {
        const f = firstSet(it);
        if (f) acc = acc ? acc.union(f) : f;
        if (!nullable(it)) break;
      }
      return acc;
    }
    case "alt": {
      let acc: CharSet | null = null;
      for (const it of n.items) {
        const f = firstSet(it);
        if (f) acc = acc ? acc.union(f) : f;
      }
      return acc;
    }
    case "rep":
      return n.max === 0 ? null : firstSet(n.body);
    case "group":
      return firstSet(n.body);
    case "bol":
    case "eol":
      return null;
  }
}

/** Does every match start at the beginning of the line (each alternative begins with `^`)? */
export function anchoredStart(n: Node): boolean {
  switch (n.kind) {
    case "bol":
      return true;
    case "cat":
      for (const it of n.items) {
        if (anchoredStart(it)) return true;
        if (!(it.kind === "eol" || (it.kind === "rep" && it.max === 0))) return false;
      }
      return false;
    case "alt":
      return n.items.length > 0 && n.items.every(anchoredStart);
    case "group":
      return anchoredStart(n.body);
    case "rep":
      return n.min >= 1 && anchoredStart(n.body);
    default:
      return false;
  }
}
