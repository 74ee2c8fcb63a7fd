/**
 * A conservative reading of a shell command line, for the drive loop's allowlist and danger rules.
 *
 * It is not a shell. It only has to (a) split a command into the simple commands bash would run,
 * with quotes removed, and (b) notice every construct that makes a command's effect depend on more
 * than its literal words (substitutions, expansions, redirections, compound syntax). Whatever it
 * is unsure about is reported as a "feature", and any feature makes a command ineligible for the
 * allowlist: misreading a command may cost an escalation, never an approval.
 */

/** One simple command: what runs between two control operators. */
export interface Segment {
  /** Words after quote removal, assignments included (e.g. ["CI=1", "npm", "test"]). */
  words: string[];
  /** Parallel to words: the word contained an expansion or substitution ($X, $(…), `…`, globs). */
  dynamic: boolean[];
  /** Parallel to words: the word held an unquoted glob character. */
  glob: boolean[];
  redirects: Redirect[];
  /** The operator that joined this segment to the previous one ("" for the first). */
  joinedBy: string;
}

export interface Redirect {
  /** The operator as written, fd included: ">", "2>", ">>", "&>", "<", "2>&1", "<<", "<<<" … */
  op: string;
  /** The target word after quote removal ("" when the operator carries its target, like 2>&1). */
  target: string;
  dynamic: boolean;
}

export interface ParsedShell {
  segments: Segment[];
  /** Bodies of $(…), `…`, <(…), >(…), and words that a shell would run again (parsed by callers). */
  nested: string[];
  /** Constructs that make the command's effect non-literal; any one rules out the allowlist. */
  features: Set<string>;
  /** Set when the text could not be read to the end (unterminated quote or substitution). */
  error?: string;
}

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

/** Find the end of a $( … ) / <( … ) body starting after the "(": index of the matching ")". */
function matchParen(s: string, start: number): number {
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

function findBacktick(s: string, start: number): number {
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

function matchBrace(s: string, start: number): number {
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

/** Parse a command line. Never throws; problems land in `error` and `features`. */
export function parseShell(src: string): ParsedShell {
  const segments: Segment[] = [];
  const nested: string[] = [];
  const features = new Set<string>();
  let error: string | undefined;

  let seg: Segment = { words: [], dynamic: [], glob: [], redirects: [], joinedBy: "" };
  let word = "";
  let inWord = false;
  let dyn = false;
  let glob = false;
  let pendingRedirect: string | undefined;

  const endWord = () => {
    if (!inWord) return;
    if (pendingRedirect !== undefined) {
      seg.redirects.push({ op: pendingRedirect, target: word, dynamic: dyn });
      pendingRedirect = undefined;
    } else {
      seg.words.push(word);
      seg.dynamic.push(dyn);
      seg.glob.push(glob);
    }
    word = "";
    inWord = false;
    dyn = false;
    glob = false;
  };
  const endSegment = (op: string) => {
    endWord();
    if (pendingRedirect !== undefined) {
      features.add("redirect-without-target");
      pendingRedirect = undefined;
    }
    if (seg.words.length > 0 || seg.redirects.length > 0) segments.push(seg);
    else if (op !== "" && op !== ";" && op !== "\n") features.add("empty-command");
    seg = { words: [], dynamic: [], glob: [], redirects: [], joinedBy: op };
  };

  /** Handle a `$…` at s[i]; returns the index after it, appending to `word`. */
  const dollar = (i: number, quoted: boolean): number => {
    const n = src[i + 1];
    if (n === "(") {
      if (src[i + 2] === "(") {
        features.add("arithmetic");
        const j = matchParen(src, i + 2);
        if (j < 0) {
          error ??= "unterminated $((";
          return src.length;
        }
        nested.push(src.slice(i + 3, j));
        dyn = true;
        word += src.slice(i, Math.min(src.length, j + 2));
        return Math.min(src.length, j + 2);
      }
      const j = matchParen(src, i + 2);
      if (j < 0) {
        error ??= "unterminated $(";
        return src.length;
      }
      features.add("command-substitution");
      nested.push(src.slice(i + 2, j));
      dyn = true;
      word += src.slice(i, j + 1);
      return j + 1;
    }
    if (n === "{") {
      const j = matchBrace(src, i + 2);
      if (j < 0) {
        error ??= "unterminated ${";
        return src.length;
      }
      features.add("expansion");
      const body = src.slice(i + 2, j);
      // ${x:-$(cmd)} runs cmd: read the body as a command too.
      if (/[`$]/.test(body)) nested.push(body.replace(/^[^`$]*/, ""));
      dyn = true;
      word += src.slice(i, j + 1);
      return j + 1;
    }
    if (n === "'" && !quoted) {
      // $'…' decodes escapes we do not model: its value is not the literal text.
      features.add("ansi-c-quote");
      let j = i + 2;
      while (j < src.length && src[j] !== "'") j += src[j] === "\\" ? 2 : 1;
      if (j >= src.length) {
        error ??= "unterminated $'";
        return src.length;
      }
      dyn = true;
      word += src.slice(i, j + 1);
      return j + 1;
    }
    if (n !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(n)) {
      features.add("expansion");
      dyn = true;
      let j = i + 1;
      if (/[A-Za-z_]/.test(n)) { while (j < src.length && /[A-Za-z0-9_]/.test(src[j])) j++; }
      else j++;
      word += src.slice(i, j);
      return j;
    }
    word += "$";
    return i + 1;
  };

  let i = 0;
  while (i < src.length) {
    const c = src[i];
    // Whitespace ends a word.
    if (c === " " || c === "\t") {
      endWord();
      i++;
      continue;
    }
    if (c === "\n" || c === "\r") {
      endSegment("\n");
      i++;
      continue;
    }
    if (c === "#" && !inWord) {
      // Bash ignores the rest of the line; we refuse to trust what it hides.
      features.add("comment");
      const j = src.indexOf("\n", i);
      i = j < 0 ? src.length : j;
      continue;
    }
    if (c === "\\") {
      if (src[i + 1] === "\n") {
        i += 2;
        continue;
      }
      if (i + 1 >= src.length) {
        error ??= "trailing backslash";
        i++;
        continue;
      }
      inWord = true;
      word += src[i + 1];
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      if (j < 0) {
        error ??= "unterminated single quote";
        word += src.slice(i + 1);
        inWord = true;
        i = src.length;
        continue;
      }
      inWord = true;
      word += src.slice(i + 1, j);
      i = j + 1;
      continue;
    }
    if (c === '"') {
      inWord = true;
      i++;
      let closed = false;
      while (i < src.length) {
        const d = src[i];
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === "\\") {
          const e = src[i + 1];
          if (e === "$" || e === "`" || e === '"' || e === "\\") {
            word += e;
            i += 2;
            continue;
          }
          if (e === "\n") {
            i += 2;
            continue;
          }
          word += d;
          i++;
          continue;
        }
        if (d === "$") {
          i = dollar(i, true);
          continue;
        }
        if (d === "`") {
          const j = findBacktick(src, i + 1);
          if (j < 0) {
            error ??= "unterminated backtick";
            i = src.length;
            break;
          }
          features.add("command-substitution");
          nested.push(src.slice(i + 1, j));
          dyn = true;
          word += src.slice(i, j + 1);
          i = j + 1;
          continue;
        }
        word += d;
        i++;
      }
      if (!closed) error ??= "unterminated double quote";
      continue;
    }
    if (c === "$") {
      inWord = true;
      i = dollar(i, false);
      continue;
    }
    if (c === "`") {
      const j = findBacktick(src, i + 1);
      if (j < 0) {
        error ??= "unterminated backtick";
        i = src.length;
        continue;
      }
      features.add("command-substitution");
      nested.push(src.slice(i + 1, j));
      inWord = true;
      dyn = true;
      word += src.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    // Process substitution <( … ) / >( … ).
    if ((c === "<" || c === ">") && src[i + 1] === "(") {
      const j = matchParen(src, i + 2);
      if (j < 0) {
        error ??= "unterminated process substitution";
        i = src.length;
        continue;
      }
      features.add("process-substitution");
      nested.push(src.slice(i + 2, j));
      inWord = true;
      dyn = true;
      word += src.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    // Control operators.
    if (c === ";" || c === "&" || c === "|") {
      const two = src.slice(i, i + 2);
      if (c === "&" && src[i + 1] === ">") {
        // &> / &>> redirection
        endWord();
        const op = src.slice(i, i + 3) === "&>>" ? "&>>" : "&>";
        pendingRedirect = op;
        i += op.length;
        continue;
      }
      let op: string;
      if (two === "&&" || two === "||" || two === ";;" || two === "|&" || two === ";&") op = two;
      else op = c;
      if (op === "&") features.add("background");
      if (op === ";;" || op === ";&") features.add("compound");
      if (op === "|&") features.add("pipe-stderr");
      endSegment(op);
      i += op.length;
      continue;
    }
    if (c === "(" || c === ")") {
      if (c === "(" && inWord) {
        // name() { … } — a function definition.
        features.add("function");
      } else {
        features.add("subshell");
      }
      endSegment(c);
      i++;
      continue;
    }
    // Redirections, with an optional fd number written just before them.
    if (c === ">" || c === "<") {
      let fd = "";
      if (inWord && /^[0-9]+$/.test(word) && !dyn) {
        fd = word;
        word = "";
        inWord = false;
      } else {
        endWord();
      }
      let op = c;
      const rest = src.slice(i + 1);
      if (c === ">" && (rest.startsWith(">") || rest.startsWith("|"))) op += rest[0];
      else if (c === "<" && rest.startsWith("<<")) op = "<<<";
      else if (c === "<" && rest.startsWith("<")) op = "<<";
      else if (c === "<" && rest.startsWith(">")) op = "<>";
      i += op.length;
      if (src[i] === "&") {
        // fd duplication: 2>&1, >&2, <&0 — the target is an fd, not a file (or "-" to close).
        let j = i + 1;
        while (j < src.length && /[0-9-]/.test(src[j])) j++;
        const target = src.slice(i + 1, j);
        if (target === "") {
          // >&file is bash for &>file
          pendingRedirect = fd + op + "&";
          i = j;
          continue;
        }
        seg.redirects.push({ op: fd + op + "&" + target, target: "", dynamic: false });
        i = j;
        continue;
      }
      if (op === "<<") {
        features.add("heredoc");
        if (src[i] === "-") i++;
      }
      pendingRedirect = fd + op;
      continue;
    }
    inWord = true;
    if (GLOB.test(c)) glob = true;
    if (c === "~" && word === "") dyn = true;
    if (c === "{" && /[,.]/.test(src.slice(i, src.indexOf("}", i) + 1))) {
      // brace expansion a{b,c} turns one word into several
      if (src.indexOf("}", i) > i) features.add("brace-expansion");
    }
    word += c;
    i++;
  }
  endSegment("");
  if (error) features.add("unparseable");
  for (const s of segments) {
    const first = s.words[0];
    if (first !== undefined && RESERVED.has(first)) features.add("compound");
    if (s.words.some((w, k) => s.glob[k] && GLOB.test(w))) features.add("glob");
  }
  return error === undefined
    ? { segments, nested, features }
    : { segments, nested, features, error };
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
