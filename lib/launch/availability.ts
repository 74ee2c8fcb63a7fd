/**
 * Is a CLI's executable on the PATH a user's login shell would give it? Advisory only: the answer
 * is shown by `clis list` and may add a warning to `launch`, but never blocks a launch.
 *
 * One login shell (`$SHELL -lc`) answers for every command at once; each answer sits between
 * per-call markers so whatever the shell's startup files print cannot be mistaken for one. The
 * probe is all-or-nothing: a shell that fails, hangs or prints a partial batch leaves every command
 * `unknown`, never `unavailable`. Results are cached under $XDG_CACHE_HOME/drover (positive answers
 * for a day, negative ones for 5 minutes, since installing a CLI should show up quickly).
 */
import { readRegular, writeAtomic } from "../io/safe_file.ts";
import { userCacheDir } from "../io/user_dirs.ts";

export type Availability = "available" | "unavailable" | "unknown";

export interface ProbeAnswer {
  status: Availability;
  path?: string;
  checked_at?: string;
}

const POSITIVE_TTL_MS = 24 * 60 * 60 * 1000;
const NEGATIVE_TTL_MS = 5 * 60 * 1000;

/** Names a login shell can be asked about without quoting: anything else stays `unknown`. */
const SAFE_NAME = /^[A-Za-z0-9._+/-]+$/;

export function cachePath(env = Deno.env.toObject()): string | undefined {
  const dir = userCacheDir((n) => env[n]);
  return dir === null ? undefined : `${dir}/availability.json`;
}

type CacheFile = Record<string, { status: "available" | "unavailable"; path?: string; at: number }>;

async function readCache(path: string | undefined): Promise<CacheFile> {
  if (!path) return {};
  try {
    // Only a regular file, and only its first MiB: a FIFO planted here would hang every launch.
    const read = await readRegular(path, 1024 * 1024);
    if (read === null || read.truncated) return {};
    const v = JSON.parse(new TextDecoder().decode(read.bytes));
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v as CacheFile : {};
  } catch {
    return {};
  }
}

async function writeCache(path: string | undefined, data: CacheFile): Promise<void> {
  if (!path) return;
  try {
    await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true, mode: 0o700 });
    // A new temporary file renamed over the cache, never written through a symlink.
    await writeAtomic(path, new TextEncoder().encode(JSON.stringify(data)));
  } catch {
    // a cache that cannot be written only means the next call probes again
  }
}

function fresh(e: CacheFile[string] | undefined, now: number): boolean {
  if (!e) return false;
  const ttl = e.status === "available" ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS;
  return now - e.at < ttl && now >= e.at;
}

/** The cached answers only (never probes): what `launch` consults. */
export async function cachedAvailability(
  commands: string[],
  path = cachePath(),
  now = Date.now(),
): Promise<Map<string, ProbeAnswer>> {
  const cache = await readCache(path);
  const out = new Map<string, ProbeAnswer>();
  for (const c of commands) {
    const e = cache[c];
    out.set(
      c,
      fresh(e, now)
        ? { status: e!.status, path: e!.path, checked_at: new Date(e!.at).toISOString() }
        : { status: "unknown" },
    );
  }
  return out;
}

function randomTag(): string {
  const b = new Uint8Array(6);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/**
 * The probe script: `echo MARK:i; command -v NAME; …; echo MARK:end`. Only `echo`, `command -v`
 * and `;`, which bash, zsh, dash and fish all read the same way.
 */
export function probeScript(commands: string[], tag: string): string {
  const parts = commands.map((c, i) => `echo ${tag}:${i}; command -v ${c}`);
  return [...parts, `echo ${tag}:end`].join("; ");
}

/** Parse the probe's stdout; undefined when the batch is not complete (all-or-nothing). */
export function parseProbe(
  stdout: string,
  commands: string[],
  tag: string,
): Map<string, ProbeAnswer> | undefined {
  const lines = stdout.split("\n");
  if (!lines.some((l) => l.trim() === `${tag}:end`)) return undefined;
  const out = new Map<string, ProbeAnswer>();
  let current = -1;
  const found: (string | undefined)[] = commands.map(() => undefined);
  for (const raw of lines) {
    const line = raw.trim();
    const m = line.startsWith(`${tag}:`) ? line.slice(tag.length + 1) : undefined;
    if (m !== undefined) {
      current = m === "end" ? -1 : Number(m);
      continue;
    }
    if (current >= 0 && line !== "" && found[current] === undefined) found[current] = line;
  }
  commands.forEach((c, i) => {
    out.set(c, found[i] ? { status: "available", path: found[i] } : { status: "unavailable" });
  });
  return out;
}

export interface ProbeOptions {
  shell?: string;
  timeoutMs?: number;
  cache?: string | undefined;
  /** Ignore cached answers and ask the shell again. */
  refresh?: boolean;
  now?: number;
}

/** Answers for every command: cached where fresh, otherwise one login-shell probe for the rest. */
export async function probeAvailability(
  commands: string[],
  opts: ProbeOptions = {},
): Promise<Map<string, ProbeAnswer>> {
  const now = opts.now ?? Date.now();
  const cacheFile = "cache" in opts ? opts.cache : cachePath();
  const cache = await readCache(cacheFile);
  const out = new Map<string, ProbeAnswer>();
  const ask: string[] = [];
  for (const c of [...new Set(commands)]) {
    const e = cache[c];
    if (!opts.refresh && fresh(e, now)) {
      out.set(c, { status: e!.status, path: e!.path, checked_at: new Date(e!.at).toISOString() });
    } else if (SAFE_NAME.test(c)) {
      ask.push(c);
    } else {
      out.set(c, { status: "unknown" });
    }
  }
  if (ask.length > 0) {
    const answers = await runProbe(ask, opts.shell, opts.timeoutMs ?? 20_000);
    for (const c of ask) {
      const a = answers?.get(c);
      if (a && a.status !== "unknown") {
        cache[c] = { status: a.status, path: a.path, at: now };
        out.set(c, { ...a, checked_at: new Date(now).toISOString() });
      } else {
        out.set(c, { status: "unknown" });
      }
    }
    if (answers) await writeCache(cacheFile, cache);
  }
  return out;
}

async function runProbe(
  commands: string[],
  shell: string | undefined,
  timeoutMs: number,
): Promise<Map<string, ProbeAnswer> | undefined> {
  const sh = shell ?? (Deno.env.get("SHELL") || "/bin/sh");
  const tag = `__drover_probe_${randomTag()}`;
  try {
    const out = await new Deno.Command(sh, {
      args: ["-l", "-c", probeScript(commands, tag)],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(timeoutMs),
    }).output();
    return parseProbe(new TextDecoder().decode(out.stdout), commands, tag);
  } catch {
    return undefined;
  }
}
