/**
 * The `[clis.<name>]` launch fields, taken from the one configuration loader (lib/config/load.ts).
 * Launch reads only command, args, prompt, env and enabled; prompt_profile belongs to the engine.
 */
import { loadConfig } from "../config/discover.ts";
import type { Config } from "../config/types.ts";
import type { CliOverride } from "./recipes.ts";

/** The launch view of a loaded configuration: unset fields stay unset so built-ins show through. */
export function overridesOf(config: Config): Record<string, CliOverride> {
  const out: Record<string, CliOverride> = {};
  for (const [name, e] of Object.entries(config.clis)) {
    const o: CliOverride = { env: { ...e.env }, enabled: e.enabled };
    if (e.command !== null) o.command = e.command;
    if (e.args.length > 0) o.args = [...e.args];
    if (e.prompt !== null) o.prompt = e.prompt;
    out[name] = o;
  }
  return out;
}

/** Load the configuration (--config, $DROVER_CONFIG, .drover/config.toml, XDG) for launch. */
export async function loadLaunchConfig(
  g: { config?: string },
): Promise<{ config: Config; clis: Record<string, CliOverride> }> {
  const config = await loadConfig(g.config !== undefined ? { path: g.config } : {});
  return { config, clis: overridesOf(config) };
}
