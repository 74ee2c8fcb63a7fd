/**
 * Where each key of a TOML document is written. smol-toml gives values but no positions, and every
 * configuration error has to name `file:line: field`, so this scans the source text itself.
 *
 * It understands table headers (`[a.b]`, `[[a]]`), bare/quoted/dotted keys, multi-line strings and
 * multi-line arrays (one line per element). Keys inside inline tables fall back to the line of the
 * key that holds the inline table — still the right line for a person to look at.
 */

export class KeyLines {
  readonly #lines = new Map<string, number>();

  set(path: readonly (string | number)[], line: number): void {
    const k = JSON.stringify(path);
    if (!this.#lines.has(k)) this.#lines.set(k, line);
  }

  /** Line of `path`, else of its nearest ancestor that has one, else 1. */
  lineOf(path: readonly (string | number)[]): number {
    for (let n = path.length; n > 0; n--) {
      const hit = this.#lines.get(JSON.stringify(path.slice(0, n)));
      if (hit !== undefined) return hit;
    }
    return 1;
  }

  has(path: readonly (string | number)[]): boolean {
    return this.#lines.has(JSON.stringify(path));
  }
}

/** Parse a (dotted) key at the start of `s`; returns the parts and the rest after it. */
function parseKey(s: string): { parts: string[]; rest: string } | null {
  const parts: string[] = [];
  let rest = s;
  for (;;) {
    rest = rest.replace(/^[ \t]+/, "");
    let m: RegExpExecArray | null;
    if ((m = /^[A-Za-z0-9_-]+/.exec(rest))) {
      parts.push(m[0]);
    } else if ((m = /^"((?:[^"\\]|\\.)*)"/.exec(rest))) {
      let v = m[1];
      try {
        v = JSON.parse(`"${m[1]}"`);
      } catch { /* keep the raw text */ }
      parts.push(v);
    } else if ((m = /^'([^']*)'/.exec(rest))) {
      parts.push(m[1]);
    } else return null;
    rest = rest.slice(m[0].length).replace(/^[ \t]+/, "");
    if (rest.startsWith(".")) {
      rest = rest.slice(1);
      continue;
    }
    return { parts, rest };
  }
}

/** Count `[`/`]` depth change in a value, ignoring brackets inside strings. */
function bracketDelta(s: string): { delta: number; openStrings: string | null } {
  let d = 0;
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === "#") break;
    if (s.startsWith('"""', i) || s.startsWith("'''", i)) {
      const q = s.slice(i, i + 3);
      const end = s.indexOf(q, i + 3);
      if (end < 0) return { delta: d, openStrings: q };
      i = end + 3;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') i += s[i] === "\\" ? 2 : 1;
      i++;
      continue;
    }
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      i = end < 0 ? s.length : end + 1;
      continue;
    }
    if (c === "[") d++;
    else if (c === "]") d--;
    i++;
  }
  return { delta: d, openStrings: null };
}

export function keyLines(source: string): KeyLines {
  const out = new KeyLines();
  const lines = source.split("\n");
  let table: string[] = [];
  const arrayCounts = new Map<string, number>();
  let inString: string | null = null;
  // Multi-line array being read: its key path, current depth, element index.
  let array: { path: string[]; depth: number; index: number } | null = null;

  for (let li = 0; li < lines.length; li++) {
    const lineNo = li + 1;
    const raw = lines[li].replace(/\r$/, "");
    if (inString) {
      if (raw.includes(inString)) inString = null;
      continue;
    }
    if (array) {
      const t = raw.trim();
      if (array.depth === 1 && t !== "" && !t.startsWith("#") && !t.startsWith("]")) {
        // One element per line is the common layout; several on one line share its number.
        const elems = t.startsWith("[") || t.startsWith("{") ? 1 : Math.max(1, splitTopCommas(t));
        for (let e = 0; e < elems; e++) out.set([...array.path, array.index + e], lineNo);
        array.index += elems;
      }
      const { delta, openStrings } = bracketDelta(raw);
      array.depth += delta;
      if (openStrings) inString = openStrings;
      if (array.depth <= 0) array = null;
      continue;
    }
    const t = raw.trim();
    if (t === "" || t.startsWith("#")) continue;
    if (t.startsWith("[[")) {
      const k = parseKey(t.slice(2));
      if (k) {
        const key = JSON.stringify(k.parts);
        const n = arrayCounts.get(key) ?? 0;
        arrayCounts.set(key, n + 1);
        table = [...k.parts, String(n)];
        out.set(k.parts, lineNo);
        out.set(table, lineNo);
      }
      continue;
    }
    if (t.startsWith("[")) {
      const k = parseKey(t.slice(1));
      if (k) {
        table = k.parts;
        out.set(table, lineNo);
      }
      continue;
    }
    const k = parseKey(t);
    if (!k || !k.rest.startsWith("=")) continue;
    const path = [...table, ...k.parts];
    out.set(path, lineNo);
    const value = k.rest.slice(1).trim();
    if (value.startsWith("[")) {
      const { delta, openStrings } = bracketDelta(value);
      if (openStrings) inString = openStrings;
      if (delta > 0) array = { path, depth: delta, index: 0 };
      else {
        // Single-line array: every element is on this line.
        const n = splitTopCommas(value.slice(1, value.lastIndexOf("]")));
        for (let e = 0; e < n; e++) out.set([...path, e], lineNo);
      }
    } else if (value.startsWith('"""') || value.startsWith("'''")) {
      const q = value.slice(0, 3);
      if (value.indexOf(q, 3) < 0) inString = q;
    }
  }
  return out;
}

/** Number of top-level comma-separated items in `s` (strings respected). */
function splitTopCommas(s: string): number {
  let n = 0, depth = 0, seen = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "#") break;
    if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') i += s[i] === "\\" ? 2 : 1;
      seen = true;
      continue;
    }
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      i = end < 0 ? s.length : end;
      seen = true;
      continue;
    }
    if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      if (seen) n++;
      seen = false;
      continue;
    }
    if (!/\s/.test(c)) seen = true;
  }
  return n + (seen ? 1 : 0);
}
