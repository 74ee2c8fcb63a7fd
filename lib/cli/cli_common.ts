/** Helpers shared by the engine's subcommands (profile, config check, detect, __prompt-profile). */
import { loadConfig } from "../config/discover.ts";
import type { Config } from "../config/types.ts";
import type { GlobalOptions } from "./output.ts";

/** Load the configuration the global options name (or discover it). */
export function configFor(g: GlobalOptions): Promise<Config> {
  return loadConfig(g.config !== undefined ? { path: g.config } : {});
}
