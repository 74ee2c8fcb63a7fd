/**
 * The POSIX ERE export of a validated pattern (sweep.sh reads every profile field as one ERE) and
 * of literal marker lists. Anything without a portable ERE form is refused with a PatternError.
 */
import type { AST } from "../deps/regexpp.ts";
import { addRangeCase, caseVariants } from "./case.ts";
import { PatternError } from "./error.ts";

const ERE_META = new Set([..."\\.[]()*+?{}|^$"]);

function literal(cp: number): string {
  const ch = String.fromCodePoint(cp);
  if (cp < 0x20 || cp === 0x7f) {
    throw new PatternError(`control character U+${cp.toString(16)} has no portable ERE form`);
  }
  return ERE_META.has(ch) ? "\\" + ch : ch;
}

/** Widest non-ASCII range the ERE export spells out as single characters. */
const MAX_SPELLED_RANGE = 1024;

/** Build one ERE bracket expression from code points / ranges / POSIX classes. */
function bracket(
  negate: boolean,
  singles: number[],
  ranges: Array<[number, number]>,
  classes: string[],
): string {
  const set = new Set(singles);
  let close = false, dash = false, caret = false, open = false;
  const parts: string[] = [];
  for (const cp of set) {
    const ch = String.fromCodePoint(cp);
    if (cp < 0x20 || cp === 0x7f) {
      throw new PatternError(`control character U+${cp.toString(16)} has no portable ERE form`);
    }
    if (ch === "]") close = true;
    else if (ch === "-") dash = true;
    else if (ch === "^") caret = true;
    else if (ch === "[") open = true;
    else parts.push(ch);
  }
  for (const [lo, hi] of ranges) {
    const a = String.fromCodePoint(lo), b = String.fromCodePoint(hi);
    if (lo < 0x20 || "]-^[".includes(a) || "]-^[".includes(b)) {
      throw new PatternError(`range ${a}-${b} has no portable ERE form`);
    }
    if (hi <= 0x7f) {
      parts.push(`${a}-${b}`);
      continue;
    }
    // glibc's C.UTF-8 rejects ranges with non-ASCII ends ("Invalid collation character"), so
    // the non-ASCII part of a range is spelled out character by character.
    if (hi - Math.max(lo, 0x80) >= MAX_SPELLED_RANGE) {
      throw new PatternError(
        `range ${a}-${b} has no portable ERE form (non-ASCII ranges up to ${MAX_SPELLED_RANGE} characters are spelled out)`,
      );
    }
    // The ASCII part (up to "~"; DEL is a control character) stays a range.
    if (lo < 0x7e) parts.push(`${a}-~`);
    else if (lo === 0x7e) parts.push("~");
    for (let cp = Math.max(lo, 0x80); cp <= hi; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      parts.push(String.fromCodePoint(cp));
    }
  }
  let body = (close ? "]" : "") + parts.join("") + classes.join("") + (open ? "[" : "") +
    (caret ? "^" : "") + (dash ? "-" : "");
  if (body.startsWith("^")) body = body.slice(1) + "^";
  if (body === "^" && !negate) return "\\^";
  if (body === "") throw new PatternError("an empty character class has no ERE form");
  return "[" + (negate ? "^" : "") + body + "]";
}

type CaseState = { i: boolean };

function setToBracketParts(
  s: AST.EscapeCharacterSet,
  singles: number[],
  ranges: Array<[number, number]>,
  classes: string[],
): void {
  if (s.negate) {
    throw new PatternError(`a negated class escape (\\${s.kind[0].toUpperCase()}) inside [...]`);
  }
  if (s.kind === "digit") ranges.push([0x30, 0x39]);
  else if (s.kind === "word") {
    ranges.push([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]);
    singles.push(0x5f);
  } else if (s.kind === "space") classes.push("[:space:]");
}

function emitNode(node: AST.Node, cs: CaseState): string {
  switch (node.type) {
    case "Alternative":
      return node.elements.map((e) => emitNode(e, cs)).join("");
    case "Group": {
      const inner = { i: cs.i };
      if (node.modifiers) {
        if (node.modifiers.add.ignoreCase) inner.i = true;
        if (node.modifiers.remove?.ignoreCase) inner.i = false;
      }
      return "(" + node.alternatives.map((a) => emitNode(a, inner)).join("|") + ")";
    }
    case "CapturingGroup":
      return "(" + node.alternatives.map((a) => emitNode(a, cs)).join("|") + ")";
    case "Quantifier":
      return emitQuantifier(node, cs);
    case "Character": {
      if (cs.i) {
        const vs = caseVariants(node.value);
        if (vs.length > 1) return bracket(false, vs, [], []);
      }
      return literal(node.value);
    }
    case "CharacterSet":
      return emitCharacterSet(node);
    case "CharacterClass":
      return emitCharacterClass(node, cs);
    case "Assertion":
      return emitAssertion(node);
    case "Backreference":
      throw new PatternError(
        "back-references are not supported (patterns must run in linear time)",
      );
    default:
      throw new PatternError(`construct '${node.raw}' has no ERE form`);
  }
}

function emitQuantifier(node: AST.Quantifier, cs: CaseState): string {
  const el = node.element;
  if (el.type === "Assertion") throw new PatternError("a quantified assertion has no ERE form");
  const inner = emitNode(el, cs);
  const { min, max } = node;
  let q: string;
  if (min === 0 && max === Infinity) q = "*";
  else if (min === 1 && max === Infinity) q = "+";
  else if (min === 0 && max === 1) q = "?";
  else if (max === Infinity) q = `{${min},}`;
  else if (min === max) q = `{${min}}`;
  else q = `{${min},${max}}`;
  if (max !== Infinity && max > 255) {
    throw new PatternError("a repetition count above 255 has no portable ERE form");
  }
  return inner + q;
}

/** `.` and a class escape (`\d`, `\W` …) outside brackets. */
function emitCharacterSet(node: AST.CharacterSet): string {
  if (node.kind === "any") return ".";
  if (node.kind === "property") {
    throw new PatternError("Unicode property classes (\\p{…}) have no POSIX ERE form");
  }
  const singles: number[] = [], ranges: Array<[number, number]> = [], classes: string[] = [];
  setToBracketParts(
    { ...node, negate: false } as AST.EscapeCharacterSet,
    singles,
    ranges,
    classes,
  );
  return bracket(node.negate, singles, ranges, classes);
}

function emitCharacterClass(node: AST.CharacterClass, cs: CaseState): string {
  if (node.unicodeSets) throw new PatternError("set-notation classes have no ERE form");
  const singles: number[] = [], ranges: Array<[number, number]> = [], classes: string[] = [];
  for (const e of node.elements) {
    if (e.type === "Character") {
      if (cs.i) singles.push(...caseVariants(e.value));
      else singles.push(e.value);
    } else if (e.type === "CharacterClassRange") {
      addRangeCase(e.min.value, e.max.value, ranges, cs.i);
    } else if (e.type === "CharacterSet") {
      if (e.kind === "property") {
        throw new PatternError("Unicode property classes (\\p{…}) have no POSIX ERE form");
      }
      setToBracketParts(e as AST.EscapeCharacterSet, singles, ranges, classes);
    } else {
      throw new PatternError("this character-class construct has no ERE form");
    }
  }
  if (!node.negate && classes.length === 0 && ranges.length === 0) {
    const uniq = [...new Set(singles)];
    if (uniq.length === 1) return literal(uniq[0]);
  }
  return bracket(node.negate, singles, ranges, classes);
}

function emitAssertion(node: AST.Assertion): string {
  if (node.kind === "start") return "^";
  if (node.kind === "end") return "$";
  if (node.kind === "word") {
    throw new PatternError("word-boundary assertions (\\b, \\B) have no POSIX ERE form");
  }
  throw new PatternError("look-around assertions are not supported (Rust regex has none)");
}

export function toEre(ast: AST.Pattern, ignoreCase: boolean): string {
  const cs = { i: ignoreCase };
  const alts = ast.alternatives.map((a) => emitNode(a, cs));
  // bash [[ =~ ]] rejects an empty alternative ("a|"): spell it as an optional group.
  if (alts.some((a) => a === "")) {
    const nonEmpty = alts.filter((a) => a !== "");
    if (nonEmpty.length === 0) throw new PatternError("the pattern matches only the empty string");
    return "(" + nonEmpty.join("|") + ")?";
  }
  for (const a of alts) {
    if (a.includes("()")) throw new PatternError("an empty group has no portable ERE form");
  }
  return alts.join("|");
}

/** Each top-level alternative as ERE (for prefixing each with the decoration class). */
export function ereAlternatives(ast: AST.Pattern, ignoreCase: boolean): string[] {
  return ast.alternatives.map((a) => emitNode(a, { i: ignoreCase }));
}

/** Escape one literal string for ERE (used for marker lists). */
export function ereEscape(text: string): string {
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    out += literal(cp);
  }
  return out;
}

/** Marker list → ERE alternation of escaped literals (matched case-insensitively by consumers). */
export function markersToEre(markers: readonly string[]): string {
  return markers.map(ereEscape).join("|");
}
