/**
 * Where the lab's real agent CLIs live, and at which versions. Versions are pinned ONLY in
 * tests/lab/clis/package.json (installed with `npm install --prefix tests/lab/clis --no-save --ignore-scripts`); this
 * module reads the installed package.json files, never a second copy of a version.
 *
 * One CLI may be pinned at several versions: the package itself at one, and npm aliases named
 * `<name>-<version>` for the others, e.g.
 * `"claude-code-2.1.332": "npm:@anthropic-ai/claude-code@2.1.332"`. npm nests an alias's own
 * platform binary under `node_modules/<alias>/node_modules/`, so the versions never collide.
 *
 * ```ts
 * await pinnedCliVersions("claude-code")        // ["2.1.197", "2.1.332"] (oldest first)
 * const claude = await resolveCli("claude-code"); // the package's own pin
 * const next = await resolveCli("claude-code", "2.1.332");
 * next.argv     // ["/…/claude"] — what to exec (node-based CLIs: [node, script])
 * next.version  // "2.1.332" (from the installed package.json)
 * ```
 * `resolveCli` throws a clear error naming the install command when a CLI is missing or its installed
 * version differs from the pin. `resolveCliAt(id, prefix)` resolves a CLI installed elsewhere (a
 * scratch `npm install --prefix DIR`), at whatever version is there.
 */
import { compareVersions } from "../../../lib/scenarios/versions.ts";

export { compareVersions };

export type CliId = "claude-code" | "codex" | "gemini" | "qwen" | "opencode" | "copilot" | "cline";

export interface ResolvedCli {
  id: CliId;
  /** npm package that carries the pin. */
  pkg: string;
  /** argv prefix to start the CLI. */
  argv: string[];
  /** Installed version (from its package.json). */
  version: string;
  /** Version pinned in tests/lab/clis/package.json ("" for a scratch install). */
  pinned: string;
}

export const LAB_DIR = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
export const CLIS_DIR = `${LAB_DIR}/clis`;
export const REPO_ROOT = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");
export const INSTALL_HINT = "npm install --prefix tests/lab/clis --no-save --ignore-scripts";

interface Recipe {
  pkg: string;
  /**
   * What to exec: a platform package's binary (`native`: package + path inside it, looked up
   * next to the CLI's own package first, as Node resolves it), or the package's `bin` script run
   * through node.
   */
  native?: { pkg: string; path: string };
  bin?: string;
}

const RECIPES: Record<CliId, Recipe> = {
  "claude-code": {
    pkg: "@anthropic-ai/claude-code",
    native: { pkg: "@anthropic-ai/claude-code-linux-x64", path: "claude" },
  },
  codex: { pkg: "@openai/codex", bin: "codex" },
  gemini: { pkg: "@google/gemini-cli", bin: "gemini" },
  qwen: { pkg: "@qwen-code/qwen-code", bin: "qwen" },
  opencode: { pkg: "opencode-ai", native: { pkg: "opencode-linux-x64", path: "bin/opencode" } },
  copilot: {
    pkg: "@github/copilot",
    native: { pkg: "@github/copilot-linux-x64", path: "copilot" },
  },
  cline: { pkg: "cline", native: { pkg: "@cline/cli-linux-x64", path: "bin/cline" } },
};

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(path));
}

/** The dependencies of tests/lab/clis/package.json, by name (aliases included). */
export async function pinnedVersions(): Promise<Record<string, string>> {
  const pkg = await readJson(`${CLIS_DIR}/package.json`);
  return (pkg.dependencies ?? {}) as Record<string, string>;
}

function recipe(id: CliId): Recipe {
  const r = RECIPES[id];
  if (!r) throw new Error(`unknown lab CLI "${id}" (known: ${Object.keys(RECIPES).join(", ")})`);
  return r;
}

/** Where each pinned version of a CLI is installed: version → node_modules folder name. */
async function pins(id: CliId): Promise<Map<string, string>> {
  const r = recipe(id);
  const out = new Map<string, string>();
  for (const [name, spec] of Object.entries(await pinnedVersions())) {
    if (name === r.pkg) {
      out.set(spec, name);
      continue;
    }
    // An alias pins by its spec; its name only has to end in the version (`claude-code-2.1.332`,
    // `qwen-code-0.24.4`: the package's own name, not the drover CLI id).
    const m = spec.startsWith(`npm:${r.pkg}@`) ? spec.slice(`npm:${r.pkg}@`.length) : "";
    if (m && name.endsWith(`-${m}`)) out.set(m, name);
  }
  return out;
}

/** Every version of a CLI pinned in tests/lab/clis/package.json, oldest first. */
export async function pinnedCliVersions(id: CliId): Promise<string[]> {
  const s = scratch.get(id);
  if (s) return [s.version];
  return [...(await pins(id)).keys()].sort(compareVersions);
}

/** The lab's CLIs and the npm package of each. */
export const LAB_CLIS: ReadonlyArray<{ id: CliId; pkg: string }> = (Object.keys(RECIPES) as CliId[])
  .map((id) => ({ id, pkg: RECIPES[id].pkg }));

/**
 * Scratch installs that stand in for a CLI's pins for the rest of this process (the drift check,
 * `deno task lab --latest`): `pinnedCliVersions(id)` then lists only the scratch version and
 * `resolveCli(id)` (with no version, or that one) runs it, so every suite runs unchanged against it.
 */
const scratch = new Map<CliId, { version: string; prefix: string }>();

export function useScratchCli(id: CliId, version: string, prefix: string): void {
  recipe(id);
  scratch.set(id, { version, prefix });
}

/**
 * Resolve a pinned lab CLI: path, installed version, pin. Without `version`, the package's own pin.
 * Throws a clear error when it is not pinned or not installed.
 */
export async function resolveCli(id: CliId, version?: string): Promise<ResolvedCli> {
  const r = recipe(id);
  const s = scratch.get(id);
  if (s && (version === undefined || version === s.version)) {
    const resolved = await resolveCliAt(id, s.prefix);
    if (resolved.version !== s.version) {
      throw new Error(`${r.pkg} ${resolved.version} is in ${s.prefix}, not ${s.version}`);
    }
    return { ...resolved, pinned: s.version };
  }
  const all = await pins(id);
  const own = (await pinnedVersions())[r.pkg];
  const pinned = version ?? own;
  const dirName = pinned === undefined ? undefined : all.get(pinned);
  if (!pinned || !dirName) {
    throw new Error(
      `${r.pkg}${version ? ` ${version}` : ""} is not pinned in tests/lab/clis/package.json` +
        (all.size ? ` (pinned: ${[...all.keys()].join(", ")})` : ""),
    );
  }
  const resolved = await resolveIn(id, `${CLIS_DIR}/node_modules`, dirName, INSTALL_HINT);
  if (resolved.version !== pinned) {
    throw new Error(
      `${r.pkg} ${resolved.version} is installed but ${pinned} is pinned; run: ${INSTALL_HINT}`,
    );
  }
  return { ...resolved, pinned };
}

/** Resolve a CLI installed with `npm install --prefix <prefix> <pkg>` (any version). */
export async function resolveCliAt(id: CliId, prefix: string): Promise<ResolvedCli> {
  const r = recipe(id);
  return await resolveIn(
    id,
    `${prefix}/node_modules`,
    r.pkg,
    `npm install --prefix ${prefix} --no-save --ignore-scripts ${r.pkg}@<version>`,
  );
}

async function resolveIn(
  id: CliId,
  nm: string,
  dirName: string,
  hint: string,
): Promise<ResolvedCli> {
  const r = recipe(id);
  const pkgDir = `${nm}/${dirName}`;
  let meta: Record<string, unknown>;
  try {
    meta = await readJson(`${pkgDir}/package.json`);
  } catch {
    throw new Error(`${r.pkg} (${dirName}) is not installed; run: ${hint}`);
  }
  const version = String(meta.version);
  let exec: string | undefined;
  if (r.native) {
    // Node's lookup order: the package's own node_modules first, then the shared one. The
    // platform package must be the same version (a hoisted one may belong to another pin).
    for (const dir of [`${pkgDir}/node_modules/${r.native.pkg}`, `${nm}/${r.native.pkg}`]) {
      const v = await readJson(`${dir}/package.json`).then((j) => String(j.version), () => "");
      if (v === version) {
        exec = `${dir}/${r.native.path}`;
        break;
      }
    }
  } else {
    const bin = meta.bin;
    const rel = typeof bin === "string"
      ? bin
      : (bin as Record<string, string> | undefined)?.[r.bin ?? ""];
    if (rel) exec = `${await userPath(nm, dirName, r.pkg, pkgDir)}/${rel}`;
    // The package's own pin keeps the path it always had (`.bin/<name>`: what pane argv shows).
    const link = `${nm}/.bin/${r.bin}`;
    if (exec && dirName === r.pkg && await Deno.realPath(link).catch(() => "") === exec) {
      exec = link;
    }
  }
  if (exec === undefined) {
    throw new Error(`${r.pkg} ${version}: no executable found under ${pkgDir}; run: ${hint}`);
  }
  try {
    await Deno.stat(exec);
  } catch {
    throw new Error(`${exec} is missing; run: ${hint}`);
  }
  const argv = r.native ? [exec] : [await which("node") ?? "node", exec];
  return { id, pkg: r.pkg, argv, version, pinned: "" };
}

/**
 * A node-based CLI pinned under an alias (`node_modules/qwen-code-0.24.4/`) is started through a
 * link at the path a user's install has (`…/node_modules/.lab-paths/qwen-code-0.24.4/@qwen-code/
 * qwen-code`): drover recognises a node CLI by its package path in the pane's process argv, and the
 * alias folder's name is the lab's, not the CLI's. The package's own pin keeps its real path.
 */
async function userPath(nm: string, dirName: string, pkg: string, pkgDir: string): Promise<string> {
  if (dirName === pkg) return pkgDir;
  const link = `${nm}/.lab-paths/${dirName}/${pkg}`;
  if (await Deno.realPath(link).catch(() => "") === await Deno.realPath(pkgDir)) return link;
  await Deno.mkdir(link.slice(0, link.lastIndexOf("/")), { recursive: true });
  await Deno.remove(link).catch(() => {});
  await Deno.symlink(pkgDir, link).catch((e) => {
    // Another job made it meanwhile.
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  });
  return link;
}

/** Absolute path of a program on PATH, or undefined. */
export async function which(name: string): Promise<string | undefined> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (!dir) continue;
    try {
      const st = await Deno.stat(`${dir}/${name}`);
      if (st.isFile) return `${dir}/${name}`;
    } catch { /* not here */ }
  }
  return undefined;
}
