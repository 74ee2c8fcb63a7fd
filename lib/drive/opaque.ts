/**
 * Code that runs code: the command forms whose effect the danger rules cannot read, so no allowlist
 * prefix may approve them (DESIGN §6). `node -e "…"` is as good as a shell; so are `git -c
 * core.pager=…`, `npx <package>` (code fetched from a registry), `awk 'BEGIN{system(…)}'`, `ssh host
 * CMD`. drover cannot judge program text, so it does not pretend to: an opaque command escalates
 * whatever prefix entry matches it, and only an allow entry equal to the whole command approves it.
 *
 * The forms (docs/cron.md "What drover cannot see into" lists them for users):
 * - inline program text: shells' `-c`; `node`/`tsx`/`ts-node`/`bun` `-e -p --eval --print` (and
 *   `node --import data:…`); `python -c`; `perl -e -E`; `ruby -e`; `php -r -R -B -E`; `lua -e`;
 *   `deno eval`, `deno repl --eval`, `deno run` of a URL, a registry package or stdin; `osascript
 *   -e`; `Rscript`/`R`/`julia`/`elixir` `-e`, `erl -eval`; `pwsh -c`/`-EncodedCommand`; `expect -c`;
 *   `gdb -ex`, `lldb -o`; `vim -c`/`+cmd`/`--cmd`/`-e`; `emacs --eval`; awk programs that call
 *   `system()`, pipe (`print | "cmd"`, `"cmd" | getline`) or `@load`, and `gawk -l`; sed scripts
 *   with the `e` command or the `s///e` flag (or that this reader cannot follow);
 * - commands given as text or built from input: `eval`, `trap`, `watch`, `parallel`, `at`,
 *   `batch`, `script -c`, `flock -c`, `env -S`, `xargs`, `find -exec/-execdir/-ok/-okdir`, `ssh
 *   HOST CMD` and its `-o ProxyCommand` kin, `scp -S`, `sftp -S/-D/-b`, `rsync -e/--rsh/
 *   --rsync-path`, `tar --to-command/--checkpoint-action/-I/-F/--use-compress-program/…`, `zip
 *   -TT`, `make --eval`/`-E`/`-f -`/`SHELL=`, `tmux -c` and the tmux commands that run or type a
 *   command (`send-keys`, `run-shell`, `new-window`, …);
 * - git configuration on the command line (`-c`, `--config-env`, `--exec-path=`), `git config`
 *   of a key that names a command or of a `!` alias, and the subcommands that run one (`rebase
 *   --exec`, `bisect run`, `submodule foreach`, `difftool --extcmd`, `grep -O`, `--upload-pack`,
 *   `--receive-pack`, `send-email --…-cmd`);
 * - package runners: `npx`, `npm exec`/`x`/`create`/`explore`/`init <initializer>`, `pnpm
 *   dlx`/`exec`/`create`, `pnpx`, `yarn dlx`/`exec`/`create`, `bunx`, `bun x`/`create`, `deno x`,
 *   `dx`, `uvx`, `uv tool run`, `pipx run`, `gem exec`, `go run pkg@version`, `nix run`, `dnx`;
 * - a variable that injects code in front of a command (`LD_PRELOAD=`, `NODE_OPTIONS=`,
 *   `GIT_SSH_COMMAND=`, `PAGER=`, `PATH=` …).
 *
 * Like the danger rules it is over-eager: a form is looked for wherever its program's name appears
 * among a command's words (`docker run img node -e …` counts). A false alarm costs an escalation.
 * Programs that are opaque by their name alone (`xargs`, `eval`, `npx` …) count only where a
 * command starts (first word, or after a wrapper such as `timeout` or `env`), so `echo look at
 * this` stays plain words.
 */
import { baseName, isAssignment, type ParsedShell, parseShell } from "./shell_words.ts";

export interface Opaque {
  /** The form as escalations name it: "node -e", "git -c", "npx", "awk system()". */
  form: string;
  /** The words of the simple command it was found in. */
  detail: string;
}

/** One program's check: its arguments → the form they make opaque, if any. */
type Check = (prog: string, args: readonly string[]) => string | undefined;

// ---- reading options ----

/**
 * The options in front of the first operand, each with its value when it takes one as the next
 * word (`takesValue`). "--" ends them; `isOption` says what counts as an option word.
 */
function leadingOptions(
  args: readonly string[],
  takesValue: (w: string) => boolean = () => false,
  isOption: (w: string) => boolean = (w) => w.startsWith("-") && w !== "-",
): { opts: [string, string | undefined][]; operand: number } {
  const opts: [string, string | undefined][] = [];
  let k = 0;
  while (k < args.length) {
    const a = args[k];
    if (a === "--") {
      k++;
      break;
    }
    if (!isOption(a)) break;
    if (takesValue(a) && k + 1 < args.length) {
      opts.push([a, args[k + 1]]);
      k += 2;
    } else {
      opts.push([a, undefined]);
      k++;
    }
  }
  return { opts, operand: k };
}

/** `--name` or `--name=value`. */
const isLong = (w: string, name: string) => w === name || w.startsWith(`${name}=`);

/** The value of `--name=value`, or of `--name value` (the word after it). */
function longValue(args: readonly string[], k: number, name: string): string | undefined {
  const w = args[k];
  if (w.startsWith(`${name}=`)) return w.slice(name.length + 1);
  return w === name ? args[k + 1] : undefined;
}

/** A short-option cluster: "-rf" → "rf"; "" for anything else. */
const cluster = (w: string) => (/^-[A-Za-z0-9]+$/.test(w) ? w.slice(1) : "");

const REMOTE = /^(https?|npm|jsr|data):/i;
/** "https:" for a remote specifier, or for an option's value after `=` (`--import-map=https:…`). */
function remoteScheme(w: string): string | undefined {
  const v = w.startsWith("-") && w.includes("=") ? w.slice(w.indexOf("=") + 1) : w;
  const m = REMOTE.exec(v);
  return m ? `${m[1].toLowerCase()}:` : undefined;
}

// ---- interpreters: inline program text ----

const SHELLS = new Set([
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

const shellCheck: Check = (prog, args) => {
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

const NODE_VALUE = new Set([
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
const NODE_LOADERS = ["--require", "--import", "--loader", "--experimental-loader"];

/** node, nodejs, tsx, ts-node, esno: `-e -p --eval --print`, and loaders of remote code. */
const nodeCheck: Check = (prog, args) => {
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

const PYTHON = /^(python|pypy)[0-9.]*$/;

/** python -c (alone or at the end of a cluster: `-Ic`, `-c'…'`); -m ends the options. */
const pythonCheck: Check = (prog, args) => {
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
function clusterCheck(code: string, rest: string, nextValue: string): Check {
  return (prog, args) => {
    let k = 0;
    while (k < args.length) {
      const a = args[k];
      if (a === "--" || !a.startsWith("-") || a === "-") break;
      k++;
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
          if (i === body.length - 1 && nextValue.includes(ch)) k++;
          break;
        }
      }
    }
    return undefined;
  };
}
const perlCheck = clusterCheck("eE", "CdDFiImMx", "I");
const rubyCheck = clusterCheck("e", "rIECFxi0WKT", "rIEC");

/** Interpreters whose inline-code flags are whole words: the flags, and the options taking a value. */
function flagCheck(codeFlags: readonly string[], valueFlags: readonly string[] = []): Check {
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
const pwshCheck: Check = (prog, args) => {
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
const vimCheck: Check = (prog, args) => {
  for (const a of args) {
    if (a === "-c" || a === "--cmd") return `${prog} ${a}`;
    if (a.startsWith("+") && !/^\+[0-9]*$/.test(a)) return `${prog} +cmd`;
    if (/^-(e|E|es|Es)$/.test(a)) return `${prog} -e`;
  }
  return undefined;
};

const emacsCheck: Check = (prog, args) => {
  const hit = args.find((a) =>
    /^--?(eval|execute|funcall)(=|$)/.test(a) || a === "-f" || a === "-x"
  );
  return hit ? `${prog} ${hit.replace(/=.*$/, "")}` : undefined;
};

const AWK_VALUE = new Set(["-F", "-v", "-f", "-e", "-i", "-l", "-E", "-o"]);

/** awk programs that run commands: `system()`, pipes to or from a command, gawk extensions. */
const awkCheck: Check = (prog, args) => {
  const programs: string[] = [];
  let fromFile = false;
  let k = 0;
  while (k < args.length) {
    const a = args[k];
    if (a === "--") {
      k++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    if (a === "-l" || a.startsWith("-l") || isLong(a, "--load")) return `${prog} -l`;
    const source = a === "-e" ? args[k + 1] : a.startsWith("-e") ? a.slice(2) : undefined;
    const long = isLong(a, "--source") ? longValue(args, k, "--source") : undefined;
    if (source !== undefined || long !== undefined) programs.push((source ?? long)!);
    if (
      a === "-f" || a.startsWith("-f") || isLong(a, "--file") || a === "-E" || isLong(a, "--exec")
    ) {
      fromFile = true;
    }
    k += AWK_VALUE.has(a) || /^--(source|file|assign|field-separator|include|exec)$/.test(a)
      ? 2
      : 1;
  }
  if (programs.length === 0 && !fromFile && k < args.length) programs.push(args[k]);
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

const sedCheck: Check = (prog, args) => {
  const scripts: string[] = [];
  let fromFile = false;
  let k = 0;
  while (k < args.length) {
    const a = args[k];
    if (a === "--") {
      k++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    k++;
    if (isLong(a, "--expression")) {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[k++];
      if (v !== undefined) scripts.push(v);
      continue;
    }
    if (isLong(a, "--file")) {
      fromFile = true;
      if (!a.includes("=")) k++;
      continue;
    }
    if (isLong(a, "--line-length")) {
      if (!a.includes("=")) k++;
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
        const v = attached !== "" ? attached : args[k++];
        if (ch === "e" && v !== undefined) scripts.push(v);
        if (ch === "f") fromFile = true;
        break;
      }
    }
  }
  if (scripts.length === 0 && !fromFile && k < args.length) scripts.push(args[k]);
  return scripts.some(sedMayExecute) ? `${prog} e` : undefined;
};

// ---- commands given as text, or built from input ----

const findCheck: Check = (prog, args) => {
  const hit = args.find((a) => /^-(exec|execdir|ok|okdir)$/.test(a));
  return hit ? `${prog} ${hit}` : undefined;
};

const envCheck: Check = (prog, args) => {
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === "--") break;
    if (!a.startsWith("-") && !isAssignment(a)) break;
    if (/^-[A-Za-z0-9]*S/.test(a) || isLong(a, "--split-string")) return `${prog} -S`;
    if (a === "-u" || a === "-C" || a === "--unset" || a === "--chdir") k++;
  }
  return undefined;
};

const MAKE_SHELL = /^(SHELL|\.SHELLFLAGS|MAKESHELL|MAKEFLAGS)\+?=/;
const makeCheck: Check = (prog, args) => {
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (isLong(a, "--eval") || a === "-E" || /^-E./.test(a)) return `${prog} --eval`;
    const file = a === "-f"
      ? args[k + 1]
      : isLong(a, "--file") || isLong(a, "--makefile")
      ? longValue(args, k, a.startsWith("--file") ? "--file" : "--makefile")
      : /^-f./.test(a)
      ? a.slice(2)
      : undefined;
    if (file === "-" || file === "/dev/stdin" || file?.startsWith("/dev/fd/")) {
      return `${prog} -f -`;
    }
    if (MAKE_SHELL.test(a)) return `${prog} ${a.slice(0, a.indexOf("=") + 1)}`;
  }
  return undefined;
};

const TAR_LONG = [
  "--to-command",
  "--checkpoint-action",
  "--use-compress-program",
  "--info-script",
  "--new-volume-script",
  "--rsh-command",
];
const tarCheck: Check = (prog, args) => {
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    const long = TAR_LONG.find((l) => isLong(a, l));
    if (long) return `${prog} ${long}`;
    // -I PROG / -F SCRIPT, alone or in a cluster; old-style keys ("xIf") as the first word too
    const letters = a.startsWith("--") ? "" : a.startsWith("-") ? a.slice(1) : k === 0 ? a : "";
    if (/^[A-Za-z]*[IF]/.test(letters)) return `${prog} -${/^[A-Za-z]*?([IF])/.exec(letters)![1]}`;
  }
  return undefined;
};

const zipCheck: Check = (prog, args) =>
  args.some((a) => a === "-TT" || isLong(a, "--unzip-command")) ? `${prog} -TT` : undefined;

const rsyncCheck: Check = (prog, args) => {
  for (const a of args) {
    if (isLong(a, "--rsh")) return `${prog} --rsh`;
    if (isLong(a, "--rsync-path")) return `${prog} --rsync-path`;
    if (isLong(a, "--remote-option")) return `${prog} --remote-option`;
    if (/^-[A-Za-z]+$/.test(a) && /[eM]/.test(a)) return `${prog} -${/[eM]/.exec(a)![0]}`;
  }
  return undefined;
};

const SSH_COMMAND_OPTION =
  /^\s*(proxycommand|localcommand|knownhostscommand|remotecommand|permitlocalcommand)\b/i;

/**
 * ssh-family options: `-o Key=value` options that run a local command, program-path options
 * (`programFlags`), and for ssh itself a remote command after the destination.
 */
function sshLike(valueLetters: string, programFlags: string, remoteCommand: boolean): Check {
  return (prog, args) => {
    let k = 0;
    while (k < args.length) {
      const a = args[k];
      if (a === "--") {
        k++;
        break;
      }
      if (!a.startsWith("-") || a === "-") break;
      k++;
      const body = a.slice(1);
      for (let j = 0; j < body.length; j++) {
        const ch = body[j];
        if (!valueLetters.includes(ch)) continue;
        const value = j + 1 < body.length ? body.slice(j + 1) : args[k++] ?? "";
        if (ch === "o" && SSH_COMMAND_OPTION.test(value)) {
          return `${prog} -o ${SSH_COMMAND_OPTION.exec(value)![1]}`;
        }
        if (programFlags.includes(ch)) return `${prog} -${ch}`;
        break;
      }
    }
    return remoteCommand && args.length > k + 1 ? `${prog} HOST COMMAND` : undefined;
  };
}
const sshCheck = sshLike("BbcDEeFIiJLlmOoPpQRSWw", "", true);
const scpCheck = sshLike("cDFiJlloPSX", "S", false);
const sftpCheck = sshLike("aBbcDFiJlloPRS", "SDb", false);

const TMUX_RUNS = new Set([
  "send-keys",
  "send",
  "run-shell",
  "run",
  "if-shell",
  "if",
  "new-session",
  "new",
  "new-window",
  "neww",
  "split-window",
  "splitw",
  "respawn-pane",
  "respawnp",
  "respawn-window",
  "respawnw",
  "pipe-pane",
  "pipep",
  "display-popup",
  "popup",
  "source-file",
  "source",
  "set-hook",
  "bind-key",
  "bind",
  "command-prompt",
  "confirm-before",
  "confirm",
]);
const tmuxCheck: Check = (prog, args) => {
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === "-c") return `${prog} -c`;
    if (a === "-L" || a === "-S" || a === "-f" || a === "-T") {
      k++;
      continue;
    }
    if (TMUX_RUNS.has(a)) return `${prog} ${a}`;
  }
  return undefined;
};

const dashC: Check = (prog, args) =>
  args.some((a) => a === "-c" || isLong(a, "--command") || /^-[A-Za-z]*c$/.test(a))
    ? `${prog} -c`
    : undefined;

/** Programs opaque by their name alone (where a command starts): the form is the name. */
const always: Check = (prog) => prog;

// ---- git ----

const GIT_VALUE_OPTS = new Set(["-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix"]);
/** `git config` keys whose value is a command, a program or a file of more configuration. */
const GIT_EXEC_KEY = new RegExp(
  "^(alias\\..+|include\\.path|includeif\\..+\\.path|core\\.(pager|editor|sshcommand|fsmonitor|" +
    "hookspath|askpass|gitproxy|alternaterefscommand|worktree)|sequence\\.editor|diff\\.external|" +
    "diff\\..+\\.(command|textconv)|merge\\..+\\.driver|filter\\..+\\.(clean|smudge|process)|" +
    "credential\\.(.+\\.)?helper|gpg\\.(.+\\.)?program|pager\\..+|(diff|merge)tool\\..+\\.cmd|" +
    "browser\\..+\\.(cmd|path)|web\\.browser|sendemail\\.(sendmailcmd|smtpserver|tocmd|cccmd|" +
    "headercmd)|uploadpack\\.packobjectshook|remote\\..+\\.(uploadpack|receivepack)|" +
    "init\\.templatedir|protocol\\..+\\.allow)$",
  "i",
);

const gitCheck: Check = (prog, args) => {
  let k = 0;
  while (k < args.length && args[k].startsWith("-")) {
    const a = args[k];
    if (a === "-c" || /^-c./.test(a)) return `${prog} -c`;
    if (isLong(a, "--config-env")) return `${prog} --config-env`;
    if (a.startsWith("--exec-path=")) return `${prog} --exec-path`;
    if (GIT_VALUE_OPTS.has(a)) k++;
    k++;
  }
  const sub = args[k];
  const rest = args.slice(k + 1);
  const has = (...names: string[]) => rest.some((r) => names.some((n) => isLong(r, n)));
  switch (sub) {
    case "config": {
      if (rest.some((r) => r.startsWith("!"))) return `${prog} alias !`;
      const operands = rest.filter((r) => !r.startsWith("-") && r !== "set");
      const key = operands[0];
      const writes = operands.length >= 2 || has("--add", "--replace-all") || rest[0] === "set";
      if (key !== undefined && writes && GIT_EXEC_KEY.test(key)) return `${prog} config ${key}`;
      return undefined;
    }
    case "rebase":
      return has("--exec") || rest.some((r) => /^-[A-Za-z]*x/.test(r))
        ? `${prog} rebase --exec`
        : undefined;
    case "bisect":
      return rest[0] === "run" ? `${prog} bisect run` : undefined;
    case "submodule":
      return rest.includes("foreach") ? `${prog} submodule foreach` : undefined;
    case "difftool":
    case "mergetool":
      return has("--extcmd") || rest.includes("-x") ? `${prog} ${sub} --extcmd` : undefined;
    case "grep":
      return has("--open-files-in-pager") || rest.some((r) => /^-O/.test(r))
        ? `${prog} grep -O`
        : undefined;
    case "send-email": {
      const cmd = rest.find((r) =>
        /^--(sendmail-cmd|smtp-server|to-cmd|cc-cmd|header-cmd)/.test(r)
      );
      return cmd ? `${prog} send-email ${cmd.replace(/=.*$/, "")}` : undefined;
    }
  }
  const pack = rest.find((r) => /^--(upload-pack|receive-pack|exec)(=|$)/.test(r));
  if (pack) return `${prog} ${sub} ${pack.replace(/=.*$/, "")}`;
  if ((sub === "clone" || sub === "ls-remote") && rest.includes("-u")) {
    return `${prog} ${sub} --upload-pack`;
  }
  return undefined;
};

// ---- package managers and runners ----

/**
 * A package manager's subcommand is its first operand that names one (an operand it does not know
 * may be an option's value, so the scan goes on past it): a runner is opaque, a known subcommand
 * (`run`, `test`, `install` …) ends the scan. `operand` runners are opaque only with an operand
 * after them (`npm init` alone makes a package.json; `npm init vite` runs create-vite).
 */
function packageManager(
  runners: readonly string[],
  operandRunners: readonly string[],
  known: readonly string[],
  codeOptions: readonly string[] = [],
): Check {
  const knownSet = new Set(known);
  return (prog, args) => {
    const end = args.indexOf("--");
    for (const a of end < 0 ? args : args.slice(0, end)) {
      const opt = codeOptions.find((o) => isLong(a, o));
      if (opt) return `${prog} ${opt}`;
    }
    for (let k = 0; k < args.length; k++) {
      const a = args[k];
      if (a === "--") return undefined;
      if (a.startsWith("-")) continue;
      if (runners.includes(a)) return `${prog} ${a}`;
      if (operandRunners.includes(a)) {
        const next = args.slice(k + 1).find((x) => !x.startsWith("-"));
        return next === undefined ? undefined : `${prog} ${a} <package>`;
      }
      if (knownSet.has(a)) return undefined;
    }
    return undefined;
  };
}

const NPM_KNOWN = [
  "run",
  "run-script",
  "rum",
  "urn",
  "test",
  "t",
  "tst",
  "start",
  "stop",
  "restart",
  "install",
  "i",
  "in",
  "add",
  "ci",
  "clean-install",
  "install-test",
  "it",
  "uninstall",
  "un",
  "remove",
  "rm",
  "r",
  "update",
  "up",
  "upgrade",
  "audit",
  "outdated",
  "ls",
  "list",
  "ll",
  "la",
  "view",
  "v",
  "info",
  "show",
  "pack",
  "publish",
  "version",
  "help",
  "config",
  "cache",
  "doctor",
  "fund",
  "link",
  "ln",
  "prune",
  "rebuild",
  "rb",
  "root",
  "bin",
  "prefix",
  "search",
  "owner",
  "whoami",
  "login",
  "logout",
  "ping",
  "pkg",
  "query",
  "dedupe",
  "diff",
  "dist-tag",
  "docs",
  "home",
  "bugs",
  "deprecate",
  "unpublish",
  "shrinkwrap",
  "sbom",
  "explain",
  "why",
  "repo",
];
const npmCheck = packageManager(
  ["exec", "x", "create", "explore"],
  ["init", "innit"],
  NPM_KNOWN,
  ["--script-shell", "--node-options"],
);
const pnpmCheck = packageManager(["dlx", "exec", "create"], [], [
  ...NPM_KNOWN,
  "import",
  "fetch",
  "store",
  "env",
  "setup",
  "patch",
  "deploy",
  "licenses",
  "server",
  "init",
]);
const yarnCheck = packageManager(["dlx", "exec", "create"], [], [
  ...NPM_KNOWN,
  "workspaces",
  "plugin",
  "set",
  "npm",
  "init",
  "node",
]);
/** bun: inline code (`-e -p --eval --print`, anywhere before `--`), `bun x`, `bun create`. */
const bunCheck: Check = (prog, args) => {
  for (const a of args) {
    if (a === "--") break;
    if (a === "-e" || a === "-p" || isLong(a, "--eval") || isLong(a, "--print")) {
      return `${prog} ${a.replace(/=.*$/, "")}`;
    }
  }
  return packageManager(["x", "create", "c"], [], [...NPM_KNOWN, "build", "pm", "init"])(
    prog,
    args,
  );
};

/** deno: `eval`, `x`, `repl --eval`, and running a URL, a registry package or stdin. */
const denoCheck: Check = (prog, args) => {
  let k = 0;
  while (k < args.length && args[k].startsWith("-") && args[k] !== "-") k++;
  const sub = args[k];
  if (sub === undefined) return undefined;
  if (sub === "eval" || sub === "x") return `${prog} ${sub}`;
  if (sub === "repl") {
    return args.slice(k + 1).some((a) => /^--eval(-file)?(=|$)/.test(a))
      ? `${prog} repl --eval`
      : undefined;
  }
  const runs = ["run", "serve", "test", "bench"].includes(sub);
  const words = runs ? args.slice(k + 1) : [sub];
  for (const a of words) {
    if (a === "--") break;
    if (a === "-") return `${prog} ${runs ? `${sub} ` : ""}-`;
    const scheme = remoteScheme(a);
    if (scheme) return `${prog} ${runs ? `${sub} ` : ""}${scheme}`;
  }
  return undefined;
};

function subcommandRunner(sub: readonly string[]): Check {
  return (prog, args) => {
    const ops = args.filter((a) => !a.startsWith("-"));
    return sub.every((s, i) => ops[i] === s) ? `${prog} ${sub.join(" ")}` : undefined;
  };
}

const uvCheck: Check = (prog, args) => {
  const ops = args.filter((a) => !a.startsWith("-"));
  if (ops[0] === "tool" && ops[1] === "run") return `${prog} tool run`;
  if (ops[0] === "run" && ops.slice(1).some((a) => /^https?:/i.test(a))) {
    return `${prog} run https:`;
  }
  return undefined;
};

const goCheck: Check = (prog, args) => {
  const ops = args.filter((a) => !a.startsWith("-"));
  if (ops[0] === "run" && ops.slice(1).some((a) => /^[^=]+@[^/]/.test(a))) {
    return `${prog} run pkg@version`;
  }
  if ((ops[0] === "run" || ops[0] === "test") && args.some((a) => isLong(a, "-exec"))) {
    return `${prog} ${ops[0]} -exec`;
  }
  return undefined;
};

const nixCheck: Check = (prog, args) => {
  const ops = args.filter((a) => !a.startsWith("-"));
  if (ops[0] === "run") return `${prog} run`;
  if (
    (ops[0] === "shell" || ops[0] === "develop") &&
    args.some((a) => a === "-c" || isLong(a, "--command"))
  ) {
    return `${prog} ${ops[0]} --command`;
  }
  return undefined;
};

const nixShellCheck: Check = (prog, args) => {
  const hit = args.find((a) => isLong(a, "--run") || isLong(a, "--command"));
  return hit ? `${prog} ${hit.replace(/=.*$/, "")}` : undefined;
};

const dotnetCheck: Check = (prog, args) => {
  const ops = args.filter((a) => !a.startsWith("-"));
  if (ops[0] === "dnx" || (ops[0] === "tool" && ops[1] === "exec")) return `${prog} ${ops[0]}`;
  return undefined;
};

// ---- the table ----

interface Family {
  names: readonly string[];
  check: Check;
  /** Opaque by name alone: looked for only where a command starts. */
  byName?: boolean;
}

const FAMILIES: Family[] = [
  { names: [...SHELLS], check: shellCheck },
  { names: ["node", "nodejs", "tsx", "ts-node", "esno"], check: nodeCheck },
  { names: ["perl"], check: perlCheck },
  { names: ["ruby"], check: rubyCheck },
  {
    names: ["php"],
    check: flagCheck(["-r", "-R", "-B", "-E"], ["-d", "-c", "-f", "-z", "-t", "-S", "-F"]),
  },
  { names: ["lua", "luajit"], check: flagCheck(["-e"], ["-l", "-j"]) },
  { names: ["osascript"], check: flagCheck(["-e"], ["-l", "-s"]) },
  { names: ["Rscript", "R"], check: flagCheck(["-e"]) },
  { names: ["julia"], check: flagCheck(["-e", "--eval", "-E", "--print"], ["-L", "--load"]) },
  { names: ["elixir", "iex"], check: flagCheck(["-e", "--eval"], ["-r", "--erl"]) },
  { names: ["erl"], check: (p, a) => (a.includes("-eval") ? `${p} -eval` : undefined) },
  { names: ["pwsh", "powershell", "pwsh-preview"], check: pwshCheck },
  { names: ["expect"], check: flagCheck(["-c"]) },
  {
    names: ["gdb"],
    check: (p, a) => {
      const hit = a.find((x) => /^--?(ex|iex|eval-command|init-eval-command)(=|$)/.test(x));
      return hit ? `${p} ${hit.replace(/=.*$/, "")}` : undefined;
    },
  },
  {
    names: ["lldb"],
    check: (p, a) => {
      const hit = a.find((x) => /^(-o|-O|-k|-K|--one-line.*|--source.*)$/.test(x));
      return hit ? `${p} ${hit.replace(/=.*$/, "")}` : undefined;
    },
  },
  {
    names: ["vi", "vim", "nvim", "ex", "view", "vimdiff", "gvim", "gview", "evim", "rvim"],
    check: vimCheck,
  },
  { names: ["emacs", "emacsclient"], check: emacsCheck },
  { names: ["awk", "gawk", "mawk", "nawk", "original-awk", "goawk"], check: awkCheck },
  { names: ["sed", "gsed"], check: sedCheck },
  { names: ["find", "gfind"], check: findCheck },
  { names: ["env"], check: envCheck },
  { names: ["make", "gmake"], check: makeCheck },
  { names: ["tar", "gtar", "bsdtar"], check: tarCheck },
  { names: ["zip"], check: zipCheck },
  { names: ["rsync"], check: rsyncCheck },
  { names: ["ssh"], check: sshCheck },
  { names: ["scp"], check: scpCheck },
  { names: ["sftp"], check: sftpCheck },
  { names: ["tmux"], check: tmuxCheck },
  { names: ["script", "flock"], check: dashC },
  { names: ["git"], check: gitCheck },
  { names: ["npm"], check: npmCheck },
  { names: ["pnpm"], check: pnpmCheck },
  { names: ["yarn"], check: yarnCheck },
  { names: ["bun"], check: bunCheck },
  { names: ["deno"], check: denoCheck },
  { names: ["uv"], check: uvCheck },
  { names: ["pipx"], check: subcommandRunner(["run"]) },
  { names: ["gem"], check: subcommandRunner(["exec"]) },
  { names: ["go"], check: goCheck },
  { names: ["nix"], check: nixCheck },
  { names: ["nix-shell"], check: nixShellCheck },
  { names: ["dotnet"], check: dotnetCheck },
  {
    names: [
      "npx",
      "pnpx",
      "bunx",
      "uvx",
      "dx",
      "dnx",
      "xargs",
      "eval",
      "trap",
      "watch",
      "parallel",
      "at",
      "batch",
    ],
    check: always,
    byName: true,
  },
];

const CHECKS = new Map<string, Family>();
for (const f of FAMILIES) for (const n of f.names) CHECKS.set(n, f);

function familyOf(prog: string): Family | undefined {
  return CHECKS.get(prog) ??
    (PYTHON.test(prog) ? { names: [prog], check: pythonCheck } : undefined);
}

/** Wrappers: programs that run the rest of their words as a command (`timeout 5 make`). */
export const WRAPPERS = new Set([
  "env",
  "nohup",
  "nice",
  "ionice",
  "timeout",
  "stdbuf",
  "setsid",
  "exec",
  "command",
  "builtin",
  "time",
  "unbuffer",
  "chrt",
  "taskset",
  "flock",
  "strace",
  "ltrace",
  "caffeinate",
  "chroot",
  "sg",
  "sudo",
  "doas",
  "runuser",
  "firejail",
  "systemd-run",
  "cross-env",
  "dotenv",
]);

/** Variables that make a program run other code (a library, an option, a pager, a PATH). */
const CODE_VARIABLES = new RegExp(
  "^(LD_PRELOAD|LD_AUDIT|LD_LIBRARY_PATH|DYLD_INSERT_LIBRARIES|DYLD_LIBRARY_PATH|NODE_OPTIONS|" +
    "BASH_ENV|PROMPT_COMMAND|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|PYTHONPATH|PYTHONHOME|PATH|PAGER|MANPAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|SSH_ASKPASS|" +
    "GIT_(CONFIG|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_GLOBAL|CONFIG_SYSTEM|CONFIG_KEY_[0-9]+|" +
    "CONFIG_VALUE_[0-9]+|PAGER|EDITOR|SEQUENCE_EDITOR|SSH|SSH_COMMAND|EXTERNAL_DIFF|ASKPASS|" +
    "EXEC_PATH|TEMPLATE_DIR|PROXY_COMMAND)|npm_config_(script_shell|node_options)|" +
    "NPM_CONFIG_(SCRIPT_SHELL|NODE_OPTIONS))\\+?=",
);

/** The opaque form of one simple command's words, if it has one. */
export function opaqueWords(words: readonly string[]): string | undefined {
  // Assignments in front of the command (and after `env` and its options) set its environment.
  let env = false;
  for (const w of words) {
    if (isAssignment(w)) {
      if (CODE_VARIABLES.test(w)) return w.slice(0, w.indexOf("=") + 1);
      continue;
    }
    if (baseName(w) === "env" || (env && w.startsWith("-"))) {
      env = true;
      continue;
    }
    break;
  }
  let wrapped = false;
  let start = 0;
  while (start < words.length && isAssignment(words[start])) start++;
  for (let i = start; i < words.length; i++) {
    const prog = baseName(words[i]);
    const family = familyOf(prog);
    if (family && (!family.byName || i === start || wrapped)) {
      const form = family.check(prog, words.slice(i + 1));
      if (form) return form;
    }
    if (WRAPPERS.has(prog) || /^-(exec|execdir|ok|okdir)$/.test(words[i])) wrapped = true;
  }
  return undefined;
}

function opaqueIn(p: ParsedShell, depth: number): Opaque | undefined {
  for (const seg of p.segments) {
    const form = opaqueWords(seg.words);
    if (form) return { form, detail: seg.words.join(" ") };
  }
  if (depth >= 8) return undefined;
  for (const body of p.nested) {
    const o = opaqueIn(parseShell(body), depth + 1);
    if (o) return o;
  }
  return undefined;
}

/** The first opaque form in a command line (its substitutions included), if any. */
export function findOpaque(command: string): Opaque | undefined {
  return opaqueIn(parseShell(command), 0);
}

// ---- what an allow entry that names only an interpreter or runner approves ----

interface Reach {
  approves: string;
  never: string;
}

const INTERPRETER = (p: string, flags: string): Reach => ({
  approves: `\`${p} FILE …\` (a script from the worktree)`,
  never: `inline code (${flags})`,
});

function reachOf(p: string): Reach | undefined {
  if (SHELLS.has(p)) return INTERPRETER(p, `\`${p} -c …\``);
  if (PYTHON.test(p)) {
    return {
      approves: `\`${p} FILE …\`, \`${p} -m MODULE …\``,
      never: `inline code (\`${p} -c\`)`,
    };
  }
  switch (p) {
    case "node":
    case "nodejs":
    case "tsx":
    case "ts-node":
      return INTERPRETER(p, "`-e`, `-p`, `--eval`, `--print`, a `data:`/`https:` loader");
    case "perl":
      return INTERPRETER(p, "`-e`, `-E`");
    case "ruby":
    case "lua":
    case "luajit":
    case "osascript":
    case "Rscript":
    case "R":
      return INTERPRETER(p, "`-e`");
    case "php":
      return INTERPRETER(p, "`-r`, `-R`, `-B`, `-E`");
    case "julia":
    case "elixir":
      return INTERPRETER(p, "`-e`, `--eval`");
    case "pwsh":
    case "powershell":
      return INTERPRETER(p, "`-Command`, `-EncodedCommand`");
    case "deno":
      return {
        approves: "`deno run`, `deno test`, `deno task`, `deno fmt` … of files in the worktree",
        never: "`deno eval`, `deno x`, `deno repl --eval`, or running a URL, an `npm:`/`jsr:` " +
          "package or stdin",
      };
    case "bun":
      return {
        approves: "`bun run`, `bun test`, `bun FILE` …",
        never: "`bun -e`/`-p`, `bun x`, `bun create`",
      };
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      return {
        approves: "awk programs that neither call `system()` nor pipe to or from a command",
        never: "those that do, `@load` or `-l`",
      };
    case "sed":
    case "gsed":
      return {
        approves: "sed scripts without the `e` command or the `s///e` flag",
        never: "those with them (or that drover cannot follow)",
      };
    case "git":
      return {
        approves: "every git command that no danger rule catches (status, diff, commit, " +
          "checkout -b, a push without --force …)",
        never: "`git -c`, `--config-env`, `--exec-path=`, `git config` of a key that names a " +
          "command or of a `!` alias, `rebase --exec`, `bisect run`, `submodule foreach`, " +
          "`--upload-pack`/`--receive-pack`",
      };
    case "npm":
    case "pnpm":
    case "yarn":
      return {
        approves:
          `package scripts and installs (\`${p} test\`, \`${p} run build\`, \`${p} install\` …)`,
        never: p === "npm"
          ? "`npm exec`, `npm x`, `npm create`, `npm init <initializer>`, `npm explore`"
          : `\`${p} dlx\`, \`${p} exec\`, \`${p} create\``,
      };
    case "make":
      return { approves: "`make TARGET …`", never: "`make --eval`, `-f -`, `SHELL=…`" };
    case "tar":
      return {
        approves: "archiving and extracting",
        never: "`--to-command`, `--checkpoint-action`, `-I`/`--use-compress-program`, `-F`",
      };
    case "rsync":
      return { approves: "copies", never: "`-e`/`--rsh`, `--rsync-path`" };
    case "ssh":
      return {
        approves: "`ssh HOST` alone",
        never: "a command after the host, `-o ProxyCommand=…`",
      };
    case "find":
      return {
        approves: "searches (and `-delete` inside /tmp/<name>)",
        never: "`-exec`, `-execdir`, `-ok`, `-okdir`",
      };
    case "tmux":
      return {
        approves: "tmux commands that run and type nothing (`list-panes`, `capture-pane` …)",
        never: "`send-keys`, `run-shell`, `new-window`, `split-window`, `-c` …",
      };
  }
  return undefined;
}

/**
 * What `config check` says about an allow entry that names only an interpreter, a runner or a
 * wrapper (or is itself an opaque command), or null when it has nothing to say.
 */
export function allowEntryNote(entry: string): string | null {
  const words = entry.trim().split(/\s+/).filter((w) => w !== "");
  if (words.length === 0) return null;
  const text = words.join(" ");
  const o = findOpaque(entry.trim());
  if (o) {
    return o.form === text
      ? `names only ${o.form}: it approves no command, since every \`${o.form} …\` runs code ` +
        "drover cannot judge (opaque); only an entry equal to a whole command approves one"
      : `is opaque (${o.form}): it approves exactly this command, never a longer one it starts`;
  }
  if (words.length !== 1) return null;
  const p = words[0];
  const reach = reachOf(p);
  if (reach) {
    return `names only ${p}: it approves ${reach.approves}, never ${reach.never} — ` +
      "those are opaque and escalate unless an entry equals the whole command";
  }
  if (WRAPPERS.has(p)) {
    return `names only the wrapper ${p}: it approves whatever command ${p} runs, judged by the ` +
      "danger rules alone; allow the commands themselves instead";
  }
  return null;
}
