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
 * Translate Rust-regex syntax into JS (`u` mode) source, rejecting what has no linear/ERE form.
 * `at[k]` is the index in `body` of the construct that produced JS character k.
 */
function translate(body: string): { js: string; at: number[] } {
  let out = "";
  let inClass = 0;
  let classStart = false;
  const n = body.length;
  const at: number[] = [];
  let from = 0;
  for (let i = 0; i < n; i++) {
    while (at.length < out.length) at.push(from);
    from = i;
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
  while (at.length < out.length) at.push(from);
  return { js: out, at };
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
