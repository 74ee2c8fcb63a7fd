/**
 * One approver per pane: an atomic claim file, created exclusively, stolen only when older than
 * CLAIM_TTL_MS (a crashed approver must not block a pane for ever). sweep.sh uses the same
 * directory and file names, so the binary and the script exclude each other.
 *
 * Where: $XDG_RUNTIME_DIR/drover/claims, else /tmp/drover-<uid>/claims (mode 0700).
 * Name:  <socket path, every byte outside [A-Za-z0-9._-] as "_">_<pane id without "%">.claim
 * (pane ids are per tmux server, so the server is part of the name).
 */
export const CLAIM_TTL_MS = 10_000;

export function claimDir(env: Record<string, string | undefined> = Deno.env.toObject()): string {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && xdg.startsWith("/")) return `${xdg}/drover/claims`;
  return `/tmp/drover-${Deno.uid() ?? "unknown"}/claims`;
}

export function claimName(socketPath: string, paneId: string): string {
  const bytes = new TextEncoder().encode(socketPath);
  let safe = "";
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    safe += /[A-Za-z0-9._-]/.test(c) ? c : "_";
  }
  return `${safe}_${paneId.replace(/^%/, "")}.claim`;
}

export interface Claim {
  path: string;
  /** Remove the claim if it is still ours. */
  release(): Promise<void>;
}

export type ClaimResult =
  | { ok: true; claim: Claim; stole: boolean }
  | { ok: false; path: string; holder: string; ageMs: number };

async function ensureDir(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  // Under /tmp another user could have made it first: refuse a directory we do not own.
  const st = await Deno.stat(dir);
  const uid = Deno.uid();
  if (uid !== null && st.uid !== null && st.uid !== uid) {
    throw new Error(`claim directory ${dir} belongs to another user`);
  }
}

async function createExclusive(path: string, token: string): Promise<boolean> {
  try {
    const f = await Deno.open(path, { createNew: true, write: true, mode: 0o600 });
    try {
      await f.write(new TextEncoder().encode(token + "\n"));
    } finally {
      f.close();
    }
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return false;
    throw e;
  }
}

async function readHolder(path: string): Promise<string> {
  try {
    // Reading a FIFO put at a claim's path would wait for a writer for ever (and hold the drive
    // tick with it): only a regular file, and only its first KiB, is read.
    if (!(await Deno.stat(path)).isFile) return "(not a file)";
    using f = await Deno.open(path, { read: true });
    const buf = new Uint8Array(1024);
    const n = await f.read(buf);
    return new TextDecoder().decode(buf.subarray(0, n ?? 0)).trim();
  } catch {
    return "";
  }
}

/** Look at a pane's claim without taking it (for --dry-run). */
export async function peekClaim(
  dir: string,
  name: string,
  now = Date.now(),
): Promise<{ held: boolean; path: string; holder: string; ageMs: number }> {
  const path = `${dir}/${name}`;
  try {
    const st = await Deno.stat(path);
    const ageMs = now - (st.mtime?.getTime() ?? now);
    return { held: ageMs <= CLAIM_TTL_MS, path, holder: await readHolder(path), ageMs };
  } catch {
    return { held: false, path, holder: "", ageMs: 0 };
  }
}

export async function acquireClaim(dir: string, name: string): Promise<ClaimResult> {
  await ensureDir(dir);
  const path = `${dir}/${name}`;
  const token = `drover pid=${Deno.pid} nonce=${crypto.randomUUID()} at=${
    new Date().toISOString()
  }`;
  const mine = (): Claim => ({
    path,
    async release() {
      if ((await readHolder(path)) === token) {
        await Deno.remove(path).catch(() => {});
      }
    },
  });
  if (await createExclusive(path, token)) return { ok: true, claim: mine(), stole: false };
  let st: Deno.FileInfo;
  try {
    st = await Deno.lstat(path);
  } catch {
    // Released between our attempt and the look: one more exclusive try, no loop.
    if (await createExclusive(path, token)) return { ok: true, claim: mine(), stole: false };
    return { ok: false, path, holder: await readHolder(path), ageMs: 0 };
  }
  const mtime = st.mtime?.getTime();
  const ageMs = mtime === undefined ? 0 : Date.now() - mtime;
  // An unreadable mtime is never stale.
  if (mtime === undefined || ageMs <= CLAIM_TTL_MS) {
    return { ok: false, path, holder: await readHolder(path), ageMs };
  }
  // Steal: move the stale file aside, then check that what we moved is the stale one we judged
  // (another stealer may have replaced it with a fresh claim in between); if not, put it back.
  const aside = `${path}.stale.${Deno.pid}.${crypto.randomUUID()}`;
  try {
    await Deno.rename(path, aside);
  } catch {
    return { ok: false, path, holder: await readHolder(path), ageMs };
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
    return { ok: false, path, holder: await readHolder(path), ageMs: 0 };
  }
  await Deno.remove(aside).catch(() => {});
  if (await createExclusive(path, token)) return { ok: true, claim: mine(), stole: true };
  return { ok: false, path, holder: await readHolder(path), ageMs: 0 };
}
