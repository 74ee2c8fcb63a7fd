/**
 * Finding where a bracketed or quoted body ends, for the shell reader (shell_words.ts): each scan
 * skips what the shell would skip inside it (escapes, quotes, nested backticks).
 */

/** Find the end of a $( … ) / <( … ) body starting after the "(": index of the matching ")". */
export function matchParen(s: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      if (j < 0) return -1;
      i = j + 1;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') i += s[i] === "\\" ? 2 : 1;
      if (i >= s.length) return -1;
      i++;
      continue;
    }
    if (c === "`") {
      const j = findBacktick(s, i + 1);
      if (j < 0) return -1;
      i = j + 1;
      continue;
    }
    if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth === 0) return i;
    }
    i++;
  }
  return -1;
}

/** Index of the backtick that closes one opened before `start`, or -1. */
export function findBacktick(s: string, start: number): number {
  let i = start;
  while (i < s.length) {
    if (s[i] === "\\") {
      i += 2;
      continue;
    }
    if (s[i] === "`") return i;
    i++;
  }
  return -1;
}

/** Index of the "}" that closes a ${ … } body starting at `start`, or -1. */
export function matchBrace(s: string, start: number): number {
  let depth = 1;
  for (let i = start; i < s.length; i++) {
    if (s[i] === "\\") {
      i++;
      continue;
    }
    if (s[i] === "{") depth++;
    else if (s[i] === "}" && --depth === 0) return i;
  }
  return -1;
}
