/** The opaque-code checks of package managers and runners: code fetched from a registry, or a script they run. */
import { type Check, isLong, remoteScheme } from "./opaque_options.ts";

// ---- package managers and runners ----

/**
 * A package manager's subcommand is its first operand that names one (an operand it does not know
 * may be an option's value, so the scan goes on past it): a runner is opaque, a known subcommand
 * (`run`, `test`, `install` …) ends the scan. `operand` runners are opaque only with an operand
 * after them (`npm init` alone makes a package.json; `npm init vite` runs create-vite).
 */
export function packageManager(
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

export const NPM_KNOWN = [
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
export const npmCheck = packageManager(
  ["exec", "x", "create", "explore"],
  ["init", "innit"],
  NPM_KNOWN,
  ["--script-shell", "--node-options"],
);
export const pnpmCheck = packageManager(["dlx", "exec", "create"], [], [
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
export const yarnCheck = packageManager(["dlx", "exec", "create"], [], [
  ...NPM_KNOWN,
  "workspaces",
  "plugin",
  "set",
  "npm",
  "init",
  "node",
]);
/** bun: inline code (`-e -p --eval --print`, anywhere before `--`), `bun x`, `bun create`. */
export const bunCheck: Check = (prog, args) => {
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
export const denoCheck: Check = (prog, args) => {
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

export function subcommandRunner(sub: readonly string[]): Check {
  return (prog, args) => {
    const ops = args.filter((a) => !a.startsWith("-"));
    return sub.every((s, i) => ops[i] === s) ? `${prog} ${sub.join(" ")}` : undefined;
  };
}

export const uvCheck: Check = (prog, args) => {
  const ops = args.filter((a) => !a.startsWith("-"));
  if (ops[0] === "tool" && ops[1] === "run") return `${prog} tool run`;
  if (ops[0] === "run" && ops.slice(1).some((a) => /^https?:/i.test(a))) {
    return `${prog} run https:`;
  }
  return undefined;
};

export const goCheck: Check = (prog, args) => {
  const ops = args.filter((a) => !a.startsWith("-"));
  if (ops[0] === "run" && ops.slice(1).some((a) => /^[^=]+@[^/]/.test(a))) {
    return `${prog} run pkg@version`;
  }
  if ((ops[0] === "run" || ops[0] === "test") && args.some((a) => isLong(a, "-exec"))) {
    return `${prog} ${ops[0]} -exec`;
  }
  return undefined;
};

export const nixCheck: Check = (prog, args) => {
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

export const nixShellCheck: Check = (prog, args) => {
  const hit = args.find((a) => isLong(a, "--run") || isLong(a, "--command"));
  return hit ? `${prog} ${hit.replace(/=.*$/, "")}` : undefined;
};

export const dotnetCheck: Check = (prog, args) => {
  const ops = args.filter((a) => !a.startsWith("-"));
  if (ops[0] === "dnx" || (ops[0] === "tool" && ops[1] === "exec")) return `${prog} ${ops[0]}`;
  return undefined;
};
