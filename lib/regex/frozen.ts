/**
 * A compiled pattern as plain JSON data, and back. The shipped profiles are compiled once, when
 * profiles/compiled.json is generated (tools/gen_profiles.ts); at start-up drover only thaws them:
 * no regex parser, no safety analysis, nothing but building each matcher from its tree. A pattern
 * from a user's configuration is still compiled and checked in full (compile.ts).
 *
 * If the engine's tree (ir.ts) gains a node kind, add it here: the generated-file test
 * (tests/unit/profiles_compiled_test.ts) fails until the frozen form round-trips again.
 */
import type { CompiledPattern } from "./compile.ts";
import { CharSet } from "./charset.ts";
import type { Node, Tree } from "./ir.ts";
import { Matcher } from "./match.ts";

/** A tree node as JSON: [kind, …fields]; `rep`'s unbounded max is -1. */
export type FrozenNode =
  | ["set", number[]]
  | ["cat" | "alt", FrozenNode[]]
  | ["rep", number, number, boolean, FrozenNode]
  | ["group", number, FrozenNode]
  | ["bol"]
  | ["eol"];

export interface FrozenPattern {
  source: string;
  jsSource: string;
  ignoreCase: boolean;
  ere: string;
  ereAlternatives: string[];
  groups: number;
  /** Named groups → index (only when the pattern names any). */
  names?: Record<string, number>;
  tree: FrozenNode;
}

function freezeNode(n: Node): FrozenNode {
  switch (n.kind) {
    case "set":
      return ["set", [...n.set.ranges]];
    case "cat":
    case "alt":
      return [n.kind, n.items.map(freezeNode)];
    case "rep":
      return ["rep", n.min, n.max === Infinity ? -1 : n.max, n.greedy, freezeNode(n.body)];
    case "group":
      return ["group", n.index, freezeNode(n.body)];
    case "bol":
    case "eol":
      return [n.kind];
  }
}

function thawNode(f: FrozenNode): Node {
  switch (f[0]) {
    case "set": {
      const pairs: [number, number][] = [];
      for (let i = 0; i < f[1].length; i += 2) pairs.push([f[1][i], f[1][i + 1]]);
      return { kind: "set", set: CharSet.of(pairs) };
    }
    case "cat":
    case "alt":
      return { kind: f[0], items: f[1].map(thawNode) };
    case "rep":
      return {
        kind: "rep",
        min: f[1],
        max: f[2] === -1 ? Infinity : f[2],
        greedy: f[3],
        body: thawNode(f[4]),
      };
    case "group":
      return { kind: "group", index: f[1], body: thawNode(f[2]) };
    case "bol":
    case "eol":
      return { kind: f[0] };
  }
}

/** `tree` is the one the pattern compiled to (parsePattern(source).tree). */
export function freezePattern(c: CompiledPattern, tree: Tree): FrozenPattern {
  return {
    source: c.source,
    jsSource: c.jsSource,
    ignoreCase: c.ignoreCase,
    ere: c.ere,
    ereAlternatives: [...c.ereAlternatives],
    groups: tree.groups,
    ...(tree.names.size > 0 ? { names: Object.fromEntries(tree.names) } : {}),
    tree: freezeNode(tree.root),
  };
}

export function thawPattern(f: FrozenPattern): CompiledPattern {
  return {
    source: f.source,
    jsSource: f.jsSource,
    ignoreCase: f.ignoreCase,
    matcher: new Matcher({
      root: thawNode(f.tree),
      groups: f.groups,
      names: new Map(Object.entries(f.names ?? {})),
    }, f.source),
    ere: f.ere,
    ereAlternatives: f.ereAlternatives,
  };
}
