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
  return new SedReader(script).mayExecute();
}

/** One pass over a sed script; `i` is the only thing that moves. */
class SedReader {
  private i = 0;
  constructor(private readonly s: string) {}

  mayExecute(): boolean {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      if (/[\s;]/.test(c)) {
        this.i++;
        continue;
      }
      if (c === "#") {
        this.toEol();
        continue;
      }
      if (!this.addresses()) return true;
      while (s[this.i] === " " || s[this.i] === "\t" || s[this.i] === "!") this.i++;
      const cmd = s[this.i++];
      if (cmd === undefined || this.command(cmd)) return true;
    }
    return false;
  }

  /** Skip the rest of one command after its letter; true when it may run a command. */
  private command(cmd: string): boolean {
    const s = this.s;
    if (cmd === "{" || cmd === "}") return false;
    if (cmd === "e") return true;
    if (cmd === "s" || cmd === "y") return this.substitution(cmd);
    if ("aic".includes(cmd)) {
      this.text();
      return false;
    }
    if ("rRwW".includes(cmd)) {
      this.toEol();
      return false;
    }
    if ("btT:v".includes(cmd)) {
      while (this.i < s.length && s[this.i] !== ";" && s[this.i] !== "\n") this.i++;
      return false;
    }
    if ("qQlL".includes(cmd)) {
      while (/[ 0-9]/.test(s[this.i] ?? "")) this.i++;
      return false;
    }
    return !"=dDgGhHnNpPxzF".includes(cmd);
  }

  /** `s` and `y` after the letter: delimiter, two parts, and for `s` its flags (`e` runs one). */
  private substitution(cmd: "s" | "y"): boolean {
    const s = this.s;
    const d = s[this.i++];
    if (d === undefined || d === "\n" || d === "\\") return true;
    if (!this.part(d) || !this.part(d)) return true;
    if (cmd === "y") return false;
    while (this.i < s.length && /[gpiImMe0-9w]/.test(s[this.i])) {
      if (s[this.i] === "e") return true;
      if (s[this.i] === "w") {
        this.toEol();
        break;
      }
      this.i++;
    }
    return false;
  }

  /** `a`, `i`, `c` text: to the end of the line, continued by a trailing backslash. */
  private text(): void {
    const s = this.s;
    while (this.i < s.length) {
      const j = s.indexOf("\n", this.i);
      const line = j < 0 ? s.slice(this.i) : s.slice(this.i, j);
      this.i = j < 0 ? s.length : j + 1;
      if (!line.endsWith("\\")) break;
    }
  }

  /** One address or a range of two; false when a delimited one never closes. */
  private addresses(): boolean {
    if (!this.address()) return false;
    if (this.s[this.i] === ",") {
      this.i++;
      if (this.s[this.i] === "+" || this.s[this.i] === "~") this.i++;
      if (!this.address()) return false;
    }
    return true;
  }

  private address(): boolean {
    const s = this.s;
    if (/[0-9]/.test(s[this.i] ?? "")) {
      while (/[0-9~]/.test(s[this.i] ?? "")) this.i++;
    } else if (s[this.i] === "$") this.i++;
    else if (s[this.i] === "/") {
      this.i++;
      if (!this.part("/")) return false;
      while (/[IM]/.test(s[this.i] ?? "")) this.i++;
    } else if (s[this.i] === "\\") {
      const d = s[this.i + 1];
      if (d === undefined || d === "\n") return false;
      this.i += 2;
      if (!this.part(d)) return false;
      while (/[IM]/.test(s[this.i] ?? "")) this.i++;
    }
    return true;
  }

  /** Skip a delimited part starting after its opening delimiter; false when it never closes. */
  private part(d: string): boolean {
    const s = this.s;
    while (this.i < s.length) {
      if (s[this.i] === "\\") {
        this.i += 2;
        continue;
      }
      if (s[this.i] === d) {
        this.i++;
        return true;
      }
      if (s[this.i] === "\n" && d !== "\n") return false;
      this.i++;
    }
    return false;
  }

  private toEol(): void {
    while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
  }
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
