/**
 * Test oracles for drover's matcher: the same parsed pattern emitted as JavaScript RegExp source
 * for V8 to run.
 *
 * - `flagFreeRegExp`: exactly what drover ran before it had its own matcher (flag-free source with
 *   case folded into classes, astral characters as surrogate pairs). The fixture-line × shipped-
 *   pattern test compares against it, so behaviour on real screens is unchanged.
 * - `codePointRegExp`: the same semantics in V8's `u` mode, where a surrogate pair is never split.
 *   This is the contract drover's matcher keeps on any input (the flag-free form could split a pair
 *   when it backtracked into `.` or `\S`); random patterns × random lines compare against it.
 *
 * Only for patterns and lines small enough that V8's backtracking finishes: the oracle is V8.
 */
import type { AST } from "../../lib/deps/regexpp.ts";
import { addRangeCase, caseVariants } from "../../lib/regex/case.ts";
import { parsePattern } from "../../lib/regex/compile.ts";

type Mode = "flagfree" | "u";

function u4(n: number): string {
  return "\\u" + n.toString(16).padStart(4, "0");
}

function ch(cp: number, mode: Mode): string {
  // Astral characters go in raw: V8 15.0 (Deno 2.9.6) misses /[\u{1f600}]$/u on "x😀" (an end-anchored
  // search with the escaped form) while /[😀]$/u matches.
  if (mode === "u") return cp > 0xffff ? String.fromCodePoint(cp) : `\\u{${cp.toString(16)}}`;
  if (cp <= 0xffff) return u4(cp);
  const h = Math.floor((cp - 0x10000) / 0x400) + 0xd800;
  const l = ((cp - 0x10000) % 0x400) + 0xdc00;
  return `(?:${u4(h)}${u4(l)})`;
}

const ASTRAL = "[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]";

function cls(
  negate: boolean,
  elements: readonly AST.CharacterClassElement[],
  i: boolean,
  mode: Mode,
): string {
  const parts: string[] = [];
  const astral: string[] = [];
  const addChar = (cp: number) => {
    for (const v of i ? caseVariants(cp) : [cp]) {
      if (v > 0xffff && mode === "flagfree") astral.push(ch(v, mode));
      else parts.push(mode === "u" ? ch(v, mode) : u4(v));
    }
  };
  for (const e of elements) {
    if (e.type === "Character") addChar(e.value);
    else if (e.type === "CharacterClassRange") {
      const rs: Array<[number, number]> = [];
      addRangeCase(e.min.value, e.max.value, rs, i);
      for (const [a, b] of rs) {
        parts.push(mode === "u" ? `${ch(a, mode)}-${ch(b, mode)}` : `${u4(a)}-${u4(b)}`);
      }
    } else if (e.type === "CharacterSet") {
      const letter = { digit: "d", space: "s", word: "w" }[e.kind as "digit" | "space" | "word"];
      parts.push("\\" + (e.negate ? letter.toUpperCase() : letter));
    } else throw new Error("unsupported class element");
  }
  if (negate) return mode === "u" ? `[^${parts.join("")}]` : `(?:${ASTRAL}|[^${parts.join("")}])`;
  const alts = [...(parts.length > 0 ? [`[${parts.join("")}]`] : []), ...astral];
  return alts.length === 1 ? alts[0] : `(?:${alts.join("|")})`;
}

function node(n: AST.Node, i: boolean, mode: Mode): string {
  switch (n.type) {
    case "Alternative":
      return n.elements.map((e) => node(e, i, mode)).join("");
    case "Group": {
      let inner = i;
      if (n.modifiers?.add.ignoreCase) inner = true;
      if (n.modifiers?.remove?.ignoreCase) inner = false;
      return "(?:" + n.alternatives.map((a) => node(a, inner, mode)).join("|") + ")";
    }
    case "CapturingGroup":
      return "(" + n.alternatives.map((a) => node(a, i, mode)).join("|") + ")";
    case "Quantifier": {
      const { min, max } = n;
      const q = max === Infinity
        ? (min === 0 ? "*" : min === 1 ? "+" : `{${min},}`)
        : (min === 0 && max === 1 ? "?" : min === max ? `{${min}}` : `{${min},${max}}`);
      return `(?:${node(n.element, i, mode)})${q}${n.greedy ? "" : "?"}`;
    }
    case "Character":
      if (i) {
        const vs = caseVariants(n.value);
        if (vs.length > 1) {
          return cls(
            false,
            vs.map((v) => ({ type: "Character", value: v }) as AST.Character),
            false,
            mode,
          );
        }
      }
      return ch(n.value, mode);
    case "CharacterSet":
      if (n.kind === "any") return mode === "u" ? "." : `(?:${ASTRAL}|.)`;
      // Bare, not "[\W]": V8 15.0 (Deno 2.9.6) misses astral characters with /[\W]$/u in an unanchored
      // search (/[\W]$/u.exec("😀") is null while /\W$/u matches).
      if (mode === "u") {
        const letter = { digit: "d", space: "s", word: "w" }[n.kind as "digit" | "space" | "word"];
        return "\\" + (n.negate ? letter.toUpperCase() : letter);
      }
      return cls(false, [n as AST.EscapeCharacterSet], false, mode);
    case "CharacterClass":
      return cls(n.negate, n.elements as AST.CharacterClassElement[], i, mode);
    case "Assertion":
      if (n.kind === "start") return "^";
      if (n.kind === "end") return "$";
      throw new Error("unsupported assertion");
    default:
      throw new Error(`unsupported node ${n.type}`);
  }
}

function emit(source: string, mode: Mode): RegExp {
  const p = parsePattern(source);
  const src = p.ast.alternatives.map((a) => node(a, p.ignoreCase, mode)).join("|");
  return new RegExp(src, (p.dotAll ? "s" : "") + (mode === "u" ? "u" : ""));
}

/** What drover ran before its own matcher: flag-free V8 source. */
export function flagFreeRegExp(source: string): RegExp {
  return emit(source, "flagfree");
}

/** The same semantics with whole code points (V8 `u` mode). */
export function codePointRegExp(source: string): RegExp {
  return emit(source, "u");
}
