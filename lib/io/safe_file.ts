/**
 * Files drover writes (drive's state, lock and events, caches) that cannot be turned against their
 * owner. Such a file often sits in a directory an agent can write to (a shared `--state`, a project
 * folder); a symlink planted at its path would otherwise make drover write into whatever it points
 * at, and a FIFO would make it wait for ever.
 *
 * Deno's open() has no O_NOFOLLOW, so every open here is checked instead: the path is lstat'ed,
 * anything but a regular file with one link is refused (NotRegularFile) before it is opened, a file
 * that does not exist is created with O_EXCL (createNew: never follows a symlink, fails if anything
 * appeared meanwhile), and an existing one is opened without create or truncate and compared, by
 * device and inode, with what lstat saw — a path swapped between the two is refused before a byte
 * is written. Whole-file writes go to a new temporary file and are renamed over the path (a rename
 * replaces a symlink, it never writes through it).
 */

/** Something other than a regular file stands at a path drover writes. Nothing was written. */
export class NotRegularFile extends Error {
  constructor(readonly path: string, readonly what: string) {
    super(`${path} is ${what}, not a regular file`);
  }
}

/** What a non-regular path is, for messages ("a symbolic link", "a directory" …). */
export function kindOf(info: Deno.FileInfo): string {
  if (info.isSymlink) return "a symbolic link";
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  if (info.isFile && (info.nlink ?? 1) > 1) return "a file with several hard links";
  if (info.isFile) return "a regular file";
  return "not a file";
}

function refuseUnlessRegular(path: string, info: Deno.FileInfo): void {
  // A second hard link would let a write here land in a file someone else named.
  if (!info.isFile || (info.nlink ?? 1) > 1) throw new NotRegularFile(path, kindOf(info));
}

/** The disk (or the user's quota) is full: ENOSPC or EDQUOT, however Deno reports it. */
export function isDiskFull(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (code === "ENOSPC" || code === "EDQUOT") return true;
  return /\(os error (28|122)\)/.test(e.message);
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.ino !== null;
}

export interface OpenRegularOptions {
  /** Create the file (0600 unless `mode`) when nothing is at the path. */
  create?: boolean;
  /** Every write goes to the end (O_APPEND): several appenders never overwrite each other. */
  append?: boolean;
  mode?: number;
}

/**
 * Open a regular file for reading and writing without following a symlink at `path`. Read and
 * write together (O_RDWR): a FIFO swapped in at the last moment opens at once instead of waiting
 * for a reader, and is then refused by the inode check. Throws NotRegularFile, NotFound (nothing
 * there and no `create`), or the open's own error.
 */
export async function openRegular(
  path: string,
  opts: OpenRegularOptions = {},
): Promise<Deno.FsFile> {
  const mode = opts.mode ?? 0o600;
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = await lstatOrNull(path);
    if (before === null) {
      if (!opts.create) throw new Deno.errors.NotFound(`${path} does not exist`);
      try {
        return await Deno.open(path, {
          read: true,
          write: true,
          createNew: true,
          mode,
          ...(opts.append ? { append: true } : {}),
        });
      } catch (e) {
        // Something appeared between the lstat and the create: look again.
        if (e instanceof Deno.errors.AlreadyExists) continue;
        throw e;
      }
    }
    refuseUnlessRegular(path, before);
    const f = await Deno.open(path, {
      read: true,
      write: true,
      ...(opts.append ? { append: true } : {}),
    });
    let ok = false;
    try {
      const now = await f.stat();
      if (!sameFile(before, now)) throw new NotRegularFile(path, "replaced while it was opened");
      refuseUnlessRegular(path, now);
      ok = true;
      return f;
    } finally {
      if (!ok) f.close();
    }
  }
  throw new NotRegularFile(path, "changing while it was opened");
}

/**
 * Read a whole regular file, never more than `limit` bytes (null when nothing is at `path`).
 * A symlink, FIFO, device or directory is refused (NotRegularFile) without being opened. `info` is
 * the open file's own stat (its owner and mode, for a caller that trusts only its own files).
 */
export async function readRegular(
  path: string,
  limit: number,
): Promise<{ bytes: Uint8Array; truncated: boolean; info: Deno.FileInfo } | null> {
  const before = await lstatOrNull(path);
  if (before === null) return null;
  refuseUnlessRegular(path, before);
  using f = await Deno.open(path, { read: true });
  const now = await f.stat();
  if (!sameFile(before, now)) throw new NotRegularFile(path, "replaced while it was opened");
  const buf = new Uint8Array(Math.min(limit + 1, Math.max(0, now.size) + 1));
  let got = 0;
  while (got < buf.length) {
    const n = await f.read(buf.subarray(got));
    if (n === null) break;
    got += n;
  }
  return { bytes: buf.slice(0, Math.min(got, limit)), truncated: got > limit, info: now };
}

function tempName(path: string): string {
  const b = new Uint8Array(6);
  crypto.getRandomValues(b);
  const tag = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${path}.tmp-${Deno.pid}-${tag}`;
}

/**
 * Replace `path` with `data` atomically: a new temporary file beside it (O_EXCL), flushed, renamed
 * over the path. Whatever stands at `path` must be a regular file or nothing (NotRegularFile
 * otherwise, with nothing written). A failed write (a full disk) leaves the old file as it was.
 */
export async function writeAtomic(path: string, data: Uint8Array, mode = 0o600): Promise<void> {
  const before = await lstatOrNull(path);
  if (before !== null) refuseUnlessRegular(path, before);
  const tmp = tempName(path);
  const f = await Deno.open(tmp, { write: true, createNew: true, mode });
  try {
    try {
      for (let done = 0; done < data.length;) done += await f.write(data.subarray(done));
      await f.syncData();
    } finally {
      f.close();
    }
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/** Append `data` to the regular file at `path` (created 0600 when missing), in one write. */
export async function appendRegular(path: string, data: Uint8Array): Promise<void> {
  using f = await openRegular(path, { create: true, append: true });
  for (let done = 0; done < data.length;) done += await f.write(data.subarray(done));
}
