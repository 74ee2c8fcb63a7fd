/**
 * Where the lab's real agent CLIs live, and at which version. Versions are pinned ONLY in
 * tests/lab/clis/package.json (installed with `npm install --prefix tests/lab/clis --no-save --ignore-scripts`); this
 * module reads the installed package.json files, never a second copy of a version.
 *
 * ```ts
 * const claude = await resolveCli("claude-code");
 * claude.argv     // ["/…/claude"] — what to exec (node-based CLIs: [node, script])
 * claude.version  // "2.1.197" (from the installed package.json)
 * claude.pinned   // the version tests/lab/clis/package.json asks for
 * ```
 * `resolveCli` throws a clear error naming the install command when a CLI is missing or its installed
 * version differs from the pin.
 */

export type CliId = "claude-code" | "codex" | "gemini" | "qwen" | "opencode";

export interface ResolvedCli {
  id: CliId;
  /** npm package that carries the pin. */
  pkg: string;
  /** argv prefix to start the CLI. */
  argv: string[];
  /** Installed version (from its package.json). */
  version: string;
  /** Version pinned in tests/lab/clis/package.json. */
  pinned: string;
}

export const LAB_DIR = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
export const CLIS_DIR = `${LAB_DIR}/clis`;
export const REPO_ROOT = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");
export const INSTALL_HINT = "npm install --prefix tests/lab/clis --no-save --ignore-scripts";

interface Recipe {
  pkg: string;
  /** Path (under node_modules) whose package.json holds the installed version. */
  versionFrom: string;
  /** Path (under node_modules) of what to exec. */
  exec: string;
  /** Executed through node (a JS entry point) rather than directly. */
  node?: boolean;
}

const RECIPES: Record<CliId, Recipe> = {
  "claude-code": {
    pkg: "@anthropic-ai/claude-code",
    versionFrom: "@anthropic-ai/claude-code",
    exec: "@anthropic-ai/claude-code-linux-x64/claude",
  },
  codex: { pkg: "@openai/codex", versionFrom: "@openai/codex", exec: ".bin/codex", node: true },
  gemini: {
    pkg: "@google/gemini-cli",
    versionFrom: "@google/gemini-cli",
    exec: ".bin/gemini",
    node: true,
  },
  qwen: {
    pkg: "@qwen-code/qwen-code",
    versionFrom: "@qwen-code/qwen-code",
    exec: ".bin/qwen",
    node: true,
  },
  opencode: {
    pkg: "opencode-ai",
    versionFrom: "opencode-ai",
    exec: "opencode-linux-x64/bin/opencode",
  },
};

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(path));
}

/** The versions pinned in tests/lab/clis/package.json, by npm package name. */
export async function pinnedVersions(): Promise<Record<string, string>> {
  const pkg = await readJson(`${CLIS_DIR}/package.json`);
  return (pkg.dependencies ?? {}) as Record<string, string>;
}

/** Resolve a lab CLI: path, installed version, pin. Throws a clear error when it is not installed. */
export async function resolveCli(id: CliId): Promise<ResolvedCli> {
  const r = RECIPES[id];
  if (!r) throw new Error(`unknown lab CLI "${id}" (known: ${Object.keys(RECIPES).join(", ")})`);
  const pinned = (await pinnedVersions())[r.pkg];
  if (!pinned) throw new Error(`${r.pkg} is not pinned in tests/lab/clis/package.json`);
  const nm = `${CLIS_DIR}/node_modules`;
  let version: string;
  try {
    version = String((await readJson(`${nm}/${r.versionFrom}/package.json`)).version);
  } catch {
    throw new Error(`${r.pkg} is not installed; run: ${INSTALL_HINT}`);
  }
  if (version !== pinned) {
    throw new Error(
      `${r.pkg} ${version} is installed but ${pinned} is pinned; run: ${INSTALL_HINT}`,
    );
  }
  const exec = `${nm}/${r.exec}`;
  try {
    await Deno.stat(exec);
  } catch {
    throw new Error(`${exec} is missing; run: ${INSTALL_HINT}`);
  }
  const argv = r.node ? [await which("node") ?? "node", exec] : [exec];
  return { id, pkg: r.pkg, argv, version, pinned };
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
