/** Helpers shared by the engine's subcommands (profile, config check, detect, __prompt-profile). */
import { type Config, loadConfig } from "../config/load.ts";
import type { GlobalOptions } from "./output.ts";

/** Load the configuration the global options name (or discover it). */
export function configFor(g: GlobalOptions): Promise<Config> {
  return loadConfig(g.config !== undefined ? { path: g.config } : {});
}
