/**
 * Profile patterns are written in Rust `regex`-crate syntax. This module checks a pattern against the
 * subset drover supports (linear-time constructs that also have a POSIX-ERE form for sweep.sh),
 * translates it into a JavaScript RegExp that V8's linear engine runs, and has ere.ts export it as ERE.
 *
 * Why a subset: a profile is configuration an agent's own worktree may influence, so it must not be
 * able to stall the supervisor (no back-references, no look-around), and sweep.sh must read the very
 * same pattern (so everything has to survive the ERE export). Semantics that differ between Rust and
 * JS are documented in docs/profiles.md (`\d`, `\w` are ASCII here).
 */
import { type AST, RegExpParser } from "../deps/regexpp.ts";
import { addRangeCase, caseVariants } from "./case.ts";
import { ereAlternatives, toEre } from "./ere.ts";
import { PatternError } from "./error.ts";

export interface CompiledPattern {
  /** The pattern exactly as written in the profile. */
  readonly source: string;
  /** JS (`u` mode) source after translating Rust syntax (validation form). */
  readonly jsSource: string;
  /** Whole-pattern case-insensitivity from a leading `(?i)`. */
  readonly ignoreCase: boolean;
  readonly regex: RegExp;
  /** POSIX ERE form with case-insensitivity folded in (`[aA]`), for sweep.sh. */
  readonly ere: string;
  /** The ERE's top-level alternatives (for prefixing each with the decoration class). */
  readonly ereAlternatives: readonly string[];
}

const PARSER = new RegExpParser({ ecmaVersion: 2025 });

/** Letters that may appear as `\X` escapes with the same meaning in Rust and JS-`u`. */
const KEEP_ESCAPES = new Set(["d", "D", "w", "W", "s", "S", "t", "n", "r", "f", "v", "b", "B"]);
/** Characters JS-`u` accepts as identity escapes outside a class. */
const JS_SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);

function hex2(c: string): string {
  return "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0");
}

/**
 * Strip leading Rust flag groups (`(?i)`, `(?ims)`, repeated) and return the JS flag letters.
 * Any other flag group position or letter is rejected.
 */
function splitFlags(src: string): { flags: Set<string>; body: string } {
  const flags = new Set<string>();
  let body = src;
  for (;;) {
    const m = /^\(\?([A-Za-z-]*)\)/.exec(body);
    if (!m) break;
    for (const f of m[1]) {
      if (f === "i" || f === "m" || f === "s") flags.add(f);
      else if (f === "-") {
        throw new PatternError("flag negation in a leading flag group is not supported");
      } else throw new PatternError(`unsupported flag '${f}' (only i, m and s are supported)`);
    }
    body = body.slice(m[0].length);
  }
  return { flags, body };
}

/** Translate Rust-regex syntax into JS (`u` mode) source, rejecting what has no linear/ERE form. */
function translate(body: string): string {
  let out = "";
  let inClass = 0;
  let classStart = false;
  const n = body.length;
  for (let i = 0; i < n; i++) {
    const c = body[i];
    if (c === "\\") {
      classStart = false;
      const d = body[i + 1];
      if (d === undefined) throw new PatternError("pattern ends with a lone backslash");
      i++;
      if (/[1-9]/.test(d) || d === "k") {
        throw new PatternError(
          "back-references are not supported (patterns must run in linear time)",
        );
      }
      if (d === "Q" || d === "E") throw new PatternError("\\Q…\\E quoting is not supported");
      if (d === "<" || d === ">") {
        throw new PatternError(`word-boundary assertion \\${d} is not supported`);
      }
      if (d === "A" || d === "z") {
        if (inClass) throw new PatternError(`\\${d} is not allowed inside a character class`);
        out += d === "A" ? "^" : "$";
        continue;
      }
      if (d === "b" && body[i + 1] === "{") {
        throw new PatternError("\\b{…} word-boundary assertions are not supported");
      }
      if (d === "x" && body[i + 1] === "{") {
        const end = body.indexOf("}", i + 2);
        if (end < 0) throw new PatternError("unterminated \\x{…} escape");
        out += "\\u{" + body.slice(i + 2, end) + "}";
        i = end;
        continue;
      }
      if (d === "U") {
        if (body[i + 1] === "{") {
          const end = body.indexOf("}", i + 2);
          if (end < 0) throw new PatternError("unterminated \\U{…} escape");
          out += "\\u{" + body.slice(i + 2, end) + "}";
          i = end;
        } else {
          out += "\\u{" + body.slice(i + 1, i + 9) + "}";
          i += 8;
        }
        continue;
      }
      if ((d === "p" || d === "P") && body[i + 1] !== "{") {
        const letter = body[i + 1];
        if (letter === undefined) throw new PatternError(`incomplete \\${d} escape`);
        out += `\\${d}{${letter}}`;
        i++;
        continue;
      }
      if (d === "a") {
        out += "\\x07";
        continue;
      }
      if (KEEP_ESCAPES.has(d) || d === "x" || d === "u" || d === "p" || d === "P" || d === "0") {
        out += "\\" + d;
        continue;
      }
      if (/[A-Za-z0-9]/.test(d)) throw new PatternError(`unknown escape \\${d}`);
      // Escaped punctuation: Rust allows escaping any of it; JS-u only its own syntax characters.
      if (inClass) out += d === "-" || d === "]" || d === "\\" || d === "^" ? "\\" + d : hex2(d);
      else out += JS_SYNTAX.has(d) ? "\\" + d : (d.charCodeAt(0) < 128 ? hex2(d) : d);
      classStart = false;
      continue;
    }
    if (inClass) {
      if (c === "[") {
        if (body[i + 1] === ":") {
          const end = body.indexOf(":]", i + 2);
          if (end < 0) throw new PatternError("unterminated [:class:] in a character class");
          out += posixClass(body.slice(i + 2, end));
          i = end + 1;
          classStart = false;
          continue;
        }
        throw new PatternError("nested character classes are not supported");
      }
      if ((c === "&" || c === "-" || c === "~") && body[i + 1] === c) {
        throw new PatternError(`character class set operation '${c}${c}' is not supported`);
      }
      if (c === "]" && classStart) {
        out += "\\]";
        classStart = false;
        continue;
      }
      if (c === "]") {
        inClass = 0;
        out += "]";
        continue;
      }
      classStart = false;
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = 1;
      classStart = true;
      out += "[";
      if (body[i + 1] === "^") {
        out += "^";
        i++;
      }
      continue;
    }
    if (c === "(" && body[i + 1] === "?") {
      const rest = body.slice(i + 2);
      if (
        rest.startsWith("=") || rest.startsWith("!") || rest.startsWith("<=") ||
        rest.startsWith("<!")
      ) {
        throw new PatternError("look-around assertions are not supported (Rust regex has none)");
      }
      if (rest.startsWith("P<")) {
        out += "(?<";
        i += 3;
        continue;
      }
      if (rest.startsWith("<") || rest.startsWith(":")) {
        out += "(?";
        i += 1;
        continue;
      }
      const m = /^([A-Za-z-]*)([:)])/.exec(rest);
      if (!m) throw new PatternError("unsupported group syntax '(?'");
      if (m[2] === ")") {
        throw new PatternError(
          "a flag group like (?i) is only supported at the start of a pattern",
        );
      }
      for (const f of m[1]) {
        if (f !== "i" && f !== "m" && f !== "s" && f !== "-") {
          throw new PatternError(`unsupported flag '${f}' in a scoped flag group`);
        }
      }
      out += "(?" + m[1] + ":";
      i += 1 + m[0].length;
      continue;
    }
    if (c === "{" && body[i + 1] === ",") {
      throw new PatternError("a repetition needs a lower bound ({0,n}, not {,n})");
    }
    out += c;
  }
  if (inClass) throw new PatternError("unterminated character class");
  return out;
}

function posixClass(name: string): string {
  const map: Record<string, string> = {
    alnum: "0-9A-Za-z",
    alpha: "A-Za-z",
    ascii: "\\x00-\\x7f",
    blank: "\\t ",
    cntrl: "\\x00-\\x1f\\x7f",
    digit: "0-9",
    graph: "!-~",
    lower: "a-z",
    print: " -~",
    punct: "!-\\/:-@\\[-`{-~",
    space: "\\t\\n\\v\\f\\r ",
    upper: "A-Z",
    word: "0-9A-Za-z_",
    xdigit: "0-9A-Fa-f",
  };
  const v = map[name];
  if (v === undefined) throw new PatternError(`unknown POSIX class [:${name}:]`);
  return v;
}

/** Parse + check + translate. Throws PatternError with a reason meant for a person. */
export function compilePattern(source: string): CompiledPattern {
  if (source.length === 0) throw new PatternError("empty pattern");
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(source)) {
    throw new PatternError("control characters (tab, newline …) are not allowed; write \\t or \\n");
  }
  const { flags, body } = splitFlags(source);
  if (body.length === 0) throw new PatternError("empty pattern after the flag group");
  const jsSource = translate(body);
  let ast: AST.Pattern;
  try {
    ast = PARSER.parsePattern(jsSource, 0, jsSource.length, { unicode: true });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new PatternError(`does not compile: ${msg.replace(/^Invalid regular expression: /, "")}`);
  }
  const ignoreCase = flags.has("i");
  const ere = toEre(ast, ignoreCase);
  const alternatives = ereAlternatives(ast, ignoreCase);
  // V8's linear fallback engine (--enable-experimental-regexp-engine-on-excessive-backtracks)
  // supports neither the `u` nor the `i` flag nor scoped modifiers: a pattern compiled with them
  // backtracks without a bound. So the validated AST is re-emitted as flag-free JS source with
  // case folded into classes and code points kept whole, which the fallback engine accepts.
  const linearSource = toLinearJs(ast, ignoreCase);
  let regex: RegExp;
  try {
    regex = new RegExp(linearSource, flags.has("s") ? "s" : "");
  } catch (e) {
    throw new PatternError(`does not compile: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { source, jsSource, ignoreCase, regex, ere, ereAlternatives: alternatives };
}

// ---------------------------------------------------------------------------------------------
// Flag-free JS emission (what actually runs, on V8's backtrack-bounded engine)

const ASTRAL = "[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]";

function u4(n: number): string {
  return "\\u" + n.toString(16).padStart(4, "0");
}

function jsChar(cp: number): string {
  if (cp <= 0xffff) return u4(cp);
  const h = Math.floor((cp - 0x10000) / 0x400) + 0xd800;
  const l = ((cp - 0x10000) % 0x400) + 0xdc00;
  return `(?:${u4(h)}${u4(l)})`;
}

function jsClass(
  negate: boolean,
  elements: readonly AST.CharacterClassElement[],
  i: boolean,
): string {
  const parts: string[] = [];
  const astral: string[] = [];
  const addChar = (cp: number) => {
    for (const v of i ? caseVariants(cp) : [cp]) {
      if (v > 0xffff) {
        if (negate) throw new PatternError("a negated class with characters beyond U+FFFF");
        astral.push(jsChar(v));
      } else parts.push(u4(v));
    }
  };
  for (const e of elements) {
    if (e.type === "Character") addChar(e.value);
    else if (e.type === "CharacterClassRange") {
      const { value: lo } = e.min, { value: hi } = e.max;
      if (hi > 0xffff) throw new PatternError("a class range beyond U+FFFF is not supported");
      const rs: Array<[number, number]> = [];
      addRangeCase(lo, hi, rs, i);
      for (const [a, b] of rs) parts.push(`${u4(a)}-${u4(b)}`);
    } else if (e.type === "CharacterSet") {
      if (e.kind === "property") {
        throw new PatternError("Unicode property classes (\\p{…}) have no POSIX ERE form");
      }
      const letter = { digit: "d", space: "s", word: "w" }[e.kind as "digit" | "space" | "word"];
      parts.push("\\" + (e.negate ? letter.toUpperCase() : letter));
    } else throw new PatternError("this character-class construct is not supported");
  }
  if (negate) return `(?:${ASTRAL}|[^${parts.join("")}])`;
  const cls = parts.length > 0 ? [`[${parts.join("")}]`] : [];
  const alts = [...cls, ...astral];
  if (alts.length === 0) throw new PatternError("an empty character class matches nothing");
  return alts.length === 1 ? alts[0] : `(?:${alts.join("|")})`;
}

function jsNode(node: AST.Node, i: boolean): string {
  switch (node.type) {
    case "Alternative":
      return node.elements.map((e) => jsNode(e, i)).join("");
    case "Group": {
      let inner = i;
      if (node.modifiers?.add.ignoreCase) inner = true;
      if (node.modifiers?.remove?.ignoreCase) inner = false;
      return "(?:" + node.alternatives.map((a) => jsNode(a, inner)).join("|") + ")";
    }
    case "CapturingGroup":
      return "(" + node.alternatives.map((a) => jsNode(a, i)).join("|") + ")";
    case "Quantifier": {
      const { min, max } = node;
      const q = max === Infinity
        ? (min === 0 ? "*" : min === 1 ? "+" : `{${min},}`)
        : (min === 0 && max === 1 ? "?" : min === max ? `{${min}}` : `{${min},${max}}`);
      return `(?:${jsNode(node.element, i)})${q}${node.greedy ? "" : "?"}`;
    }
    case "Character":
      if (i) {
        const vs = caseVariants(node.value);
        if (vs.length > 1) {
          return jsClass(
            false,
            vs.map((v) => ({ type: "Character", value: v }) as AST.Character),
            false,
          );
        }
      }
      return jsChar(node.value);
    case "CharacterSet":
      if (node.kind === "any") return `(?:${ASTRAL}|.)`;
      if (node.kind === "property") {
        throw new PatternError("Unicode property classes (\\p{…}) have no POSIX ERE form");
      }
      return jsClass(false, [node as AST.EscapeCharacterSet], false);
    case "CharacterClass":
      return jsClass(node.negate, node.elements as AST.CharacterClassElement[], i);
    case "Assertion":
      if (node.kind === "start") return "^";
      if (node.kind === "end") return "$";
      throw new PatternError("this assertion is not supported");
    default:
      throw new PatternError(`construct '${node.raw}' is not supported`);
  }
}

function toLinearJs(ast: AST.Pattern, ignoreCase: boolean): string {
  return ast.alternatives.map((a) => jsNode(a, ignoreCase)).join("|");
}
