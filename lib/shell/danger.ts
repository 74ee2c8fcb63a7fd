/**
 * The compiled danger rules of command judgement (DESIGN §6).
 *
 * Danger rules are compiled on purpose: a profile or config file can be written by the agents
 * being supervised, so nothing in configuration may switch a rule off or narrow it. They are
 * deliberately over-eager (a dangerous program name anywhere among the words counts, wrappers like
 * `env`, `xargs`, `find -exec`, `bash -c` are seen through): a false alarm costs an escalation to a
 * human, a miss could cost a machine.
 *
 * The allowlist comes after them (allowlist.ts).
 */
import { isDevicePath, isScratchPath, isSystemPath, normalizePath } from "./paths.ts";
import { baseName, isAssignment, parseShell, type Redirect, type Segment } from "./shell_words.ts";
import { COMMAND_WRAPPERS } from "./wrappers.ts";

export type DangerRule =
  | "privilege-escalation"
  | "recursive-delete"
  | "git-force-push"
  | "git-history-loss"
  | "recursive-permission-change"
  | "root-permission-change"
  | "disk-write"
  | "disk-format"
  | "device-write"
  | "system-write"
  | "pipe-to-interpreter"
  | "remote-code"
  | "system-power"
  | "kill-processes"
  | "tmux-kill"
  | "crontab-remove"
  | "fork-bomb"
  | "nesting-too-deep";

export interface Danger {
  rule: DangerRule;
  /** The words (or text) that triggered it, for the escalation message. */
  detail: string;
}

const PRIVILEGE = new Set(["sudo", "doas", "su", "pkexec", "runuser", "sudoedit"]);
const SHELLS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "fish",
  "csh",
  "tcsh",
  "ash",
  "busybox",
]);
const INTERPRETERS = new Set([
  ...SHELLS,
  "python",
  "python2",
  "python3",
  "perl",
  "ruby",
  "node",
  "nodejs",
  "php",
  "deno",
  "bun",
  "lua",
  "tclsh",
  "Rscript",
  "osascript",
]);
const FORMAT =
  /^(mkfs(\..+)?|mke2fs|mkswap|mkntfs|mkdosfs|wipefs|fdisk|sfdisk|gdisk|sgdisk|cfdisk|parted|blkdiscard|shred)$/;
const POWER = new Set(["shutdown", "reboot", "halt", "poweroff", "telinit"]);
const KILLERS = new Set(["kill", "pkill", "killall", "killall5", "skill", "slay"]);
/**
 * Programs that run their argument words (or one string) as a command: the shared wrappers, and
 * here also `xargs`, `watch` and every privilege tool, so that the rules judge what they run.
 */
const WRAPPERS = new Set([...COMMAND_WRAPPERS, "xargs", "watch", ...PRIVILEGE]);
const REMOTE_FETCH = /\b(curl|wget|fetch|aria2c|nc|ncat|socat|http|httpie|lwp-request)\b/;
/** Split a word into its option letters if it is a short-option cluster ("-rf" → "rf"). */
function shortFlags(w: string): string {
  return /^-[A-Za-z]+$/.test(w) ? w.slice(1) : "";
}

/** Index of the word that names the program a segment runs, seeing through assignments/wrappers. */
export function commandIndex(words: readonly string[]): number {
  let i = 0;
  while (i < words.length && isAssignment(words[i])) i++;
  while (i < words.length && WRAPPERS.has(baseName(words[i]))) {
    const w = baseName(words[i]);
    i++;
    while (i < words.length) {
      const x = words[i];
      if (x === "--") {
        i++;
        break;
      }
      if (x.startsWith("-") || isAssignment(x)) {
        i++;
        // options that take a value as the next word
        if (/^-(n|c|s|u|g|o|e|i|p|k|l|L|P|I|d|E)$/.test(x) && i < words.length) i++;
        continue;
      }
      // timeout DURATION, nice/chrt/taskset numbers, flock FILE
      if ((w === "timeout" || w === "chrt" || w === "taskset") && /^[0-9.]+[a-z]*$/.test(x)) {
        i++;
        continue;
      }
      if (w === "flock" || w === "chroot" || w === "sg") {
        i++;
        continue;
      }
      break;
    }
  }
  return i;
}

function rmDanger(args: readonly string[], dyn: readonly boolean[]): Danger | undefined {
  let recursive = false;
  const targets: { w: string; d: boolean }[] = [];
  let opts = true;
  args.forEach((a, k) => {
    if (opts && a === "--") {
      opts = false;
      return;
    }
    if (opts && a.startsWith("--")) {
      if (a === "--recursive") recursive = true;
      return;
    }
    if (opts && a.startsWith("-") && a.length > 1) {
      if (/[rR]/.test(shortFlags(a) || a.slice(1))) recursive = true;
      return;
    }
    targets.push({ w: a, d: dyn[k] ?? false });
  });
  if (!recursive) return undefined;
  const bad = targets.filter((t) => !isScratchPath(t.w, t.d));
  if (targets.length === 0 || bad.length > 0) {
    return {
      rule: "recursive-delete",
      detail: `rm ${args.join(" ")}`.trim(),
    };
  }
  return undefined;
}

function findDeleteDanger(args: readonly string[], dyn: readonly boolean[]): Danger | undefined {
  if (!args.includes("-delete")) return undefined;
  const roots: { w: string; d: boolean }[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a.startsWith("-") || a === "(" || a === "!") break;
    roots.push({ w: a, d: dyn[k] ?? false });
  }
  if (roots.length === 0 || roots.some((r) => !isScratchPath(r.w, r.d))) {
    return { rule: "recursive-delete", detail: `find ${args.join(" ")}` };
  }
  return undefined;
}

const GIT_VALUE_OPTS = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
  "--exec-path",
]);

function gitDanger(args: readonly string[]): Danger | undefined {
  let k = 0;
  while (k < args.length && args[k].startsWith("-")) {
    if (GIT_VALUE_OPTS.has(args[k])) k++;
    k++;
  }
  const sub = args[k];
  const rest = args.slice(k + 1);
  const detail = `git ${args.join(" ")}`;
  const has = (...xs: string[]) => rest.some((r) => xs.includes(r));
  const cluster = (letters: RegExp) => rest.some((r) => letters.test(shortFlags(r)));
  switch (sub) {
    case "push": {
      const force =
        rest.some((r) =>
          r === "--force" || r.startsWith("--force-with-lease") || r === "--force-if-includes" ||
          r === "--mirror" || r === "--delete" || r === "--prune" ||
          (!r.startsWith("-") && (r.startsWith("+") || r.startsWith(":")))
        ) || cluster(/[fd]/);
      return force ? { rule: "git-force-push", detail } : undefined;
    }
    case "reset":
      return has("--hard", "--merge", "--keep") ? { rule: "git-history-loss", detail } : undefined;
    case "clean":
      return has("--force") || cluster(/f/) ? { rule: "git-history-loss", detail } : undefined;
    case "branch":
      return cluster(/D/) || (has("--delete", "-d") && (has("--force") || cluster(/f/))) ||
          has("--force") && has("-m", "-M", "--move")
        ? { rule: "git-history-loss", detail }
        : undefined;
    case "checkout":
    case "switch":
      return has("--force", ".", "--discard-changes") || cluster(/f/)
        ? { rule: "git-history-loss", detail }
        : undefined;
    case "restore":
      return has(".", ":/") ? { rule: "git-history-loss", detail } : undefined;
    case "stash":
      return has("clear", "drop") ? { rule: "git-history-loss", detail } : undefined;
    case "filter-branch":
    case "filter-repo":
      return { rule: "git-history-loss", detail };
    case "reflog":
      return has("expire", "delete") ? { rule: "git-history-loss", detail } : undefined;
    case "update-ref":
      return has("-d", "--stdin") ? { rule: "git-history-loss", detail } : undefined;
    case "worktree":
      return has("remove", "prune") && (has("--force") || cluster(/f/))
        ? { rule: "git-history-loss", detail }
        : undefined;
    case "gc":
      return rest.some((r) => r.startsWith("--prune"))
        ? { rule: "git-history-loss", detail }
        : undefined;
  }
  return undefined;
}

function permDanger(prog: string, args: readonly string[]): Danger | undefined {
  const detail = `${prog} ${args.join(" ")}`;
  if (args.some((a) => a === "--recursive" || /R/.test(shortFlags(a)))) {
    return { rule: "recursive-permission-change", detail };
  }
  if (args.some((a) => !a.startsWith("-") && (normalizePath(a) === "/" || isSystemPath(a)))) {
    return { rule: "root-permission-change", detail };
  }
  return undefined;
}

/** Rules that apply wherever a program's name appears among a segment's words. */
function wordDanger(seg: Segment, depth: number): Danger | undefined {
  const { words, dynamic } = seg;
  for (let i = 0; i < words.length; i++) {
    const d = programDanger(words, dynamic, i, depth);
    if (d) return d;
  }
  return commandDanger(words, dynamic) ?? redirectDanger(seg.redirects);
}

/** The rules for `words[i]` read as a program name, the words after it as its arguments. */
function programDanger(
  words: readonly string[],
  dynamic: readonly boolean[],
  i: number,
  depth: number,
): Danger | undefined {
  const prog = baseName(words[i]);
  const args = words.slice(i + 1);
  if (PRIVILEGE.has(prog)) return { rule: "privilege-escalation", detail: words.join(" ") };
  // The detail of the rules below: the words from the program on.
  const from = words.slice(i).join(" ");
  return lossDanger(prog, args, dynamic.slice(i + 1)) ?? diskDanger(prog, args, from) ??
    systemDanger(prog, args, from) ?? innerCommandDanger(prog, args, depth);
}

/** Deleting trees, losing git history, changing permissions recursively or of the system. */
function lossDanger(
  prog: string,
  args: readonly string[],
  dyn: readonly boolean[],
): Danger | undefined {
  if (prog === "rm") return rmDanger(args, dyn);
  if (prog === "find") return findDeleteDanger(args, dyn);
  if (prog === "git") return gitDanger(args);
  if (prog === "chmod" || prog === "chown" || prog === "chgrp" || prog === "setfacl") {
    return permDanger(prog, args);
  }
  return undefined;
}

/** Writing to a disk, a device or a system path, and formatting or wiping a disk. */
function diskDanger(prog: string, args: readonly string[], detail: string): Danger | undefined {
  if (prog === "dd") {
    const of = args.find((a) => a.startsWith("of="));
    if (of && (isDevicePath(of.slice(3)) || isSystemPath(of.slice(3)))) {
      return { rule: "disk-write", detail };
    }
  }
  if (FORMAT.test(prog)) return { rule: "disk-format", detail };
  if (
    prog === "tee" || prog === "cp" || prog === "mv" || prog === "install" || prog === "ln" ||
    prog === "truncate" || prog === "rsync"
  ) {
    const hit = args.find((a) => !a.startsWith("-") && (isDevicePath(a) || isSystemPath(a)));
    if (hit) return { rule: isDevicePath(hit) ? "device-write" : "system-write", detail };
  }
  return undefined;
}

/** Powering the machine off, killing tmux, removing the crontab. */
function systemDanger(prog: string, args: readonly string[], detail: string): Danger | undefined {
  if (POWER.has(prog) || (prog === "init" && /^[06sS]$/.test(args[0] ?? ""))) {
    return { rule: "system-power", detail };
  }
  if (
    prog === "systemctl" &&
    args.some((a) => /^(poweroff|reboot|halt|kexec|rescue|emergency|suspend|hibernate)$/.test(a))
  ) {
    return { rule: "system-power", detail };
  }
  if (prog === "tmux" && args.some((a) => /^kill-/.test(a))) return { rule: "tmux-kill", detail };
  if (prog === "crontab" && args.some((a) => /r/.test(shortFlags(a)))) {
    return { rule: "crontab-remove", detail };
  }
  return undefined;
}

/** Programs that run a string as a command: the string is judged as well, one level deeper. */
function innerCommandDanger(
  prog: string,
  args: readonly string[],
  depth: number,
): Danger | undefined {
  if (SHELLS.has(prog) || prog === "su" || prog === "runuser") {
    const c = args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a) || a === "--command");
    if (c >= 0 && args[c + 1] !== undefined) {
      const d = dangerAt(args[c + 1], depth + 1);
      if (d) return d;
    }
  }
  if (prog === "eval" || prog === "ssh" || prog === "watch" || prog === "parallel") {
    const d = dangerAt(args.filter((a) => !a.startsWith("-")).join(" "), depth + 1);
    if (d) return d;
  }
  if (prog === "env") {
    const s = args.findIndex((a) => a === "-S" || a === "--split-string");
    if (s >= 0 && args[s + 1] !== undefined) {
      const d = dangerAt(args[s + 1], depth + 1);
      if (d) return d;
    }
    const inline = args.find((a) => a.startsWith("-S") && a.length > 2);
    if (inline) {
      const d = dangerAt(inline.slice(2), depth + 1);
      if (d) return d;
    }
  }
  return undefined;
}

/** Rules on the program the segment actually runs, seen through assignments and wrappers. */
function commandDanger(
  words: readonly string[],
  dynamic: readonly boolean[],
): Danger | undefined {
  const ci = commandIndex(words);
  const cmd = words[ci] === undefined ? "" : baseName(words[ci]);
  if (KILLERS.has(cmd)) return { rule: "kill-processes", detail: words.slice(ci).join(" ") };
  // Running a downloaded script: `bash <(curl …)`, `sh -c "$(wget …)"`, `eval "$(curl …)"`.
  if (
    (INTERPRETERS.has(cmd) || cmd === "eval" || cmd === "source" || cmd === ".") &&
    words.some((w, k) => dynamic[k] && REMOTE_FETCH.test(w))
  ) {
    return { rule: "remote-code", detail: words.slice(ci).join(" ") };
  }
  return undefined;
}

/** Output redirected onto a device or a system path. */
function redirectDanger(redirects: readonly Redirect[]): Danger | undefined {
  for (const r of redirects) {
    if (!r.op.includes(">") || r.target === "") continue;
    if (isDevicePath(r.target)) return { rule: "device-write", detail: `${r.op} ${r.target}` };
    if (isSystemPath(r.target)) return { rule: "system-write", detail: `${r.op} ${r.target}` };
  }
  return undefined;
}

/** Crude text checks used only when the line cannot be parsed to the end. */
const RAW_RULES: [RegExp, DangerRule][] = [
  [/\b(sudo|doas|pkexec)\b/, "privilege-escalation"],
  [/\brm\s+(-[A-Za-z]*[rR]|--recursive)/, "recursive-delete"],
  [/\bgit\b.*\bpush\b.*(\s-[A-Za-z]*f|--force|--mirror|--delete|\s\+)/, "git-force-push"],
  [/\bgit\b.*\breset\b.*--hard/, "git-history-loss"],
  [/\bmkfs|\bwipefs\b|\bshred\b/, "disk-format"],
  [/\bdd\b.*\bof=\/dev\//, "disk-write"],
  [/>\s*\/dev\/(?!null\b)/, "device-write"],
  [/\|\s*(sudo\s+)?(ba|z|da|k|fi)?sh\b|\|\s*(python3?|perl|ruby|node)\b/, "pipe-to-interpreter"],
  [/\bch(mod|own|grp)\s+(-[A-Za-z]*R|--recursive)/, "recursive-permission-change"],
  [/\btmux\b.*\bkill-/, "tmux-kill"],
];

const FORK_BOMB = /\(\)\s*\{[^}]*\|[^}]*&/;

function dangerAt(text: string, depth: number): Danger | undefined {
  if (depth > 8) return { rule: "nesting-too-deep", detail: text.slice(0, 80) };
  if (FORK_BOMB.test(text)) return { rule: "fork-bomb", detail: text.slice(0, 80) };
  const p = parseShell(text);
  for (let s = 0; s < p.segments.length; s++) {
    const seg = p.segments[s];
    const d = wordDanger(seg, depth);
    if (d) return d;
    // `… | sh`: whatever came down the pipe is executed.
    if (seg.joinedBy === "|" || seg.joinedBy === "|&") {
      const ci = commandIndex(seg.words);
      const prog = seg.words[ci] === undefined ? "" : baseName(seg.words[ci]);
      const fileArg = seg.words.slice(ci + 1).some((w) => !w.startsWith("-"));
      if (INTERPRETERS.has(prog) && (!fileArg || seg.words.slice(ci + 1).includes("-"))) {
        return { rule: "pipe-to-interpreter", detail: seg.words.join(" ") };
      }
      if (prog === "xargs" || ci < seg.words.length && WRAPPERS.has(baseName(seg.words[0]))) {
        // xargs sh / xargs bash feed stdin into an interpreter too
        if (seg.words.some((w) => INTERPRETERS.has(baseName(w)))) {
          return { rule: "pipe-to-interpreter", detail: seg.words.join(" ") };
        }
      }
    }
  }
  for (const body of p.nested) {
    const d = dangerAt(body, depth + 1);
    if (d) return d;
  }
  if (p.error) {
    for (const [re, rule] of RAW_RULES) {
      if (re.test(text)) return { rule, detail: text.slice(0, 120) };
    }
  }
  return undefined;
}

/** The first compiled danger rule the command trips, if any. */
export function findDanger(command: string): Danger | undefined {
  return dangerAt(command, 0);
}
