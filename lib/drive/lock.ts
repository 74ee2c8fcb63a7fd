/**
 * One drive per session: an exclusive flock on a lock file next to the state file. The kernel
 * drops the lock when the holder dies, so a crashed drive never leaves a stale lock behind, and a
 * second drive learns at once that it must not touch anything.
 */
import { DroverError } from "../errors.ts";

export interface DriveLock {
  path: string;
  release(): void;
}

/** Take the lock or throw DRIVE_LOCKED naming the holder. The file is never truncated by a loser. */
export async function acquireLock(path: string, session: string): Promise<DriveLock> {
  let f: Deno.FsFile;
  try {
    f = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  } catch (e) {
    // The lock sits beside the state file: what keeps one from being written keeps both.
    throw new DroverError(
      "STATE_UNWRITABLE",
      `cannot open the drive lock file ${path}: ${
        e instanceof Error ? e.message : String(e)
      }; nothing was touched (pass --state DIR)`,
    );
  }
  let locked = false;
  try {
    locked = await f.tryLock(true);
  } catch (e) {
    f.close();
    throw new DroverError(
      "IO_FAILED",
      `cannot lock ${path}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (!locked) {
    let holder = "";
    try {
      const buf = new Uint8Array(512);
      const n = await f.read(buf);
      holder = new TextDecoder().decode(buf.subarray(0, n ?? 0)).trim();
    } catch {
      // unreadable holder info: the message just lacks it
    }
    f.close();
    throw new DroverError(
      "DRIVE_LOCKED",
      `another drover drive already runs for session "${session}"${
        holder ? ` (${holder})` : ""
      }; lock ${path}. Nothing was touched.`,
      { details: { lock: path, holder } },
    );
  }
  const info = `pid ${Deno.pid} since ${new Date().toISOString()}`;
  await f.truncate(0);
  await f.write(new TextEncoder().encode(info + "\n"));
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      try {
        f.unlockSync();
      } catch {
        // closing releases it too
      }
      f.close();
    },
  };
}
