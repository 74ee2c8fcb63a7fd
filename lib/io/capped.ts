/**
 * Reading input with a ceiling. Everything drover reads from a user (a capture on stdin or in a
 * file, text to send, a state file) is read in chunks and abandoned as soon as it passes its
 * limit, so a 200 MB pipe or /dev/zero costs one chunk of memory, not the whole stream.
 */
import { DroverError, invalidArgument } from "../errors.ts";

const CHUNK = 64 * 1024;

/**
 * The most a capture given to drover (detect FILE|-, --styled, profile test screens) may hold. A
 * styled capture of a very large pane is well under 1 MiB; 4 MiB leaves room for scrollback.
 */
export const MAX_CAPTURE_BYTES = 4 * 1024 * 1024;

export interface Readable {
  read(p: Uint8Array): Promise<number | null>;
}

/** Thrown when the input passed `limit` bytes; `what` names it for the message. */
export class TooLarge extends Error {
  constructor(readonly what: string, readonly limit: number) {
    super(`${what} is larger than ${describeBytes(limit)}`);
  }
}

export function describeBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/**
 * Read until EOF, but never more than `limit + 1` bytes: a longer input comes back as exactly
 * `limit + 1` bytes, so the caller can tell "too large" without holding it. A directory (EISDIR)
 * or another read failure becomes a usage error naming `what`.
 */
export async function readUpTo(src: Readable, limit: number, what: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buf = new Uint8Array(CHUNK);
  while (total <= limit) {
    let n: number | null;
    try {
      n = await src.read(buf);
    } catch (e) {
      throw readError(e, what);
    }
    if (n === null) break;
    const keep = Math.min(n, limit + 1 - total);
    chunks.push(buf.slice(0, keep));
    total += keep;
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

/** Read until EOF, or throw TooLarge once more than `limit` bytes arrived. */
export async function readCapped(src: Readable, limit: number, what: string): Promise<Uint8Array> {
  const bytes = await readUpTo(src, limit, what);
  if (bytes.length > limit) throw new TooLarge(what, limit);
  return bytes;
}

/** readCapped for a file path; a missing or unreadable file is a usage error naming it. */
export async function readFileCapped(
  path: string,
  limit: number,
  what: string,
): Promise<Uint8Array> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    throw readError(e, what);
  }
  try {
    return await readCapped(file, limit, what);
  } finally {
    file.close();
  }
}

/** A read failure as a usage error naming `what`; the original error is its `cause`. */
function readError(e: unknown, what: string): DroverError {
  const because = (message: string) => new DroverError("INVALID_ARGUMENT", message, { cause: e });
  if (e instanceof Deno.errors.IsADirectory) {
    return because(`${what} is a directory, not a file or a pipe`);
  }
  if (e instanceof Deno.errors.NotFound) return because(`${what} does not exist`);
  if (e instanceof Deno.errors.PermissionDenied) return because(`${what} is not readable`);
  const msg = e instanceof Error ? e.message : String(e);
  return because(`cannot read ${what}: ${msg.slice(0, 200)}`);
}

/** TooLarge as the usage error a command reports (exit 2), with the limit in the details. */
export function tooLargeError(e: TooLarge, hint: string): DroverError {
  return invalidArgument(`${e.message}; ${hint}`, { limit_bytes: e.limit });
}
