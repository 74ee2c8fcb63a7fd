/**
 * Operators for the shell reader (shell_words.ts): the control operators that end a segment,
 * parentheses, and redirections with their fd numbers, fd duplication and heredoc markers.
 */
import type { ShellReader } from "./shell_reader.ts";

const PAIRS = new Set(["&&", "||", ";;", "|&", ";&"]);

/** `;`, `&` or `|` at i (or a pair of them); `&>` and `&>>` are redirections. */
export function readControl(r: ShellReader, i: number): number {
  const src = r.src;
  const c = src[i];
  if (c === "&" && src[i + 1] === ">") {
    r.endWord();
    const op = src.slice(i, i + 3) === "&>>" ? "&>>" : "&>";
    r.awaitTarget(op);
    return i + op.length;
  }
  const two = src.slice(i, i + 2);
  const op = PAIRS.has(two) ? two : c;
  if (op === "&") r.features.add("background");
  if (op === ";;" || op === ";&") r.features.add("compound");
  if (op === "|&") r.features.add("pipe-stderr");
  r.endSegment(op);
  return i + op.length;
}

/** `(` or `)` at i. */
export function readParen(r: ShellReader, i: number): number {
  const c = r.src[i];
  // name() { … } — a function definition.
  r.features.add(c === "(" && r.inWord ? "function" : "subshell");
  r.endSegment(c);
  return i + 1;
}

/** `>` or `<` at i, with an optional fd number written just before it. */
export function readRedirect(r: ShellReader, i: number): number {
  const src = r.src;
  const fd = r.takeFd();
  const op = redirectOperator(src, i);
  i += op.length;
  if (src[i] === "&") return readDuplication(r, i, fd + op);
  if (op === "<<") {
    r.features.add("heredoc");
    if (src[i] === "-") i++;
  }
  r.awaitTarget(fd + op);
  return i;
}

/** The operator starting with the `>` or `<` at i: `>`, `>>`, `>|`, `<`, `<<`, `<<<`, `<>`. */
function redirectOperator(src: string, i: number): string {
  const c = src[i];
  const rest = src.slice(i + 1);
  if (c === ">" && (rest.startsWith(">") || rest.startsWith("|"))) return c + rest[0];
  if (c === "<" && rest.startsWith("<<")) return "<<<";
  if (c === "<" && rest.startsWith("<")) return "<<";
  if (c === "<" && rest.startsWith(">")) return "<>";
  return c;
}

/**
 * fd duplication after `op` (the `&` at i): 2>&1, >&2, <&0 — the target is an fd, not a file
 * (or "-" to close).
 */
function readDuplication(r: ShellReader, i: number, op: string): number {
  const src = r.src;
  let j = i + 1;
  while (j < src.length && /[0-9-]/.test(src[j])) j++;
  const target = src.slice(i + 1, j);
  // >&file is bash for &>file
  if (target === "") r.awaitTarget(op + "&");
  else r.addRedirect(op + "&" + target);
  return j;
}
