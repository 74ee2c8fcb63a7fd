/**
 * A conservative reading of a shell command line, for the drive loop's allowlist and danger rules.
 *
 * It is not a shell. It only has to (a) split a command into the simple commands bash would run,
 * with quotes removed, and (b) notice every construct that makes a command's effect depend on more
 * than its literal words (substitutions, expansions, redirections, compound syntax). Whatever it
 * is unsure about is reported as a "feature", and any feature makes a command ineligible for the
 * allowlist: misreading a command may cost an escalation, never an approval.
 *
 * The reading is split by what it reads: the state of one reading (shell_reader.ts), quoting
 * (shell_quotes.ts), expansions and substitutions (shell_expansions.ts), operators and
 * redirections (shell_operators.ts); this file walks the text and hands each construct to them.
 */
import { readBacktick, readDollar, readProcessSubstitution } from "./shell_expansions.ts";
import { readControl, readParen, readRedirect } from "./shell_operators.ts";
import { readDoubleQuoted, readEscape, readSingleQuoted } from "./shell_quotes.ts";
import { type ParsedShell, ShellReader } from "./shell_reader.ts";

export type { ParsedShell, Redirect, Segment } from "./shell_reader.ts";

const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "select",
  "function",
  "time",
  "coproc",
  "!",
  "{",
  "}",
  "[[",
  "]]",
]);

const GLOB = /[*?[]/;

/** Parse a command line. Never throws; problems land in `error` and `features`. */
export function parseShell(src: string): ParsedShell {
  const r = new ShellReader(src);
  let i = 0;
  while (i < src.length) i = readAt(r, i);
  r.endSegment("");
  if (r.error) r.features.add("unparseable");
  for (const s of r.segments) {
    const first = s.words[0];
    if (first !== undefined && RESERVED.has(first)) r.features.add("compound");
    if (s.words.some((w, k) => s.glob[k] && GLOB.test(w))) r.features.add("glob");
  }
  return r.result();
}

/** Read the construct that starts at i; returns the index after it. */
function readAt(r: ShellReader, i: number): number {
  const src = r.src;
  const c = src[i];
  // Whitespace ends a word.
  if (c === " " || c === "\t") {
    r.endWord();
    return i + 1;
  }
  if (c === "\n" || c === "\r") {
    r.endSegment("\n");
    return i + 1;
  }
  if (c === "#" && !r.inWord) return skipComment(r, i);
  if (c === "\\") return readEscape(r, i);
  if (c === "'") return readSingleQuoted(r, i);
  if (c === '"') return readDoubleQuoted(r, i);
  if (c === "$") {
    r.startWord();
    return readDollar(r, i, false);
  }
  if (c === "`") return readBacktick(r, i);
  if ((c === "<" || c === ">") && src[i + 1] === "(") return readProcessSubstitution(r, i);
  if (c === ";" || c === "&" || c === "|") return readControl(r, i);
  if (c === "(" || c === ")") return readParen(r, i);
  if (c === ">" || c === "<") return readRedirect(r, i);
  return readWordChar(r, i);
}

/** Bash ignores the rest of the line; we refuse to trust what it hides. */
function skipComment(r: ShellReader, i: number): number {
  r.features.add("comment");
  const j = r.src.indexOf("\n", i);
  return j < 0 ? r.src.length : j;
}

/** Any other character: part of the word, perhaps a glob or the start of a brace expansion. */
function readWordChar(r: ShellReader, i: number): number {
  const src = r.src;
  const c = src[i];
  r.startWord();
  if (GLOB.test(c)) r.markGlob();
  if (c === "~" && r.word === "") r.markDynamic();
  if (c === "{" && /[,.]/.test(src.slice(i, src.indexOf("}", i) + 1))) {
    // brace expansion a{b,c} turns one word into several
    if (src.indexOf("}", i) > i) r.features.add("brace-expansion");
  }
  r.append(c);
  return i + 1;
}

/** True for NAME=value (an assignment word, before the command name). */
export function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word);
}

/** The last path component: "/usr/bin/rm" → "rm". */
export function baseName(word: string): string {
  const i = word.lastIndexOf("/");
  return i < 0 ? word : word.slice(i + 1);
}
