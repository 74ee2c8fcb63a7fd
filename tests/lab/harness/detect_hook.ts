/**
 * The lab's bridge to the engine: `detect()` with the resolved profile of a screen's CLI (TEAM.md
 * "Profile engine API"). Loaded lazily so the lab runs, comparing fixtures only, before the engine exists.
 *
 * ```ts
 * const d = await loadDetector();          // undefined while lib/detect/mod.ts is missing
 * const v = await d?.judge(screen, "claude"); // Verdicts (§7 field names): v.state, v.command, …
 * ```
 */
import { REPO_ROOT } from "./clis.ts";
import type { Screen } from "./tmux.ts";

export type Verdicts = Record<string, unknown> & { state: string };

export interface Detector {
  judge(screen: Screen, profile: string): Promise<Verdicts>;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** detect() + resolveProfile() + loadConfig() from lib/, or undefined when any of them is missing. */
export async function loadDetector(): Promise<Detector | undefined> {
  const files = {
    detect: `${REPO_ROOT}/lib/detect/mod.ts`,
    resolve: `${REPO_ROOT}/lib/profile/resolve.ts`,
    load: `${REPO_ROOT}/lib/config/discover.ts`,
  };
  for (const f of Object.values(files)) if (!(await exists(f))) return undefined;
  // Non-literal specifiers: `deno check` must not require modules another helper is still writing.
  const spec = (p: string) => new URL(`file://${p}`).href;
  const detectMod = await import(spec(files.detect));
  const resolveMod = await import(spec(files.resolve));
  const loadMod = await import(spec(files.load));
  // Present but without what the lab calls: a refactor moved it, and the lab must say so rather
  // than go on comparing screens with no detect() at all.
  const missing = [
    typeof detectMod.detect !== "function" && `${files.detect} exports no detect()`,
    typeof resolveMod.resolveProfile !== "function" &&
    `${files.resolve} exports no resolveProfile()`,
    typeof loadMod.loadConfig !== "function" && `${files.load} exports no loadConfig()`,
  ].filter(Boolean);
  if (missing.length) throw new Error(`lab: the detect hook cannot load: ${missing.join("; ")}`);
  // The embedded defaults only: no user config may leak into what the lab verifies.
  const emptyConfig = await Deno.makeTempDir({ prefix: "drover-lab-cfg-" });
  let config: unknown;
  try {
    await Deno.writeTextFile(`${emptyConfig}/config.toml`, "");
    config = await loadMod.loadConfig({ path: `${emptyConfig}/config.toml`, cwd: emptyConfig });
  } finally {
    await Deno.remove(emptyConfig, { recursive: true });
  }
  const profiles = new Map<string, unknown>();
  return {
    judge(screen, profile) {
      if (!profiles.has(profile)) profiles.set(profile, resolveMod.resolveProfile(profile, config));
      const v = detectMod.detect(
        { plain: screen.plain, styled: screen.styled },
        profiles.get(profile),
        screen.title === undefined ? undefined : { title: screen.title },
      ) as Verdicts;
      return Promise.resolve(v);
    },
  };
}
