/** The opaque-code checks of interpreters: program text given inline (opaque.ts lists the forms). */
import {
  type Check,
  cluster,
  isLong,
  leadingOptions,
  longValue,
  OptionWalk,
  REMOTE,
} from "./opaque_options.ts";

// ---- interpreters: inline program text ----

export const SHELLS = new Set([
  "sh",
  "bash",
  "rbash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "lksh",
  "oksh",
  "yash",
  "posh",
  "fish",
  "csh",
  "tcsh",
  "ash",
]);

export const shellCheck: Check = (prog, args) => {
  const { opts } = leadingOptions(
    args,
    (w) => /^[-+][oO]$/.test(w) || w === "--rcfile" || w === "--init-file",
    (w) => (w.startsWith("-") || w.startsWith("+")) && w.length > 1,
  );
  for (const [o] of opts) {
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(o) || isLong(o, "--command")) return `${prog} -c`;
    if (prog === "fish" && (/^-[A-Za-z]*C/.test(o) || isLong(o, "--init-command"))) {
      return "fish -C";
    }
  }
  return undefined;
};

export const NODE_VALUE = new Set([
  "-r",
  "--require",
  "--import",
  "--loader",
  "--experimental-loader",
  "-C",
  "--conditions",
  "--title",
  "--input-type",
]);
export const NODE_LOADERS = ["--require", "--import", "--loader", "--experimental-loader"];

/** node, nodejs, tsx, ts-node, esno: `-e -p --eval --print`, and loaders of remote code. */
export const nodeCheck: Check = (prog, args) => {
  const { opts } = leadingOptions(args, (w) => NODE_VALUE.has(w));
  for (const [o, v] of opts) {
    if (isLong(o, "--eval")) return `${prog} --eval`;
    if (isLong(o, "--print")) return `${prog} --print`;
    const letters = cluster(o);
    for (const ch of letters) {
      if (ch === "e" || ch === "p") return `${prog} -${ch}`;
      if (ch === "r") break;
    }
    const loader = NODE_LOADERS.find((l) => isLong(o, l)) ?? (o === "-r" ? "-r" : undefined);
    if (loader) {
      const value = o.includes("=") ? o.slice(o.indexOf("=") + 1) : v ?? "";
      const scheme = REMOTE.exec(value)?.[1].toLowerCase();
      if (scheme) return `${prog} ${loader} ${scheme}:`;
    }
  }
  return undefined;
};

export const PYTHON = /^(python|pypy)[0-9.]*$/;

/** python -c (alone or at the end of a cluster: `-Ic`, `-c'…'`); -m ends the options. */
export const pythonCheck: Check = (prog, args) => {
  const { opts } = leadingOptions(args, (w) => /^-[A-Za-z]*[WXQ]$/.test(w));
  for (const [o] of opts) {
    const letters = cluster(o) || (o.startsWith("-c") ? "c" : "");
    for (const ch of letters) {
      if (ch === "c") return `${prog} -c`;
      if (ch === "m") return undefined; // a module runs with the rest as its own arguments
      if (ch === "W" || ch === "X" || ch === "Q") break;
    }
  }
  return undefined;
};

/**
 * perl and ruby switch clusters (`-lne`, `-rjson`): `e` (and perl's `E`) is program text; the
 * letters that take the rest of the word as their value end the cluster, and when nothing is
 * attached the next word is the value.
 */
export function clusterCheck(code: string, rest: string, nextValue: string): Check {
  return (prog, args) => {
    const walk = new OptionWalk(args);
    for (let a = walk.next(); a !== undefined; a = walk.next()) {
      const body = a.slice(1);
      for (let i = 0; i < body.length; i++) {
        const ch = body[i];
        if (code.includes(ch)) return `${prog} -${ch}`;
        if (ch === "l" || (ch === "0" && prog !== "ruby")) {
          // -l[octal] and -0[digits]: the digits, then more switches (`-lne`)
          while (/[0-9a-fA-Fx]/.test(body[i + 1] ?? "") && !code.includes(body[i + 1])) i++;
          continue;
        }
        if (rest.includes(ch)) {
          if (i === body.length - 1 && nextValue.includes(ch)) walk.value();
          break;
        }
      }
    }
    return undefined;
  };
}
export const perlCheck = clusterCheck("eE", "CdDFiImMx", "I");
export const rubyCheck = clusterCheck("e", "rIECFxi0WKT", "rIEC");

/** Interpreters whose inline-code flags are whole words: the flags, and the options taking a value. */
export function flagCheck(codeFlags: readonly string[], valueFlags: readonly string[] = []): Check {
  const value = new Set(valueFlags);
  return (prog, args) => {
    for (const [o] of leadingOptions(args, (w) => value.has(w)).opts) {
      const hit = codeFlags.find((f) =>
        o === f || (f.startsWith("--") ? o.startsWith(`${f}=`) : o.startsWith(f) && f.length === 2)
      );
      if (hit) return `${prog} ${hit}`;
    }
    return undefined;
  };
}

/** pwsh / powershell: `-Command`, `-EncodedCommand` and their prefixes, any case. */
export const pwshCheck: Check = (prog, args) => {
  for (const a of args) {
    if (!a.startsWith("-")) continue;
    const p = a.slice(1).toLowerCase();
    if (p === "" || p === "-") continue;
    if ("command".startsWith(p) || "encodedcommand".startsWith(p) || p === "ec") {
      return `${prog} -${"command".startsWith(p) ? "Command" : "EncodedCommand"}`;
    }
  }
  return undefined;
};

/** vi, vim, nvim, ex …: `-c CMD`, `+CMD` (a bare `+42` is a line number), `--cmd`, ex mode on stdin. */
export const vimCheck: Check = (prog, args) => {
  for (const a of args) {
    if (a === "-c" || a === "--cmd") return `${prog} ${a}`;
    if (a.startsWith("+") && !/^\+[0-9]*$/.test(a)) return `${prog} +cmd`;
    if (/^-(e|E|es|Es)$/.test(a)) return `${prog} -e`;
  }
  return undefined;
};

export const emacsCheck: Check = (prog, args) => {
  const hit = args.find((a) =>
    /^--?(eval|execute|funcall)(=|$)/.test(a) || a === "-f" || a === "-x"
  );
  return hit ? `${prog} ${hit.replace(/=.*$/, "")}` : undefined;
};

export const AWK_VALUE = new Set(["-F", "-v", "-f", "-e", "-i", "-l", "-E", "-o"]);

/** awk programs that run commands: `system()`, pipes to or from a command, gawk extensions. */
export const awkCheck: Check = (prog, args) => {
  const programs: string[] = [];
  let fromFile = false;
  const walk = new OptionWalk(args);
  for (let a = walk.next(); a !== undefined; a = walk.next()) {
    if (a === "-l" || a.startsWith("-l") || isLong(a, "--load")) return `${prog} -l`;
    // walk.k is the index of the word after a
    const source = a === "-e" ? args[walk.k] : a.startsWith("-e") ? a.slice(2) : undefined;
    const long = isLong(a, "--source") ? longValue(args, walk.k - 1, "--source") : undefined;
    if (source !== undefined || long !== undefined) programs.push((source ?? long)!);
    if (
      a === "-f" || a.startsWith("-f") || isLong(a, "--file") || a === "-E" || isLong(a, "--exec")
    ) {
      fromFile = true;
    }
    if (AWK_VALUE.has(a) || /^--(source|file|assign|field-separator|include|exec)$/.test(a)) {
      walk.value();
    }
  }
  if (programs.length === 0 && !fromFile && walk.k < args.length) programs.push(args[walk.k]);
  for (const text of programs) {
    if (/\bsystem\s*\(/.test(text)) return `${prog} system()`;
    if (/\|/.test(text.replaceAll("||", ""))) return `${prog} pipe`;
    if (/@load\b/.test(text)) return `${prog} @load`;
  }
  return undefined;
};

/**
 * Could this sed script run a command? GNU sed's `e` command and `s///e` flag do. The reader follows
 * addresses, blocks, text commands and `s`/`y` delimiters; anything it cannot follow counts as yes.
 */
export function sedMayExecute(script: string): boolean {
  const s = script;
  let i = 0;
  const toEol = () => {
    while (i < s.length && s[i] !== "\n") i++;
  };
  /** Skip a delimited part starting after its opening delimiter; false when it never closes. */
  const part = (d: string): boolean => {
    while (i < s.length) {
      if (s[i] === "\\") {
        i += 2;
        continue;
      }
      if (s[i] === d) {
        i++;
        return true;
      }
      if (s[i] === "\n" && d !== "\n") return false;
      i++;
    }
    return false;
  };
  const address = (): boolean => {
    if (/[0-9]/.test(s[i] ?? "")) {
      while (/[0-9~]/.test(s[i] ?? "")) i++;
    } else if (s[i] === "$") i++;
    else if (s[i] === "/") {
      i++;
      if (!part("/")) return false;
      while (/[IM]/.test(s[i] ?? "")) i++;
    } else if (s[i] === "\\") {
      const d = s[i + 1];
      if (d === undefined || d === "\n") return false;
      i += 2;
      if (!part(d)) return false;
      while (/[IM]/.test(s[i] ?? "")) i++;
    }
    return true;
  };
  while (i < s.length) {
    const c = s[i];
    if (/[\s;]/.test(c)) {
      i++;
      continue;
    }
    if (c === "#") {
      toEol();
      continue;
    }
    if (!address()) return true;
    if (s[i] === ",") {
      i++;
      if (s[i] === "+" || s[i] === "~") i++;
      if (!address()) return true;
    }
    while (s[i] === " " || s[i] === "\t" || s[i] === "!") i++;
    const cmd = s[i++];
    if (cmd === undefined) return true;
    if (cmd === "{" || cmd === "}") continue;
    if (cmd === "e") return true;
    if (cmd === "s" || cmd === "y") {
      const d = s[i++];
      if (d === undefined || d === "\n" || d === "\\") return true;
      if (!part(d) || !part(d)) return true;
      if (cmd === "y") continue;
      while (i < s.length && /[gpiImMe0-9w]/.test(s[i])) {
        if (s[i] === "e") return true;
        if (s[i] === "w") {
          toEol();
          break;
        }
        i++;
      }
      continue;
    }
    if ("aic".includes(cmd)) {
      // text to the end of the line, continued by a trailing backslash
      while (i < s.length) {
        const j = s.indexOf("\n", i);
        const line = j < 0 ? s.slice(i) : s.slice(i, j);
        i = j < 0 ? s.length : j + 1;
        if (!line.endsWith("\\")) break;
      }
      continue;
    }
    if ("rRwW".includes(cmd)) {
      toEol();
      continue;
    }
    if ("btT:v".includes(cmd)) {
      while (i < s.length && s[i] !== ";" && s[i] !== "\n") i++;
      continue;
    }
    if ("qQlL".includes(cmd)) {
      while (/[ 0-9]/.test(s[i] ?? "")) i++;
      continue;
    }
    if ("=dDgGhHnNpPxzF".includes(cmd)) continue;
    return true;
  }
  return false;
}

export const sedCheck: Check = (prog, args) => {
  const scripts: string[] = [];
  let fromFile = false;
  const walk = new OptionWalk(args);
  for (let a = walk.next(); a !== undefined; a = walk.next()) {
    if (isLong(a, "--expression")) {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : walk.value();
      if (v !== undefined) scripts.push(v);
      continue;
    }
    if (isLong(a, "--file")) {
      fromFile = true;
      if (!a.includes("=")) walk.value();
      continue;
    }
    if (isLong(a, "--line-length")) {
      if (!a.includes("=")) walk.value();
      continue;
    }
    if (a.startsWith("--")) continue;
    // a short cluster: -n, -E, -i[SUFFIX] (the rest is its suffix), -e SCRIPT, -f FILE, -l N
    const body = a.slice(1);
    for (let j = 0; j < body.length; j++) {
      const ch = body[j];
      if (ch === "i") break;
      if (ch === "e" || ch === "f" || ch === "l") {
        const attached = body.slice(j + 1);
        const v = attached !== "" ? attached : walk.value();
        if (ch === "e" && v !== undefined) scripts.push(v);
        if (ch === "f") fromFile = true;
        break;
      }
    }
  }
  if (scripts.length === 0 && !fromFile && walk.k < args.length) scripts.push(args[walk.k]);
  return scripts.some(sedMayExecute) ? `${prog} e` : undefined;
};
