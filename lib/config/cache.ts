/**
 * The configuration cache (issue 24): the validated, compiled result of a configuration file, kept
 * so that a start whose file has not changed loads neither smol-toml, zod nor the regex parser and
 * validates nothing. A cron `drive --once` or a sweep.sh call starts every minute; the file changes
 * perhaps once a week.
 *
 * One file per configuration path, `config-<hash of the path>.cache`, in the user's cache dir
 * (`userCacheDir`: the directory 0700, the file 0600, written atomically, never read or written
 * through a symlink). Its first line names the format, drover's version and the digest; the second
 * is the key — the file's absolute path, size, mtime and the SHA-256 of its bytes — and the rest is
 * the payload: the Config as JSON, each pattern frozen down to what its matcher runs
 * (lib/regex/frozen.ts, the same form the shipped profiles start from).
 *
 * A cache is used only when every part holds: the format and version are this drover's, the key is
 * the one just computed from the file as read, the digest is SHA-256 of key and payload, the file
 * is a regular file of this user that nobody else can write, in a directory nobody else can write,
 * and the payload passes the value rules again (`rebuild`). Anything else is a miss: the file is
 * validated in full as if there were no cache, and the cache rewritten. A configuration that is
 * rejected is never cached (the key holds its content hash, so an edit always misses).
 *
 * Why a tampered cache cannot widen what the configuration allows: the key holds the content hash
 * of the file as read on this start, and the digest binds the payload to that key, so a flipped
 * byte, a torn write, a payload edited by hand or copied from another file's cache is a miss. A
 * forgery that recomputes the digest needs write access to a 0600 file in a 0700 directory of this
 * user — which is write access to the user's configuration itself: no privilege boundary is
 * crossed. And even then the payload is held to the same value rules as a file (no empty or
 * whitespace allow entry, no empty marker, no catch-all pattern, durations in range), while the
 * approve gate's strictness never came from the configuration at all: a profile can only add
 * refusing wordings (lib/profile/gate_words.ts, computed on every start from the resolved profile).
 */
import { NotRegularFile, readRegular, writeAtomic } from "../io/safe_file.ts";
import { privateDir } from "../io/user_dirs.ts";
import { type FieldName, FIELDS, type PartialProfileValues } from "../profile/fields.ts";
import {
  catchAllProblem,
  markerProblem,
  namedGroupsProblem,
  PROFILE_LIMITS,
} from "../profile/value_rules.ts";
import type { CompiledPattern } from "../regex/compile.ts";
import { type FrozenPattern, thawPattern } from "../regex/frozen.ts";
import { VERSION } from "../version.ts";
import { DRIVE_DURATIONS, rangeProblem } from "./duration.ts";
import type {
  CliEntry,
  Config,
  ConfigSource,
  DriveConfig,
  PromptStyle,
  UnknownEntry,
} from "./types.ts";

/** Bumped whenever the payload's shape or the frozen pattern form changes. */
export const CACHE_FORMAT = 1;
const MAGIC = "drover-config-cache";
/** A cache larger than this is not read (nor written): a 1 MiB file does not compile to it. */
export const MAX_CACHE_BYTES = 8 * 1024 * 1024;
/** Cache files kept in the directory; the least recently written beyond this are removed. */
export const MAX_CACHE_FILES = 16;

/** What identifies one version of one configuration file. */
export interface CacheKey {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number | null;
  readonly sha256: string;
}

/** One `[clis.<name>]` entry as the cache holds it: patterns frozen. */
export interface CachedCli {
  name: string;
  command: string | null;
  args: string[];
  prompt: string | null;
  env: Record<string, string>;
  enabled: boolean;
  promptProfile: Record<string, unknown>;
  patterns: Record<string, FrozenPattern>;
  promptProfileLines: Record<string, number>;
  extra: Record<string, unknown>;
  line: number;
}

/** The payload: a Config without what discovery says (path, source) and with patterns frozen. */
export interface CachePayload {
  defaultCli: string | null;
  clis: CachedCli[];
  drive: Record<string, unknown>;
  unknown: UnknownEntry[];
  allowLines: number[];
}

export interface CacheLocation {
  /** The cache directory (`userCacheDir`), or null: no cache. */
  readonly dir: string | null;
  /** Whose files count (default: this process's uid). */
  readonly uid?: number | null;
}

function hex(buf: ArrayBuffer): string {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return hex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

function absolute(path: string, cwd: string): string {
  return path.startsWith("/") ? path : `${cwd.replace(/\/+$/, "")}/${path}`;
}

/** The key of the file as this start read it (`info` from the open file, `bytes` all of it). */
export async function cacheKey(
  path: string,
  info: Deno.FileInfo,
  bytes: Uint8Array,
  cwd: string,
): Promise<CacheKey> {
  return {
    path: absolute(path, cwd),
    size: bytes.length,
    mtimeMs: info.mtime?.getTime() ?? null,
    sha256: await sha256(bytes),
  };
}

/** The cache file for a key's configuration path. */
export async function cacheFile(dir: string, key: CacheKey): Promise<string> {
  return `${dir}/config-${(await sha256(key.path)).slice(0, 32)}.cache`;
}

const header = (digest: string) => `${MAGIC} ${CACHE_FORMAT} ${VERSION} ${digest}`;

function digestOf(keyLine: string, payloadText: string): Promise<string> {
  return sha256(`${MAGIC} ${CACHE_FORMAT} ${VERSION}\n${keyLine}\n${payloadText}`);
}

/** The cache file's text for `payload` under `key`. */
export async function cacheText(key: CacheKey, payload: CachePayload): Promise<string> {
  const keyLine = JSON.stringify(key);
  const payloadText = JSON.stringify(payload);
  return `${header(await digestOf(keyLine, payloadText))}\n${keyLine}\n${payloadText}\n`;
}

/**
 * The cached Config for `key`, or null on any miss (module doc). Never throws: a cache that cannot
 * be read is one that is not there.
 */
export async function readCachedConfig(
  loc: CacheLocation,
  key: CacheKey,
  path: string,
  source: ConfigSource,
): Promise<Config | null> {
  if (loc.dir === null) return null;
  const uid = loc.uid === undefined ? Deno.uid() : loc.uid;
  try {
    await privateDir(loc.dir, uid, false);
    const read = await readRegular(await cacheFile(loc.dir, key), MAX_CACHE_BYTES);
    if (read === null || read.truncated) return null;
    // Only a file of this user that nobody else can write; anything else is rewritten.
    if (uid !== null && read.info.uid !== uid) return null;
    if (((read.info.mode ?? 0) & 0o022) !== 0) return null;
    const text = new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
    const a = text.indexOf("\n");
    const b = text.indexOf("\n", a + 1);
    if (a < 0 || b < 0 || !text.endsWith("\n")) return null;
    const head = text.slice(0, a).split(" ");
    const keyLine = text.slice(a + 1, b);
    const payloadText = text.slice(b + 1, -1);
    if (head.length !== 4 || head.slice(0, 3).join(" ") !== header("").slice(0, -1)) return null;
    if (keyLine !== JSON.stringify(key)) return null;
    if (head[3] !== await digestOf(keyLine, payloadText)) return null;
    return rebuild(JSON.parse(payloadText), path, source);
  } catch {
    return null;
  }
}

/**
 * Write the cache for `key` (the payload from cache_payload.ts). Never throws and never reports: a
 * cache that cannot be written only means the next start validates the file again.
 */
export async function writeCachedConfig(
  loc: CacheLocation,
  key: CacheKey,
  payload: CachePayload,
): Promise<void> {
  if (loc.dir === null) return;
  const uid = loc.uid === undefined ? Deno.uid() : loc.uid;
  try {
    const data = new TextEncoder().encode(await cacheText(key, payload));
    if (data.length > MAX_CACHE_BYTES) return;
    await Deno.mkdir(loc.dir.replace(/\/[^/]*$/, "") || "/", { recursive: true, mode: 0o700 });
    await privateDir(loc.dir, uid, true);
    const file = await cacheFile(loc.dir, key);
    try {
      await writeAtomic(file, data, 0o600);
    } catch (e) {
      if (!(e instanceof NotRegularFile)) throw e;
      // A symlink (or a second hard link) planted in our own private directory: unlink that
      // entry itself, never what it points at, and write a fresh file in its place.
      await Deno.remove(file);
      await writeAtomic(file, data, 0o600);
    }
    await prune(loc.dir, file);
  } catch {
    // A directory others can write (UnsafeDir) is never written into; a full disk, a read-only
    // home or a lost race leaves the next start to validate again.
  }
}

/** Keep the newest MAX_CACHE_FILES configuration caches (one per config path ever used). */
async function prune(dir: string, keep: string): Promise<void> {
  const files: { path: string; mtime: number }[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.isFile || !/^config-[0-9a-f]{32}\.cache$/.test(e.name)) continue;
    const path = `${dir}/${e.name}`;
    if (path === keep) continue;
    const info = await Deno.lstat(path).catch(() => null);
    if (info) files.push({ path, mtime: info.mtime?.getTime() ?? 0 });
  }
  if (files.length < MAX_CACHE_FILES) return;
  files.sort((x, y) => y.mtime - x.mtime);
  for (const f of files.slice(MAX_CACHE_FILES - 1)) await Deno.remove(f.path).catch(() => {});
}

// ---------------------------------------------------------------------------------------------
// The payload back to a Config, held to the value rules a file is held to (module doc).

class Untrusted extends Error {}

function fail(what: string): never {
  throw new Untrusted(what);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const nonEmptyString = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

function strings(v: unknown, what: string): string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) fail(what);
  return v as string[];
}

const DRIVE_STRINGS = [
  "session",
  "orchestrator",
  "nudge",
  "events",
  "onEscalate",
  "state",
  "resume",
] as const;
const DRIVE_MS: Record<string, keyof typeof DRIVE_DURATIONS> = {
  nudgeEveryMs: "nudge_every",
  dedupWindowMs: "dedup_window",
  intervalMs: "interval",
  hookTimeoutMs: "hook_timeout",
  resumeMarginMs: "resume_margin",
};

function driveOf(v: unknown): DriveConfig {
  if (!isRecord(v)) fail("drive");
  for (const [k, x] of Object.entries(v)) {
    if ((DRIVE_STRINGS as readonly string[]).includes(k)) {
      if (!nonEmptyString(x)) fail(`drive.${k}`);
    } else if (k === "approve") {
      if (x !== "none" && x !== "allowlist") fail("drive.approve");
    } else if (k === "allow") {
      // An empty or blank entry would be a prefix of every command.
      if (!strings(x, "drive.allow").every(nonEmptyString)) fail("drive.allow");
    } else if (k in DRIVE_MS) {
      if (typeof x !== "number" || !Number.isInteger(x) || x < 0) fail(`drive.${k}`);
      if (rangeProblem(x, DRIVE_DURATIONS[DRIVE_MS[k]]) !== null) fail(`drive.${k}`);
    } else fail(`drive.${k}`);
  }
  return Object.freeze({ ...v, ...(v.allow ? { allow: [...v.allow as string[]] } : {}) });
}

/** The prompt_profile values and their patterns, held to the rules of the schema. */
function profileOf(c: CachedCli): {
  values: PartialProfileValues;
  patterns: Partial<Record<FieldName, CompiledPattern>>;
} {
  if (!isRecord(c.promptProfile) || !isRecord(c.patterns)) fail("prompt_profile");
  const values: Record<string, unknown> = {};
  const patterns: Partial<Record<FieldName, CompiledPattern>> = {};
  let total = 0;
  for (const [name, v] of Object.entries(c.promptProfile)) {
    const f = FIELDS.find((f) => f.name === name) ?? fail(`prompt_profile.${name}`);
    if (f.kind === "markers") {
      const list = strings(v, name);
      if (list.length === 0 || list.length > PROFILE_LIMITS.markersPerField) fail(name);
      if (list.some((m) => markerProblem(m) !== null)) fail(name);
      total += list.length;
      values[name] = [...list];
    } else if (f.kind === "marker") {
      if (typeof v !== "string" || markerProblem(v) !== null) fail(name);
      total++;
      values[name] = v;
    } else {
      const frozen = c.patterns[name] as FrozenPattern | undefined;
      if (typeof v !== "string" || !isRecord(frozen) || frozen.source !== v) fail(name);
      const p = thawPattern(frozen);
      if (catchAllProblem(p.matcher) !== null || namedGroupsProblem(p.matcher, f) !== null) {
        fail(name);
      }
      total++;
      values[name] = v;
      patterns[name as FieldName] = p;
    }
  }
  if (total > PROFILE_LIMITS.markersPerProfile) fail("prompt_profile");
  if (Object.keys(c.patterns).some((k) => !(k in patterns))) fail("patterns");
  return { values: values as PartialProfileValues, patterns };
}

function cliOf(c: unknown): CliEntry {
  if (!isRecord(c)) fail("clis");
  const e = c as unknown as CachedCli;
  if (typeof e.name !== "string") fail("clis.name");
  if (e.command !== null && !nonEmptyString(e.command)) fail("command");
  if (e.prompt !== null && !/^(positional|none|flag:-\S+)$/.test(String(e.prompt))) fail("prompt");
  if (!isRecord(e.env) || !Object.values(e.env).every((x) => typeof x === "string")) fail("env");
  if (typeof e.enabled !== "boolean" || !isRecord(e.extra) || !isRecord(e.promptProfileLines)) {
    fail("clis");
  }
  if (!Number.isInteger(e.line)) fail("line");
  const { values, patterns } = profileOf(e);
  return Object.freeze({
    name: e.name,
    command: e.command,
    args: [...strings(e.args, "args")],
    prompt: e.prompt as PromptStyle | null,
    env: { ...e.env },
    enabled: e.enabled,
    promptProfile: values,
    promptProfilePatterns: patterns,
    promptProfileLines: { ...e.promptProfileLines } as Partial<Record<FieldName, number>>,
    extra: { ...e.extra },
    line: e.line,
  });
}

/** The Config a payload describes, or null when it breaks any rule (then it is not used). */
export function rebuild(payload: unknown, path: string, source: ConfigSource): Config | null {
  try {
    if (!isRecord(payload)) fail("payload");
    const p = payload as unknown as CachePayload;
    if (p.defaultCli !== null && !nonEmptyString(p.defaultCli)) fail("defaultCli");
    if (!Array.isArray(p.clis) || !Array.isArray(p.unknown) || !Array.isArray(p.allowLines)) {
      fail("payload");
    }
    const clis: Record<string, CliEntry> = {};
    for (const c of p.clis) {
      const e = cliOf(c);
      clis[e.name] = e;
    }
    const drive = driveOf(p.drive);
    if (p.allowLines.length !== (drive.allow?.length ?? 0)) fail("allowLines");
    return Object.freeze({
      path,
      source,
      defaultCli: p.defaultCli,
      clis,
      drive,
      unknown: p.unknown.map((u) => ({ key: String(u.key), line: Number(u.line) })),
      allowLines: p.allowLines.map(Number),
    });
  } catch {
    // A rule broken (Untrusted) or a shape no file compiles to (a frozen program that does not
    // thaw): either way this payload is not one drover wrote for a valid file.
    return null;
  }
}
