/**
 * Profile patterns are written in Rust `regex`-crate syntax. This module checks a pattern against the
 * subset drover supports (constructs with a linear-time match and a POSIX-ERE form for sweep.sh),
 * parses it into the tree (ir.ts) that the safety rules (safety.ts) judge and the bounded matcher
 * (match.ts) runs, and has ere.ts export it as ERE.
 *
 * Why a subset: a profile is configuration an agent's own worktree may influence, so it must not be
 * able to stall the supervisor (no back-references, no look-around, no catastrophic nesting), and
 * sweep.sh must read the very same pattern (so everything has to survive the ERE export). Semantics
 * that differ between Rust and JS are documented in docs/profiles.md (`\d`, `\w` are ASCII here).
 */
import { type AST, RegExpParser } from "../deps/regexpp.ts";
import { ereAlternatives, toEre } from "./ere.ts";
import { PatternError } from "./error.ts";
import { fromAst, type Spans, type Tree } from "./ir.ts";
import { Matcher } from "./match.ts";
import { checkLength, checkTree, type Describe } from "./safety.ts";

export interface CompiledPattern {
  /** The pattern exactly as written in the profile. */
  readonly source: string;
  /** JS (`u` mode) source after translating Rust syntax (validation form). */
  readonly jsSource: string;
  /** Whole-pattern case-insensitivity from a leading `(?i)`. */
  readonly ignoreCase: boolean;
  /** The bounded matcher every detector runs (match.ts). */
  readonly matcher: Matcher;
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

/**
 * Where the translation stands: outside a class, just after a class's `[` or `[^` (where a `]` is
 * a member, as in Rust), or further inside one.
 */
type Where = "outside" | "classStart" | "inClass";

/** One construct of the body: its JS form, the index of its last character, where it leaves us. */
interface Piece {
  js: string;
  end: number;
  where: Where;
}

/**
 * Translate Rust-regex syntax into JS (`u` mode) source, rejecting what has no linear/ERE form.
 * `at[k]` is the index in `body` of the construct that produced JS character k.
 */
function translate(body: string): { js: string; at: number[] } {
  let out = "";
  let where: Where = "outside";
  const at: number[] = [];
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    while (at.length < out.length) at.push(from);
    from = i;
    const piece: Piece = body[i] === "\\"
      ? translateEscape(body, i, where)
      : where === "outside"
      ? translateOutside(body, i)
      : translateInClass(body, i, where === "classStart");
    out += piece.js;
    i = piece.end;
    where = piece.where;
  }
  if (where !== "outside") throw new PatternError("unterminated character class");
  while (at.length < out.length) at.push(from);
  return { js: out, at };
}

/** The escape whose backslash is at `i`. */
function translateEscape(body: string, i: number, where: Where): Piece {
  const inClass = where !== "outside";
  const after: Where = inClass ? "inClass" : "outside";
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
    return { js: d === "A" ? "^" : "$", end: i, where: after };
  }
  if (d === "b" && body[i + 1] === "{") {
    throw new PatternError("\\b{…} word-boundary assertions are not supported");
  }
  if (d === "x" && body[i + 1] === "{") {
    const end = body.indexOf("}", i + 2);
    if (end < 0) throw new PatternError("unterminated \\x{…} escape");
    return { js: "\\u{" + body.slice(i + 2, end) + "}", end, where: after };
  }
  if (d === "U") {
    if (body[i + 1] === "{") {
      const end = body.indexOf("}", i + 2);
      if (end < 0) throw new PatternError("unterminated \\U{…} escape");
      return { js: "\\u{" + body.slice(i + 2, end) + "}", end, where: after };
    }
    return { js: "\\u{" + body.slice(i + 1, i + 9) + "}", end: i + 8, where: after };
  }
  if ((d === "p" || d === "P") && body[i + 1] !== "{") {
    const letter = body[i + 1];
    if (letter === undefined) throw new PatternError(`incomplete \\${d} escape`);
    return { js: `\\${d}{${letter}}`, end: i + 1, where: after };
  }
  return { js: simpleEscape(d, inClass), end: i, where: after };
}

/** A one-letter or punctuation escape `\d` (the character after the backslash). */
function simpleEscape(d: string, inClass: boolean): string {
  if (d === "a") return "\\x07";
  if (KEEP_ESCAPES.has(d) || d === "x" || d === "u" || d === "p" || d === "P" || d === "0") {
    return "\\" + d;
  }
  if (/[A-Za-z0-9]/.test(d)) throw new PatternError(`unknown escape \\${d}`);
  // Escaped punctuation: Rust allows escaping any of it; JS-u only its own syntax characters.
  if (inClass) return d === "-" || d === "]" || d === "\\" || d === "^" ? "\\" + d : hex2(d);
  return JS_SYNTAX.has(d) ? "\\" + d : (d.charCodeAt(0) < 128 ? hex2(d) : d);
}

/** A character (not a backslash) inside a class; `first`: right after the `[` or `[^`. */
function translateInClass(body: string, i: number, first: boolean): Piece {
  const c = body[i];
  if (c === "[") {
    if (body[i + 1] === ":") {
      const end = body.indexOf(":]", i + 2);
      if (end < 0) throw new PatternError("unterminated [:class:] in a character class");
      return { js: posixClass(body.slice(i + 2, end)), end: end + 1, where: "inClass" };
    }
    throw new PatternError("nested character classes are not supported");
  }
  if ((c === "&" || c === "-" || c === "~") && body[i + 1] === c) {
    throw new PatternError(`character class set operation '${c}${c}' is not supported`);
  }
  if (c === "]" && first) return { js: "\\]", end: i, where: "inClass" };
  if (c === "]") return { js: "]", end: i, where: "outside" };
  return { js: c, end: i, where: "inClass" };
}

/** A character (not a backslash) outside any class. */
function translateOutside(body: string, i: number): Piece {
  const c = body[i];
  if (c === "[") {
    return body[i + 1] === "^"
      ? { js: "[^", end: i + 1, where: "classStart" }
      : { js: "[", end: i, where: "classStart" };
  }
  if (c === "(" && body[i + 1] === "?") return translateGroupOpen(body, i);
  if (c === "{" && body[i + 1] === ",") {
    throw new PatternError("a repetition needs a lower bound ({0,n}, not {,n})");
  }
  return { js: c, end: i, where: "outside" };
}

/** The `(?` at `i`: a named or non-capturing group, or a scoped flag group. */
function translateGroupOpen(body: string, i: number): Piece {
  const rest = body.slice(i + 2);
  if (
    rest.startsWith("=") || rest.startsWith("!") || rest.startsWith("<=") ||
    rest.startsWith("<!")
  ) {
    throw new PatternError("look-around assertions are not supported (Rust regex has none)");
  }
  if (rest.startsWith("P<")) return { js: "(?<", end: i + 3, where: "outside" };
  // `(?<name>` and `(?:` read the same in JS: the `<` or `:` goes on as an ordinary character.
  if (rest.startsWith("<") || rest.startsWith(":")) {
    return { js: "(?", end: i + 1, where: "outside" };
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
  return { js: "(?" + m[1] + ":", end: i + 1 + m[0].length, where: "outside" };
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

/** A parsed pattern: its tree plus everything compilePattern derives the other forms from. */
export interface ParsedPattern {
  readonly source: string;
  readonly jsSource: string;
  readonly ast: AST.Pattern;
  readonly ignoreCase: boolean;
  readonly dotAll: boolean;
  readonly tree: Tree;
  /** The part of `source` a tree node came from (quoted in error messages, cut to 40 chars). */
  readonly show: Describe;
}

/**
 * Syntax only: parse a Rust-syntax pattern into its tree, with no safety rule applied. Tests use
 * it to hand the matcher patterns validation would refuse; everything else uses compilePattern.
 */
export function parsePattern(source: string): ParsedPattern {
  checkLength(source);
  if (source.length === 0) throw new PatternError("empty pattern");
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(source)) {
    throw new PatternError("control characters (tab, newline …) are not allowed; write \\t or \\n");
  }
  const { flags, body } = splitFlags(source);
  if (body.length === 0) throw new PatternError("empty pattern after the flag group");
  const { js: jsSource, at } = translate(body);
  let ast: AST.Pattern;
  try {
    ast = PARSER.parsePattern(jsSource, 0, jsSource.length, { unicode: true });
  } catch (e) {
    // regexpp's message quotes the translated source ("/…/u: reason"): keep only the reason.
    const msg = e instanceof Error ? e.message : String(e);
    throw new PatternError(
      `does not compile: ${msg.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "")}`,
    );
  }
  const ignoreCase = flags.has("i");
  const dotAll = flags.has("s");
  const spans: Spans = new WeakMap();
  const tree = fromAst(ast, ignoreCase, dotAll, spans);
  const prefix = source.length - body.length;
  const show: Describe = (n) => {
    const span = spans.get(n);
    if (!span) return "…";
    const a = prefix + (at[span[0]] ?? body.length);
    const b = prefix + (span[1] < at.length ? at[span[1]] : body.length);
    const text = source.slice(a, Math.max(a, b));
    return text.length > 40 ? text.slice(0, 39) + "…" : text;
  };
  return { source, jsSource, ast, ignoreCase, dotAll, tree, show };
}

/** Parse + check + translate. Throws PatternError with a reason meant for a person. */
export function compilePattern(source: string): CompiledPattern {
  const p = parsePattern(source);
  checkTree(p.tree, p.show);
  const ere = toEre(p.ast, p.ignoreCase);
  const alternatives = ereAlternatives(p.ast, p.ignoreCase);
  return {
    source,
    jsSource: p.jsSource,
    ignoreCase: p.ignoreCase,
    matcher: new Matcher(p.tree, source),
    ere,
    ereAlternatives: alternatives,
  };
}
