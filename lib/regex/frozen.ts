/**
 * A compiled pattern as plain JSON data, and back. The shipped profiles are compiled once, when
 * profiles/compiled.json is generated (tools/gen_profiles.ts), down to what the matcher runs: its
 * program, its prefilter and its start conditions (match.ts `MatcherParts`). At start-up drover
 * only thaws them: no regex parser, no safety analysis, no program built, no tree analysed. A
 * pattern from a user's configuration is still compiled and checked in full (compile.ts).
 *
 * If the engine's program or prefilter gains a field, add it here: the generated-file test
 * (tests/unit/profiles_compiled_test.ts) fails until the frozen form round-trips again.
 */
import type { CompiledPattern } from "./compile.ts";
import { CharSet } from "./charset.ts";
import type { Tree } from "./ir.ts";
import { Matcher, type MatcherParts, matcherParts } from "./match.ts";
import type { PrefilterSpec } from "./prefilter.ts";
import type { Program } from "./program.ts";

/** A prefilter as JSON: `before` is -1 when unbounded. */
export type FrozenPrefilter =
  | { words: string[]; before: number }
  | { regex: string; before: number };

/** What the matcher runs, as JSON. */
export interface FrozenProgram {
  /** The instructions, three numbers each ([op, a, b], program.ts). */
  code: number[];
  /** The program's character sets, as their normalised ranges. */
  sets: number[][];
  slots: number;
  prefilter: FrozenPrefilter | null;
  anchored: boolean;
  /** Ranges of the characters a match can start with; null when a match may be empty. */
  first: number[] | null;
}

export interface FrozenPattern {
  source: string;
  jsSource: string;
  ignoreCase: boolean;
  ere: string;
  ereAlternatives: string[];
  groups: number;
  /** Named groups → index (only when the pattern names any). */
  names?: Record<string, number>;
  program: FrozenProgram;
}

function freezeParts(m: MatcherParts): FrozenProgram {
  const pre = m.prefilter;
  const before = (b: number) => b === Infinity ? -1 : b;
  return {
    code: [...m.program.code],
    sets: m.program.sets.map((s) => [...s.ranges]),
    slots: m.program.slots,
    prefilter: pre === null
      ? null
      : "words" in pre
      ? { words: [...pre.words], before: before(pre.before) }
      : { regex: pre.regex, before: before(pre.before) },
    anchored: m.anchored,
    first: m.first === null ? null : [...m.first.ranges],
  };
}

function thawParts(f: FrozenProgram): MatcherParts {
  const sets = f.sets.map((r) => CharSet.fromRanges(r));
  const ascii = new Uint32Array(4 * sets.length);
  sets.forEach((s, k) => ascii.set(s.ascii, 4 * k));
  const program: Program = {
    code: Int32Array.from(f.code),
    length: f.code.length / 3,
    sets,
    ascii,
    slots: f.slots,
  };
  const before = (b: number) => b === -1 ? Infinity : b;
  const pre = f.prefilter;
  const prefilter: PrefilterSpec | null = pre === null
    ? null
    : "words" in pre
    ? { words: pre.words, before: before(pre.before) }
    : { regex: pre.regex, before: before(pre.before) };
  return {
    program,
    prefilter,
    anchored: f.anchored,
    first: f.first === null ? null : CharSet.fromRanges(f.first),
  };
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
    program: freezeParts(matcherParts(tree)),
  };
}

/**
 * The pattern back, its matcher built on first use: `__prompt-profile` reads only the EREs, and a
 * detector builds only the matchers it runs.
 */
export function thawPattern(f: FrozenPattern): CompiledPattern {
  let matcher: Matcher | undefined;
  return {
    source: f.source,
    jsSource: f.jsSource,
    ignoreCase: f.ignoreCase,
    get matcher(): Matcher {
      matcher ??= new Matcher(
        { groups: f.groups, names: new Map(Object.entries(f.names ?? {})) },
        f.source,
        thawParts(f.program),
      );
      return matcher;
    },
    ere: f.ere,
    ereAlternatives: f.ereAlternatives,
  };
}
