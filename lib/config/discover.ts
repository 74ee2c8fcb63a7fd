/**
 * Finding and reading the configuration file (DESIGN §3). Light on purpose: with no file nothing
 * else loads; with one, the configuration cache (cache.ts) is asked first, and only when it has no
 * valid entry for the file exactly as read are the parser and its zod schemas (load.ts) imported
 * to validate it.
 */
import { DroverError } from "../errors.ts";
import { readUpTo } from "../io/capped.ts";
import { userCacheDir } from "../io/user_dirs.ts";
import {
  type CacheKey,
  cacheKey,
  type CacheLocation,
  readCachedConfig,
  writeCachedConfig,
} from "./cache.ts";
import { CONFIG_MAX_BYTES, tooLarge } from "./size.ts";
import { type Config, type ConfigSource, EMPTY_CONFIG, type LoadOptions } from "./types.ts";

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

function join(dir: string, ...parts: string[]): string {
  return [dir.replace(/\/+$/, ""), ...parts].join("/");
}

/** Find the configuration file by the §3 order. Null = no file at all (valid). */
export async function discoverConfig(
  opts: LoadOptions = {},
): Promise<{ path: string; source: ConfigSource } | null> {
  const env = opts.env ?? ((n: string) => Deno.env.get(n));
  if (opts.path !== undefined) {
    if (!(await exists(opts.path))) {
      throw new DroverError(
        "CONFIG_INVALID",
        `${opts.path}: configuration file not found (given with --config)`,
        { details: { file: opts.path } },
      );
    }
    return { path: opts.path, source: "flag" };
  }
  const fromEnv = env("DROVER_CONFIG");
  if (fromEnv) {
    if (!(await exists(fromEnv))) {
      throw new DroverError(
        "CONFIG_INVALID",
        `${fromEnv}: configuration file not found (named by $DROVER_CONFIG)`,
        { details: { file: fromEnv } },
      );
    }
    return { path: fromEnv, source: "env" };
  }
  // Every candidate is looked at at once (a start pays one round of stats, not one per level);
  // the first in §3 order that exists wins.
  const candidates: { path: string; source: ConfigSource }[] = [];
  let dir = opts.cwd ?? Deno.cwd();
  for (;;) {
    candidates.push({ path: join(dir, ".drover", "config.toml"), source: "project" });
    const parent = dir.replace(/\/[^/]*$/, "") || "/";
    if (parent === dir) break;
    dir = parent;
  }
  const xdg = env("XDG_CONFIG_HOME") || (env("HOME") ? join(env("HOME")!, ".config") : undefined);
  if (xdg) candidates.push({ path: join(xdg, "drover", "config.toml"), source: "user" });
  const found = await Promise.all(candidates.map((c) => exists(c.path)));
  const i = found.indexOf(true);
  if (i >= 0) return candidates[i];
  return null;
}

/** Discover, read and validate the configuration. Throws CONFIG_INVALID listing every problem. */
export async function loadConfig(opts: LoadOptions = {}): Promise<Config> {
  const found = await discoverConfig(opts);
  if (!found) return EMPTY_CONFIG;
  let bytes: Uint8Array;
  let info: Deno.FileInfo;
  try {
    using f = await Deno.open(found.path);
    info = await f.stat();
    bytes = await readUpTo(f, CONFIG_MAX_BYTES, found.path);
  } catch (e) {
    throw new DroverError(
      "CONFIG_INVALID",
      `${found.path}: cannot read configuration: ${e instanceof Error ? e.message : String(e)}`,
      { details: { file: found.path } },
    );
  }
  // Refused before the cache is even asked: an oversized file never gets as far as a key.
  if (bytes.length > CONFIG_MAX_BYTES) throw tooLarge(found.path);
  const env = opts.env ?? ((n: string) => Deno.env.get(n));
  const cache: CacheLocation = {
    dir: opts.cacheDir !== undefined ? opts.cacheDir : userCacheDir(env),
    uid: opts.uid,
  };
  let key: CacheKey | null = null;
  if (cache.dir !== null) {
    key = await cacheKey(found.path, info, bytes, opts.cwd ?? Deno.cwd());
    const hit = await readCachedConfig(cache, key, found.path, found.source);
    if (hit) return hit;
  }
  const text = new TextDecoder().decode(bytes);
  const { parseConfig } = await import("./load.ts");
  // A file that is rejected throws here, before anything is cached.
  const config = parseConfig(text, found.path, found.source);
  if (key !== null) {
    const { payloadOf } = await import("./cache_payload.ts");
    const payload = payloadOf(config);
    if (payload !== null) await writeCachedConfig(cache, key, payload);
  }
  return config;
}
