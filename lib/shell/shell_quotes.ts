/**
 * Quoting for the shell reader (shell_words.ts): a backslash, '…' and "…", with the quotes
 * removed as bash removes them. Inside double quotes `$` and backticks still expand.
 */
import { readBacktick, readDollar } from "./shell_expansions.ts";
import type { ShellReader } from "./shell_reader.ts";

/** An unquoted backslash at i; returns the index after what it escapes. */
export function readEscape(r: ShellReader, i: number): number {
  const src = r.src;
  // A backslash-newline joins two lines.
  if (src[i + 1] === "\n") return i + 2;
  if (i + 1 >= src.length) {
    r.fail("trailing backslash");
    return i + 1;
  }
  r.append(src[i + 1]);
  return i + 2;
}

/** '…' at i: the text up to the next quote, as it is. */
export function readSingleQuoted(r: ShellReader, i: number): number {
  const src = r.src;
  const j = src.indexOf("'", i + 1);
  if (j < 0) {
    r.append(src.slice(i + 1));
    return r.fail("unterminated single quote");
  }
  r.append(src.slice(i + 1, j));
  return j + 1;
}

/** "…" at i; returns the index after the closing quote. */
export function readDoubleQuoted(r: ShellReader, i: number): number {
  const src = r.src;
  r.startWord();
  i++;
  while (i < src.length) {
    const d = src[i];
    if (d === '"') return i + 1;
    if (d === "\\") i = quotedEscape(r, i);
    else if (d === "$") i = readDollar(r, i, true);
    else if (d === "`") i = readBacktick(r, i);
    else {
      r.append(d);
      i++;
    }
  }
  r.fail("unterminated double quote");
  return i;
}

/** A backslash inside double quotes escapes only `$`, a backtick, `"`, `\` and a newline. */
function quotedEscape(r: ShellReader, i: number): number {
  const e = r.src[i + 1];
  if (e === "$" || e === "`" || e === '"' || e === "\\") {
    r.append(e);
    return i + 2;
  }
  if (e === "\n") return i + 2;
  r.append("\\");
  return i + 1;
}
