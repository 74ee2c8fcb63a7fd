/** Helpers shared by the engine's subcommands (profile, config check, detect, __prompt-profile). */
import { loadConfig } from "../config/discover.ts";
import type { Config } from "../config/types.ts";
import type { GlobalOptions } from "./output.ts";

/**
 * Load the configuration the global options name (or discover it). `cache: false` for a command
 * that promises to write nothing under the user's HOME (verify): no configuration cache is read
 * or written, and the file is validated in full.
 */
export function configFor(g: GlobalOptions, opts: { cache?: boolean } = {}): Promise<Config> {
  return loadConfig({
    ...(g.config !== undefined ? { path: g.config } : {}),
    ...(opts.cache === false ? { cacheDir: null } : {}),
  });
}
