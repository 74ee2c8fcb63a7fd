/**
 * One drive per tmux session (DESIGN §9). The lock is an exclusive flock on a file named by the
 * session key (the tmux server's socket path and the session name, options.ts `sessionKey`), so
 * two drives on one session exclude each other whatever their `--state`: cron under `env -i` and a
 * shell with XDG_STATE_HOME set look in different state directories, but in the same per-user
 * runtime directories, which are derived from the uid alone (lib/io/user_dirs.ts).
 *
 * A drive takes the lock in every usable runtime directory (`/run/user/UID/drover/locks`, which
 * exists only while the user has a session, and `/tmp/drover-UID/locks`, which always can) and in
 * its state directory; any one held by another drive is exit 73. Holding all of them keeps a drive
 * started while the user was logged in and one started by cron after logout apart, and the state
 * directory's lock is the fallback when no runtime directory is private (another user owns
 * /tmp/drover-UID): the run goes on with a warning that only the same `--state` is kept out.
 *
 * The kernel drops a flock when its holder dies, so a crashed drive never leaves a stale lock. A
 * releasing drive unlinks its lock file while it still holds it; a drive that locked a file which
 * meanwhile left its path (the old holder unlinked it) starts over on the new one. Lock files are
 * opened without following symlinks (lib/io/safe_file.ts): a symlink, FIFO or directory at a lock
 * path is refused with exit 74 and its target is never touched.
 */
import { DroverError } from "../errors.ts";
import { isDiskFull, NotRegularFile, openRegular } from "../io/safe_file.ts";
import { RuntimeDirFull, type RuntimeDirs, runtimeDirs } from "../io/user_dirs.ts";

export interface DriveLock {
  /** Every lock file held, runtime directories first. */
  paths: string[];
  /**
   * Set when no per-user runtime directory could hold the lock: the state directory's lock alone
   * keeps out only drives with the same `--state`. Says why, for a warning.
   */
  fallback: string | null;
  release(): void;
}

const message = (e: unknown) => e instanceof Error ? e.message : String(e);

/** A lock file that cannot be opened or written: exit 74 before any key, naming the path. */
function unwritable(path: string, e: unknown): DroverError {
  const why = e instanceof NotRegularFile
    ? `${e.what} stands where the drive lock file ${path} belongs; refused, nothing was touched ` +
      `(remove it, or pass --state DIR)`
    : isDiskFull(e)
    ? `cannot write the drive lock file ${path}: the disk or the quota is full (${
      message(e)
    }); nothing was touched`
    : `cannot open the drive lock file ${path}: ${
      message(e)
    }; nothing was touched (pass --state DIR)`;
  return new DroverError("STATE_UNWRITABLE", why, { details: { lock: path }, cause: e });
}

/**
 * Take the lock on one file or throw: DRIVE_LOCKED (73) naming the holder when another process
 * has it, STATE_UNWRITABLE (74) when the file cannot be opened or written. A loser never writes
 * the file; the winner writes `info` (who holds it) into it.
 */
export async function acquireLock(
  path: string,
  session: string,
  info = `pid ${Deno.pid} since ${new Date().toISOString()}`,
): Promise<DriveLock> {
  for (let attempt = 0; attempt < 5; attempt++) {
    let f: Deno.FsFile;
    try {
      f = await openRegular(path, { create: true });
    } catch (e) {
      throw unwritable(path, e);
    }
    let locked = false;
    try {
      locked = await f.tryLock(true);
    } catch (e) {
      f.close();
      throw new DroverError("IO_FAILED", `cannot lock ${path}: ${message(e)}`);
    }
    if (!locked) {
      const holder = await readHolder(f);
      f.close();
      throw new DroverError(
        "DRIVE_LOCKED",
        `another drover drive already runs for session "${session}"${
          holder ? ` (${holder})` : ""
        }; lock ${path}. Nothing was touched.`,
        { details: { lock: path, holder } },
      );
    }
    const mine = await f.stat();
    const there = await Deno.lstat(path).catch(() => null);
    if (there === null || there.ino !== mine.ino || there.dev !== mine.dev) {
      // The previous holder unlinked this file as it released it: lock what stands there now.
      f.close();
      continue;
    }
    try {
      await f.truncate(0);
      const bytes = new TextEncoder().encode(info + "\n");
      for (let done = 0; done < bytes.length;) done += await f.write(bytes.subarray(done));
    } catch (e) {
      f.close();
      throw unwritable(path, e);
    }
    return held(path, f, mine);
  }
  throw new DroverError("IO_FAILED", `the drive lock file ${path} kept changing; try again`);
}

/** A taken lock: release() unlinks the file (if it is still ours) while it still holds it. */
function held(path: string, f: Deno.FsFile, mine: Deno.FileInfo): DriveLock {
  let released = false;
  return {
    paths: [path],
    fallback: null,
    release() {
      if (released) return;
      released = true;
      try {
        // Unlinked while still held: no other drive can be waiting on this inode's lock.
        const now = Deno.lstatSync(path);
        if (now.ino === mine.ino && now.dev === mine.dev) Deno.removeSync(path);
      } catch {
        // gone already, or not ours to remove: the flock is what matters
      }
      try {
        f.unlockSync();
      } catch {
        // closing releases it too
      }
      f.close();
    },
  };
}

async function readHolder(f: Deno.FsFile): Promise<string> {
  try {
    const buf = new Uint8Array(512);
    const n = await f.read(buf);
    return new TextDecoder().decode(buf.subarray(0, n ?? 0)).trim().replace(/[^\x20-\x7e]/g, "?");
  } catch {
    return "";
  }
}

export interface DriveLockRequest {
  /** The session key (options.ts `sessionKey`): socket path and session, hashed. */
  key: string;
  session: string;
  stateDir: string;
  /** Runtime bases to use instead of the user's own (lib/io/user_dirs.ts `runtimeBases`). */
  runtimeBases?: string[];
}

/**
 * The drive lock for one session: in every usable per-user runtime directory and in the state
 * directory (module doc). Throws DRIVE_LOCKED (73) or STATE_UNWRITABLE (74); holds nothing then.
 */
export async function acquireDriveLock(req: DriveLockRequest): Promise<DriveLock> {
  let found: RuntimeDirs;
  try {
    found = await runtimeDirs("locks", req.runtimeBases);
  } catch (e) {
    if (!(e instanceof RuntimeDirFull)) throw e;
    throw new DroverError(
      "STATE_UNWRITABLE",
      `cannot make the drive lock directory under ${e.base}: the disk or the quota is full (${
        message(e.cause)
      }); nothing was touched`,
      { details: { lock_dir: e.base }, cause: e.cause },
    );
  }
  const { dirs, skipped } = found;
  const fallback = dirs.length > 0 ? null : `no private per-user runtime directory holds the ` +
    `drive lock (${
      skipped.join("; ") || "none exists"
    }), so only a drive with the same --state is kept out of session "${req.session}"`;
  const info = `pid ${Deno.pid} since ${new Date().toISOString()}, state ${req.stateDir}`;
  const held: DriveLock[] = [];
  try {
    for (const dir of [...dirs, req.stateDir]) {
      held.push(await acquireLock(`${dir}/${req.key}.lock`, req.session, info));
    }
  } catch (e) {
    for (const l of held.reverse()) l.release();
    throw e;
  }
  return {
    paths: held.map((l) => l.paths[0]!),
    fallback,
    release() {
      for (const l of [...held].reverse()) l.release();
    },
  };
}
