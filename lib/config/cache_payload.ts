/**
 * The cache payload of a validated Config (lib/config/cache.ts). Loaded only on a cold start, after
 * load.ts validated the file, since freezing a pattern needs its parse tree (the regex parser).
 */
import { parsePattern } from "../regex/compile.ts";
import { freezePattern } from "../regex/frozen.ts";
import type { CachedCli, CachePayload } from "./cache.ts";
import type { Config } from "./types.ts";

/** Plain JSON data that reads back as the same value (a TOML date or `inf` would not). */
function jsonSafe(v: unknown): boolean {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0);
  if (Array.isArray(v)) return v.every(jsonSafe);
  if (typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.entries(v as Record<string, unknown>).every(([k, x]) =>
    k !== "__proto__" && jsonSafe(x)
  );
}

/** The payload for `c`, or null when part of it would not read back as it is (then no cache). */
export function payloadOf(c: Config): CachePayload | null {
  const clis: CachedCli[] = [];
  for (const e of Object.values(c.clis)) {
    const patterns: Record<string, ReturnType<typeof freezePattern>> = {};
    for (const [field, p] of Object.entries(e.promptProfilePatterns)) {
      if (p) patterns[field] = freezePattern(p, parsePattern(p.source).tree);
    }
    clis.push({
      name: e.name,
      command: e.command,
      args: [...e.args],
      prompt: e.prompt,
      env: { ...e.env },
      enabled: e.enabled,
      promptProfile: { ...e.promptProfile },
      patterns,
      promptProfileLines: { ...e.promptProfileLines },
      extra: { ...e.extra },
      line: e.line,
    });
  }
  const payload: CachePayload = {
    defaultCli: c.defaultCli,
    clis,
    drive: { ...c.drive },
    unknown: c.unknown.map((u) => ({ key: u.key, line: u.line })),
    allowLines: [...(c.allowLines ?? [])],
  };
  // A `[clis.__proto__]` table would not come back as the same object: such a file is not cached.
  return jsonSafe(payload) && Object.getPrototypeOf(c.clis) === Object.prototype ? payload : null;
}
