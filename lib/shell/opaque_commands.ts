/** The opaque-code checks of programs that run a command given as text or built from input, and git's. */
import { isAssignment } from "./shell_words.ts";
import { type Check, isLong, longValue, OptionWalk } from "./opaque_options.ts";

// ---- commands given as text, or built from input ----

export const findCheck: Check = (prog, args) => {
  const hit = args.find((a) => /^-(exec|execdir|ok|okdir)$/.test(a));
  return hit ? `${prog} ${hit}` : undefined;
};

export const envCheck: Check = (prog, args) => {
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === "--") break;
    if (!a.startsWith("-") && !isAssignment(a)) break;
    if (/^-[A-Za-z0-9]*S/.test(a) || isLong(a, "--split-string")) return `${prog} -S`;
    if (a === "-u" || a === "-C" || a === "--unset" || a === "--chdir") k++;
  }
  return undefined;
};

export const MAKE_SHELL = /^(SHELL|\.SHELLFLAGS|MAKESHELL|MAKEFLAGS)\+?=/;
export const makeCheck: Check = (prog, args) => {
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

export const TAR_LONG = [
  "--to-command",
  "--checkpoint-action",
  "--use-compress-program",
  "--info-script",
  "--new-volume-script",
  "--rsh-command",
];
export const tarCheck: Check = (prog, args) => {
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

export const zipCheck: Check = (prog, args) =>
  args.some((a) => a === "-TT" || isLong(a, "--unzip-command")) ? `${prog} -TT` : undefined;

export const rsyncCheck: Check = (prog, args) => {
  for (const a of args) {
    if (isLong(a, "--rsh")) return `${prog} --rsh`;
    if (isLong(a, "--rsync-path")) return `${prog} --rsync-path`;
    if (isLong(a, "--remote-option")) return `${prog} --remote-option`;
    if (/^-[A-Za-z]+$/.test(a) && /[eM]/.test(a)) return `${prog} -${/[eM]/.exec(a)![0]}`;
  }
  return undefined;
};

export const SSH_COMMAND_OPTION =
  /^\s*(proxycommand|localcommand|knownhostscommand|remotecommand|permitlocalcommand)\b/i;

/**
 * ssh-family options: `-o Key=value` options that run a local command, program-path options
 * (`programFlags`), and for ssh itself a remote command after the destination.
 */
export function sshLike(valueLetters: string, programFlags: string, remoteCommand: boolean): Check {
  return (prog, args) => {
    const walk = new OptionWalk(args);
    for (let a = walk.next(); a !== undefined; a = walk.next()) {
      const body = a.slice(1);
      for (let j = 0; j < body.length; j++) {
        const ch = body[j];
        if (!valueLetters.includes(ch)) continue;
        const value = j + 1 < body.length ? body.slice(j + 1) : walk.value() ?? "";
        if (ch === "o" && SSH_COMMAND_OPTION.test(value)) {
          return `${prog} -o ${SSH_COMMAND_OPTION.exec(value)![1]}`;
        }
        if (programFlags.includes(ch)) return `${prog} -${ch}`;
        break;
      }
    }
    return remoteCommand && args.length > walk.k + 1 ? `${prog} HOST COMMAND` : undefined;
  };
}
export const sshCheck = sshLike("BbcDEeFIiJLlmOoPpQRSWw", "", true);
export const scpCheck = sshLike("cDFiJlloPSX", "S", false);
export const sftpCheck = sshLike("aBbcDFiJlloPRS", "SDb", false);

export const TMUX_RUNS = new Set([
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
export const tmuxCheck: Check = (prog, args) => {
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

export const dashC: Check = (prog, args) =>
  args.some((a) => a === "-c" || isLong(a, "--command") || /^-[A-Za-z]*c$/.test(a))
    ? `${prog} -c`
    : undefined;

/** Programs opaque by their name alone (where a command starts): the form is the name. */
export const always: Check = (prog) => prog;

// ---- git ----

export const GIT_VALUE_OPTS = new Set([
  "-C",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
]);
/** `git config` keys whose value is a command, a program or a file of more configuration. */
export const GIT_EXEC_KEY = new RegExp(
  "^(alias\\..+|include\\.path|includeif\\..+\\.path|core\\.(pager|editor|sshcommand|fsmonitor|" +
    "hookspath|askpass|gitproxy|alternaterefscommand|worktree)|sequence\\.editor|diff\\.external|" +
    "diff\\..+\\.(command|textconv)|merge\\..+\\.driver|filter\\..+\\.(clean|smudge|process)|" +
    "credential\\.(.+\\.)?helper|gpg\\.(.+\\.)?program|pager\\..+|(diff|merge)tool\\..+\\.cmd|" +
    "browser\\..+\\.(cmd|path)|web\\.browser|sendemail\\.(sendmailcmd|smtpserver|tocmd|cccmd|" +
    "headercmd)|uploadpack\\.packobjectshook|remote\\..+\\.(uploadpack|receivepack)|" +
    "init\\.templatedir|protocol\\..+\\.allow)$",
  "i",
);

export const gitCheck: Check = (prog, args) => {
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
