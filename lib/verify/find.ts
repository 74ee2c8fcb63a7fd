/**
 * Which executable `verify` runs for a CLI, and its version. Found the way `clis list` finds it:
 * the `[clis.<name>]` command (else the built-in recipe's), looked up by the user's login shell,
 * else on drover's own PATH. Nothing is cached (verify writes nothing outside its temp root), and
 * `--version` runs with a throwaway HOME like the scenarios, so even that never touches the user's
 * settings.
 */
import { probeAvailability } from "../launch/availability.ts";
import type { CliOverride } from "../launch/recipes.ts";
import { allRecipes } from "../launch/recipes.ts";

export interface FoundCli {
  /** The command as configured (a name on PATH or a path). */
  command: string;
  /** Absolute path of the executable, or null when it is not installed. */
  path: string | null;
  /** How it was found: "login-shell", "path", "absolute" or "not-found". */
  how: "login-shell" | "path" | "absolute" | "not-found";
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    const st = await Deno.stat(path);
    return st.isFile && st.mode !== null && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** A name on PATH → its absolute path, or undefined. */
export async function onPath(name: string, path = Deno.env.get("PATH") ?? ""): Promise<
  string | undefined
> {
  for (const dir of path.split(":")) {
    if (dir && await isExecutable(`${dir}/${name}`)) return `${dir}/${name}`;
  }
  return undefined;
}

/** The command a CLI name runs: its `[clis.<name>]` command, else the built-in recipe's. */
export function commandFor(cli: string, clis: Record<string, CliOverride>): string {
  const r = allRecipes(clis).find((x) => x.name === cli || x.aliases.includes(cli));
  return r?.command ?? cli;
}

/** Locate `command` (see the module comment). `probe` is a seam for tests. */
export async function findCli(
  command: string,
  opts: { probe?: (cmd: string) => Promise<string | undefined> } = {},
): Promise<FoundCli> {
  if (command.includes("/")) {
    const abs = command.startsWith("/") ? command : `${Deno.cwd()}/${command}`;
    return await isExecutable(abs)
      ? { command, path: abs, how: "absolute" }
      : { command, path: null, how: "not-found" };
  }
  const probe = opts.probe ?? (async (cmd: string) => {
    const a = (await probeAvailability([cmd], { cache: undefined, refresh: true })).get(cmd);
    return a?.status === "available" ? a.path : undefined;
  });
  const viaShell = await probe(command).catch(() => undefined);
  if (viaShell && viaShell.startsWith("/") && await isExecutable(viaShell)) {
    return { command, path: viaShell, how: "login-shell" };
  }
  const viaPath = await onPath(command);
  if (viaPath) return { command, path: viaPath, how: "path" };
  return { command, path: null, how: "not-found" };
}

/** The first version-looking token of `--version`'s output ("2.1.197 (Claude Code)" → 2.1.197). */
export function parseVersion(out: string): string | null {
  const m = /\b(\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?)\b/.exec(out);
  return m ? m[1] : null;
}

/** `<path> --version` with `env` as its whole environment; null when it fails or says nothing. */
export async function cliVersion(
  path: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<{ version: string | null; output: string }> {
  try {
    const out = await new Deno.Command(path, {
      args: ["--version"],
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(timeoutMs),
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { version: out.success ? parseVersion(text) : null, output: text.trim().slice(0, 500) };
  } catch (e) {
    return { version: null, output: e instanceof Error ? e.message : String(e) };
  }
}
