/** What an allow entry that names only an interpreter or runner approves, and what it never does (config check's note). */
import { PYTHON, SHELLS } from "./opaque_interpreters.ts";
import { findOpaque, WRAPPERS } from "./opaque.ts";

// ---- what an allow entry that names only an interpreter or runner approves ----

export interface Reach {
  approves: string;
  never: string;
}

export const INTERPRETER = (p: string, flags: string): Reach => ({
  approves: `\`${p} FILE …\` (a script from the worktree)`,
  never: `inline code (${flags})`,
});

export function reachOf(p: string): Reach | undefined {
  return interpreterReach(p) ?? runnerReach(p) ?? toolReach(p);
}

/** Interpreters: a script file yes, program text given inline no. */
function interpreterReach(p: string): Reach | undefined {
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
  }
  return undefined;
}

/** Runtimes and task runners: their own commands yes, the ones that fetch or evaluate code no. */
function runnerReach(p: string): Reach | undefined {
  switch (p) {
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
  }
  return undefined;
}

/** Tools with a way to run a command from their arguments or script. */
function toolReach(p: string): Reach | undefined {
  switch (p) {
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
