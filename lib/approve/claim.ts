/**
 * One approver per pane (DESIGN §6): an atomic claim file, created exclusively, stolen only when
 * older than CLAIM_TTL_MS (a crashed approver must not block a pane for ever).
 *
 * Where: in every usable per-user runtime directory, the drive lock's places
 * (lib/io/user_dirs.ts `runtimeDirs`): `/run/user/UID/drover/claims` while that exists, and
 * `/tmp/drover-UID/claims` (0700). They are derived from the uid alone, never from XDG_RUNTIME_DIR,
 * so an approver run by cron under `env -i`, one from a shell and a drive all meet there. An
 * approver takes the claim in each of them and holds the pane only when it got every one.
 * Name:  claimName — the server's socket path and the pane id (pane ids are per tmux server).
 * `drover __claim-paths` prints the paths claimPaths gives, and sweep.sh takes its claims there:
 * this module is the one definition of where a pane's claim lives, for the binary and the script.
 *
 * A claim file is only ever created new (O_EXCL: never through a symlink), read as a regular file
 * (lib/io/safe_file.ts `readRegular`) and renamed or removed. Anything else at a claim path — a
 * symbolic link, FIFO, directory, socket, device — is refused (NotRegularFile; approve makes it exit
 * 74 with nothing sent), left in place and never opened.
 */
import { DroverError } from "../errors.ts";
import { isDiskFull, kindOf, NotRegularFile, readRegular } from "../io/safe_file.ts";
import { RuntimeDirFull, runtimeDirs } from "../io/user_dirs.ts";

export const CLAIM_TTL_MS = 10_000;

/** The version of `drover __claim-paths`'s output (sweep.sh checks it), and its first line. */
export const CLAIM_PATHS_FORMAT = 1;
export const CLAIM_PATHS_HEADER = `drover-claim-paths/${CLAIM_PATHS_FORMAT}`;

/** `<socket path, every byte outside [A-Za-z0-9._-] as "_">_<pane id without "%">.claim` */
export function claimName(socketPath: string, paneId: string): string {
  const bytes = new TextEncoder().encode(socketPath);
  let safe = "";
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    safe += /[A-Za-z0-9._-]/.test(c) ? c : "_";
  }
  return `${safe}_${paneId.replace(/^%/, "")}.claim`;
}

const message = (e: unknown) => e instanceof Error ? e.message : String(e);

/**
 * Every path of a pane's claim, its directories made private on first use. `bases`: runtime bases
 * instead of the user's own (tests and `verify` pass one). Throws STATE_UNWRITABLE (74) when no
 * runtime directory can hold a claim or the disk is full: without a claim nothing may be sent.
 */
export async function claimPaths(
  socketPath: string,
  paneId: string,
  bases?: string[],
): Promise<string[]> {
  let found;
  try {
    found = await runtimeDirs("claims", bases);
  } catch (e) {
    if (!(e instanceof RuntimeDirFull)) throw e;
    throw new DroverError(
      "STATE_UNWRITABLE",
      `cannot make the approve claim directory under ${e.base}: the disk or the quota is full (${
        message(e.cause)
      }); nothing was sent`,
      { details: { claim_dir: e.base }, cause: e.cause },
    );
  }
  if (found.dirs.length === 0) {
    throw new DroverError(
      "STATE_UNWRITABLE",
      `no private per-user runtime directory can hold the pane's approve claim (${
        found.skipped.join("; ") || "none exists"
      }), so no approver could be kept out; nothing was sent`,
      { details: { skipped: found.skipped } },
    );
  }
  const name = claimName(socketPath, paneId);
  return found.dirs.map((d) => `${d}/${name}`);
}

/** What stands at a claim path: null (nothing), or a regular file's lstat. */
async function look(path: string): Promise<Deno.FileInfo | null> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  // Claims are never written in place, so a second hard link (our own put-back makes one for a
  // moment) is harmless; only a non-file is refused.
  if (!info.isFile) throw new NotRegularFile(path, kindOf(info));
  return info;
}

/** The claim's holder, from its first KiB; "" when it cannot be read (gone, replaced). */
async function readHolder(path: string): Promise<string> {
  try {
    const got = await readRegular(path, 1024);
    if (got === null) return "";
    return new TextDecoder().decode(got.bytes).trim().replace(/[^\x20-\x7e]/g, "?");
  } catch {
    return "";
  }
}

export interface Claim {
  /** Every claim file held, in claimPaths order. */
  paths: string[];
  /** Remove each claim file that is still ours. */
  release(): Promise<void>;
}

export type ClaimResult =
  | { ok: true; claim: Claim; stole: boolean }
  | { ok: false; path: string; holder: string; ageMs: number };

type One = { ok: true; stole: boolean } | { ok: false; holder: string; ageMs: number };

async function createExclusive(path: string, token: string): Promise<boolean> {
  try {
    const f = await Deno.open(path, { createNew: true, write: true, mode: 0o600 });
    try {
      const bytes = new TextEncoder().encode(token + "\n");
      for (let done = 0; done < bytes.length;) done += await f.write(bytes.subarray(done));
    } catch (e) {
      f.close();
      await Deno.remove(path).catch(() => {});
      throw e;
    }
    f.close();
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return false;
    throw e;
  }
}

/** Take one claim file: create it, or steal it when stale. Throws NotRegularFile. */
async function takeOne(path: string, token: string): Promise<One> {
  if ((await look(path)) === null && await createExclusive(path, token)) {
    return { ok: true, stole: false };
  }
  const st = await look(path);
  if (st === null) {
    // Released between our attempt and the look: one more exclusive try, no loop.
    if (await createExclusive(path, token)) return { ok: true, stole: false };
    await look(path);
    return { ok: false, holder: await readHolder(path), ageMs: 0 };
  }
  const mtime = st.mtime?.getTime();
  const ageMs = mtime === undefined ? 0 : Date.now() - mtime;
  // An unreadable mtime is never stale.
  if (mtime === undefined || ageMs <= CLAIM_TTL_MS) {
    return { ok: false, holder: await readHolder(path), ageMs };
  }
  // Steal: move the stale file aside, then check that what we moved is the stale one we judged
  // (another stealer may have replaced it with a fresh claim in between); if not, put it back.
  const aside = `${path}.stale.${Deno.pid}.${crypto.randomUUID()}`;
  try {
    await Deno.rename(path, aside);
  } catch {
    return { ok: false, holder: await readHolder(path), ageMs };
  }
  const moved = await Deno.lstat(aside);
  const same = moved.ino === st.ino && moved.mtime?.getTime() === mtime;
  if (!same) {
    try {
      await Deno.link(aside, path);
    } catch {
      // someone claimed meanwhile; their claim stands
    }
    await Deno.remove(aside).catch(() => {});
    return { ok: false, holder: await readHolder(path), ageMs: 0 };
  }
  await Deno.remove(aside).catch(() => {});
  if (await createExclusive(path, token)) return { ok: true, stole: true };
  await look(path);
  return { ok: false, holder: await readHolder(path), ageMs: 0 };
}

/**
 * Take the pane's claim at every path (claimPaths), in order. Held anywhere by another approver:
 * `ok: false` naming that path, and whatever was taken is released. Throws NotRegularFile (after
 * releasing) when something that is not a regular file stands at a path, or the create's error.
 */
export async function acquireClaim(paths: string[]): Promise<ClaimResult> {
  const token = `drover pid=${Deno.pid} nonce=${crypto.randomUUID()} at=${
    new Date().toISOString()
  }`;
  const taken: string[] = [];
  const release = async () => {
    for (const p of [...taken].reverse()) {
      if ((await readHolder(p)) === token) await Deno.remove(p).catch(() => {});
    }
  };
  let stole = false;
  try {
    for (const path of paths) {
      const one = await takeOne(path, token);
      if (!one.ok) {
        await release();
        return { ok: false, path, holder: one.holder, ageMs: one.ageMs };
      }
      stole ||= one.stole;
      taken.push(path);
    }
  } catch (e) {
    await release();
    throw e;
  }
  return { ok: true, claim: { paths: taken, release }, stole };
}

/**
 * Look at a pane's claim without taking it (--dry-run): held when a fresh claim stands at any
 * path. Throws NotRegularFile like acquireClaim.
 */
export async function peekClaim(
  paths: string[],
  now = Date.now(),
): Promise<{ held: boolean; path: string; holder: string; ageMs: number }> {
  for (const path of paths) {
    const st = await look(path);
    if (st === null) continue;
    const ageMs = now - (st.mtime?.getTime() ?? now);
    if (ageMs <= CLAIM_TTL_MS) return { held: true, path, holder: await readHolder(path), ageMs };
  }
  return { held: false, path: paths[0] ?? "", holder: "", ageMs: 0 };
}

/** A claim path's refusal (exit 74), or null when `e` is no such failure. */
export function claimPathError(e: unknown): DroverError | null {
  if (e instanceof NotRegularFile) {
    return new DroverError(
      "STATE_UNWRITABLE",
      `${e.what} stands where the pane's approve claim file ${e.path} belongs; refused, nothing ` +
        `was sent and it was left as it is (remove it)`,
      { details: { claim: e.path }, cause: e },
    );
  }
  if (isDiskFull(e)) {
    return new DroverError(
      "STATE_UNWRITABLE",
      `cannot write the pane's approve claim: the disk or the quota is full (${
        message(e)
      }); nothing was sent`,
      { cause: e },
    );
  }
  return null;
}
