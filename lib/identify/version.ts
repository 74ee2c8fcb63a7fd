/**
 * The version of the CLI running in a pane, when its processes tell it cheaply: a versioned install
 * path (Claude Code's native installer keeps `…/claude/versions/2.1.332`; Nix store paths end in
 * `-<name>-<version>`; `<name>@<version>` folders), else the `package.json` of the npm package the
 * process runs from (`…/node_modules/@qwen-code/qwen-code/…`, a platform binary package such as
 * `…/node_modules/@anthropic-ai/claude-code-linux-x64/claude`). Reported only: identification and
 * detection never depend on it.
 *
 * A package.json names the version installed on disk: after an in-place upgrade of a CLI that is
 * still running it reads the new version. A versioned path does not have that problem.
 */
import type { Proc } from "./procs.ts";

export type VersionSource = "path" | "package" | "screen";

export interface CliVersion {
  version: string;
  source: VersionSource;
  /** Where it was read (a path), for people. */
  evidence: string;
}

/** What a CLI's installs are called: executable names and npm package names (or name prefixes). */
export interface CliNames {
  executables: readonly string[];
  packages: readonly string[];
}

/** The file reads a lookup needs; tests pass their own. */
export interface VersionIo {
  realPath(path: string): Promise<string>;
  readLink(path: string): Promise<string>;
  readText(path: string): Promise<string>;
}

export const DENO_IO: VersionIo = {
  realPath: (p) => Deno.realPath(p),
  readLink: (p) => Deno.readLink(p),
  readText: (p) => Deno.readTextFile(p),
};

const SEMVER = String.raw`v?([0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.]+)?)`;
const VERSION_ONLY = new RegExp(`^${SEMVER}$`);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The last path segment of a package name ("@qwen-code/qwen-code" → "qwen-code"). */
function packageBase(pkg: string): string {
  return pkg.slice(pkg.lastIndexOf("/") + 1);
}

/**
 * The version a versioned install path names, only where the segment around it names the CLI:
 * `…/<exe>/versions/<v>`, `…/<name>@<v>/…`, `…/<hash>-<name>-<v>/…` (name: an executable or a
 * package's base name). Anything else (node's own `…/versions/node/v20.1.0/…`) is not the CLI's.
 */
export function versionInPath(path: string, names: CliNames): string | null {
  const words = [...new Set([...names.executables, ...names.packages.map(packageBase)])]
    .filter((w) => w !== "" && !w.endsWith("-"));
  const segs = path.split("/");
  for (let i = segs.length - 1; i >= 0; i--) {
    const seg = segs[i];
    const only = VERSION_ONLY.exec(seg);
    if (only && segs[i - 1] === "versions" && words.includes(segs[i - 2] ?? "")) return only[1];
    for (const w of words) {
      const m = new RegExp(`^(?:[0-9a-z]{32}-)?${escape(w)}[@-]${SEMVER}$`).exec(seg);
      if (m) return m[1];
    }
  }
  return null;
}

/**
 * The folder of the known npm package a path runs from: the innermost `node_modules/<name>` whose
 * name is (or, for a prefix ending in "-", starts with) one of `packages`.
 */
export function packageRootIn(path: string, packages: readonly string[]): string | null {
  const marker = "/node_modules/";
  let at = path.lastIndexOf(marker);
  while (at >= 0) {
    const rest = path.slice(at + marker.length).split("/");
    const name = rest[0].startsWith("@") && rest.length > 1 ? `${rest[0]}/${rest[1]}` : rest[0];
    const known = packages.some((p) => p.endsWith("-") ? name.startsWith(p) : name === p);
    // A package's own folder holds more than its name (a file inside it), else it is no root.
    if (known && rest.length > name.split("/").length) {
      return path.slice(0, at + marker.length) + name;
    }
    at = at === 0 ? -1 : path.lastIndexOf(marker, at - 1);
  }
  return null;
}

/** The executable-looking arguments of a process: paths without whitespace (prompts are data). */
function pathsOf(p: Proc): string[] {
  return p.argv.filter((a) => a.startsWith("/") && !/\s/.test(a));
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1);
}

/** The process runs the CLI: an executable name or a package folder of it in its argv. */
function runsCli(p: Proc, names: CliNames): boolean {
  return p.argv.some((a) => {
    if (/\s/.test(a) && !a.startsWith("/")) return false;
    return names.executables.includes(basename(a).replace(/^-/, "").split(" ")[0]) ||
      (a.includes("/") && packageRootIn(a, names.packages) !== null);
  });
}

async function packageVersion(root: string, io: VersionIo): Promise<string | null> {
  try {
    const meta = JSON.parse(await io.readText(`${root}/package.json`));
    const v = typeof meta?.version === "string" ? meta.version : "";
    return VERSION_ONLY.test(v) ? v.replace(/^v/, "") : null;
  } catch {
    return null;
  }
}

/**
 * The CLI's version from the processes of its pane (the pane's process tree, CLI processes only):
 * a versioned path first, then the package.json of its npm package. Null when neither is found;
 * unreadable paths are skipped, never an error.
 */
export async function processVersion(
  procs: readonly Proc[],
  names: CliNames,
  io: VersionIo = DENO_IO,
): Promise<CliVersion | null> {
  let fromPackage: CliVersion | null = null;
  for (const p of procs.filter((q) => runsCli(q, names)).slice(0, 8)) {
    const paths = pathsOf(p);
    // The executable itself: a native binary started by name shows no path in its argv.
    const exe = await io.readLink(`/proc/${p.pid}/exe`).catch(() => null);
    if (exe) paths.unshift(exe.replace(/ \(deleted\)$/, ""));
    for (const path of paths) {
      const real = await io.realPath(path).catch(() => path);
      for (const candidate of real === path ? [path] : [path, real]) {
        const v = versionInPath(candidate, names);
        if (v) return { version: v, source: "path", evidence: candidate };
        const root: string | null = fromPackage ? null : packageRootIn(candidate, names.packages);
        const pv: string | null = root ? await packageVersion(root, io) : null;
        if (pv && root) fromPackage = { version: pv, source: "package", evidence: root };
      }
    }
  }
  return fromPackage;
}
