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
import {
  awkCheck,
  emacsCheck,
  flagCheck,
  nodeCheck,
  perlCheck,
  pwshCheck,
  PYTHON,
  pythonCheck,
  rubyCheck,
  sedCheck,
  shellCheck,
  SHELLS,
  vimCheck,
} from "./opaque_interpreters.ts";
import { baseName, isAssignment, type ParsedShell, parseShell } from "./shell_words.ts";
import { COMMAND_WRAPPERS } from "./wrappers.ts";
import {
  always,
  dashC,
  envCheck,
  findCheck,
  gitCheck,
  makeCheck,
  rsyncCheck,
  scpCheck,
  sftpCheck,
  sshCheck,
  tarCheck,
  tmuxCheck,
  zipCheck,
} from "./opaque_commands.ts";
import {
  bunCheck,
  denoCheck,
  dotnetCheck,
  goCheck,
  nixCheck,
  nixShellCheck,
  npmCheck,
  pnpmCheck,
  subcommandRunner,
  uvCheck,
  yarnCheck,
} from "./opaque_runners.ts";
import { type Check } from "./opaque_options.ts";

export interface Opaque {
  /** The form as escalations name it: "node -e", "git -c", "npx", "awk system()". */
  form: string;
  /** The words of the simple command it was found in. */
  detail: string;
}

// ---- the table ----

export interface Family {
  names: readonly string[];
  check: Check;
  /** Opaque by name alone: looked for only where a command starts. */
  byName?: boolean;
}

export const FAMILIES: Family[] = [
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

export const CHECKS = new Map<string, Family>();
for (const f of FAMILIES) for (const n of f.names) CHECKS.set(n, f);

export function familyOf(prog: string): Family | undefined {
  return CHECKS.get(prog) ??
    (PYTHON.test(prog) ? { names: [prog], check: pythonCheck } : undefined);
}

/**
 * Wrappers: programs that run the rest of their words as a command (`timeout 5 make`). `xargs` and
 * `watch` are not among them here: they build or repeat their command, which makes them opaque
 * forms of their own.
 */
export const WRAPPERS = new Set([
  ...COMMAND_WRAPPERS,
  "sudo",
  "doas",
  "runuser",
  "firejail",
  "systemd-run",
  "cross-env",
  "dotenv",
]);

/** Variables that make a program run other code (a library, an option, a pager, a PATH). */
export const CODE_VARIABLES = new RegExp(
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

export function opaqueIn(p: ParsedShell, depth: number): Opaque | undefined {
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
