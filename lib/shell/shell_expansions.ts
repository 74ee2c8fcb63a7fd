/**
 * Expansions and substitutions for the shell reader (shell_words.ts): `$…` in all its forms,
 * backticks and process substitution. Each makes its word dynamic; a substitution's body is kept
 * in `nested`, for callers to read as a command of its own.
 */
import type { ShellReader } from "./shell_reader.ts";
import { findBacktick, matchBrace, matchParen } from "./shell_scan.ts";

/** Handle a `$…` at i (inside double quotes when `quoted`); returns the index after it. */
export function readDollar(r: ShellReader, i: number, quoted: boolean): number {
  const n = r.src[i + 1];
  if (n === "(") return r.src[i + 2] === "(" ? arithmetic(r, i) : commandSubstitution(r, i);
  if (n === "{") return braced(r, i);
  // $'…' decodes escapes we do not model: its value is not the literal text.
  if (n === "'" && !quoted) return ansiCQuote(r, i);
  if (n !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(n)) return parameter(r, i);
  r.append("$");
  return i + 1;
}

/** `$(( … ))`. */
function arithmetic(r: ShellReader, i: number): number {
  const src = r.src;
  // Noticed even when the text ends inside it (adding it again below keeps its place).
  r.features.add("arithmetic");
  const j = matchParen(src, i + 2);
  if (j < 0) return r.fail("unterminated $((");
  const end = Math.min(src.length, j + 2);
  r.appendSubstitution("arithmetic", src.slice(i + 3, j), src.slice(i, end));
  return end;
}

/** `$( … )`. */
function commandSubstitution(r: ShellReader, i: number): number {
  return substitution(r, i, 2, matchParen, "command-substitution", "unterminated $(");
}

/** `${ … }`. */
function braced(r: ShellReader, i: number): number {
  const src = r.src;
  const j = matchBrace(src, i + 2);
  if (j < 0) return r.fail("unterminated ${");
  r.features.add("expansion");
  const body = src.slice(i + 2, j);
  // ${x:-$(cmd)} runs cmd: read the body as a command too.
  if (/[`$]/.test(body)) r.nested.push(body.replace(/^[^`$]*/, ""));
  r.appendExpanded(src.slice(i, j + 1));
  return j + 1;
}

/** `$'…'`. */
function ansiCQuote(r: ShellReader, i: number): number {
  const src = r.src;
  r.features.add("ansi-c-quote");
  let j = i + 2;
  while (j < src.length && src[j] !== "'") j += src[j] === "\\" ? 2 : 1;
  if (j >= src.length) return r.fail("unterminated $'");
  r.appendExpanded(src.slice(i, j + 1));
  return j + 1;
}

/** `$NAME`, or a special parameter (`$1`, `$@`, `$?` …). */
function parameter(r: ShellReader, i: number): number {
  const src = r.src;
  r.features.add("expansion");
  r.markDynamic();
  // A name runs on; a special parameter is one character.
  let j = i + 2;
  if (/[A-Za-z_]/.test(src[i + 1])) { while (j < src.length && /[A-Za-z0-9_]/.test(src[j])) j++; }
  r.append(src.slice(i, j));
  return j;
}

/** `` `…` `` at i, quoted or not; returns the index after it. */
export function readBacktick(r: ShellReader, i: number): number {
  return substitution(r, i, 1, findBacktick, "command-substitution", "unterminated backtick");
}

/** Process substitution `<( … )` / `>( … )` at i; returns the index after it. */
export function readProcessSubstitution(r: ShellReader, i: number): number {
  const unterminated = "unterminated process substitution";
  return substitution(r, i, 2, matchParen, "process-substitution", unterminated);
}

/**
 * A substitution at i whose opener is `open` characters long and whose closer `close` finds (the
 * index of the closing character, or -1): its body is a command of its own.
 */
function substitution(
  r: ShellReader,
  i: number,
  open: number,
  close: (s: string, start: number) => number,
  feature: string,
  unterminated: string,
): number {
  const src = r.src;
  const j = close(src, i + open);
  if (j < 0) return r.fail(unterminated);
  r.appendSubstitution(feature, src.slice(i + open, j), src.slice(i, j + 1));
  return j + 1;
}
