/**
 * Private per-user directories that every drover process of one user finds, whatever its
 * environment: cron runs with `env -i`, a shell has XDG_RUNTIME_DIR and XDG_STATE_HOME, a systemd
 * unit has neither. So the places are derived from the uid alone, like tmux derives
 * /tmp/tmux-UID for its sockets — never from an environment variable.
 *
 * A directory counts only when it is a real directory (not a symlink), owned by the user, and
 * writable by nobody else: anyone who could replace an entry in it could plant a symlink or take
 * the place of a lock file. Group write is allowed only for the user's own primary group (a
 * `umask 002` system with per-user groups makes 0775 directories).
 */
import { isDiskFull } from "./safe_file.ts";

/**
 * The per-user runtime bases, in order: systemd's `/run/user/UID` (only while the user has a
 * session or lingers; drover never creates it), and `/tmp/drover-UID` (created 0700 on first use).
 */
export function runtimeBases(uid: number): string[] {
  return [`/run/user/${uid}`, `/tmp/drover-${uid}`];
}

/** Why a directory is not private to `uid`, or null when it is. */
export function notPrivate(
  info: Deno.FileInfo,
  uid: number | null,
  gid: number | null = Deno.gid(),
): string | null {
  if (info.isSymlink) return "is a symbolic link";
  if (!info.isDirectory) return "is not a directory";
  if (uid !== null && info.uid !== null && info.uid !== uid) {
    return `belongs to uid ${info.uid}, not ${uid}`;
  }
  const mode = info.mode ?? 0;
  const groupWrite = (mode & 0o020) !== 0 && (gid === null || info.gid !== gid);
  if ((mode & 0o002) !== 0 || groupWrite) {
    return `is writable by others (mode ${(mode & 0o777).toString(8).padStart(3, "0")})`;
  }
  return null;
}

/** A directory that is not private: `reason` says why, for the message that skips it. */
export class UnsafeDir extends Error {
  constructor(readonly path: string, readonly reason: string) {
    super(`${path} ${reason}`);
  }
}

/**
 * `path` as a private directory of `uid`: created 0700 when `create` and missing, then checked
 * (lstat: a symlink is refused, never followed). Throws UnsafeDir, NotFound, or the mkdir's error.
 */
export async function privateDir(path: string, uid: number | null, create: boolean): Promise<void> {
  if (create) {
    try {
      await Deno.mkdir(path, { mode: 0o700 });
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
  }
  const info = await Deno.lstat(path);
  const why = notPrivate(info, uid);
  if (why !== null) throw new UnsafeDir(path, why);
}

/**
 * Where drover keeps `sub` (the drive's "locks", approve's "claims") under one runtime base:
 * `/run/user/UID/drover/SUB` or `/tmp/drover-UID/SUB`, every level made private on first use.
 * systemd makes /run/user/UID and drover never does; /tmp/drover-UID is drover's own (0700).
 */
export async function runtimeSubdir(
  base: string,
  sub: string,
  uid: number | null,
): Promise<string> {
  const systemd = base.startsWith("/run/user/");
  await privateDir(base, uid, !systemd);
  const dir = systemd ? `${base}/drover` : base;
  if (dir !== base) await privateDir(dir, uid, true);
  await privateDir(`${dir}/${sub}`, uid, true);
  return `${dir}/${sub}`;
}

/** Making a directory under a runtime base failed on a full disk or quota: exit 74 for callers. */
export class RuntimeDirFull extends Error {
  constructor(readonly base: string, override readonly cause: unknown) {
    super(`${base}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export interface RuntimeDirs {
  /** `sub` under each base that can hold it, in the bases' order. */
  dirs: string[];
  /** Why each other base could not (a missing /run/user/UID is not worth a word). */
  skipped: string[];
}

/**
 * `sub` under every usable runtime base (default: the user's own, `runtimeBases`). Every process
 * of the user finds the same ones, whatever its environment, so what one puts there (a lock, a
 * claim) the others see. Throws RuntimeDirFull on a full disk; any other failure skips the base.
 */
export async function runtimeDirs(
  sub: string,
  bases?: string[],
  uid: number | null = Deno.uid(),
): Promise<RuntimeDirs> {
  const dirs: string[] = [];
  const skipped: string[] = [];
  for (const base of bases ?? (uid === null ? [] : runtimeBases(uid))) {
    try {
      dirs.push(await runtimeSubdir(base, sub, uid));
    } catch (e) {
      if (isDiskFull(e)) throw new RuntimeDirFull(base, e);
      // /run/user/UID only exists while the user has a session: not a problem worth a word.
      if (e instanceof Deno.errors.NotFound && base.startsWith("/run/user/")) continue;
      skipped.push(
        e instanceof UnsafeDir ? e.message : `${base}: ${e instanceof Error ? e.message : e}`,
      );
    }
  }
  return { dirs, skipped };
}

/**
 * drover's cache directory: `$XDG_CACHE_HOME/drover`, else `~/.cache/drover`; null when the
 * environment names neither (cron under `env -i`: nothing is cached then). Unlike the runtime
 * dirs this follows the environment, as the XDG spec asks: a cache is only ever a shortcut, so a
 * process that does not find another's loses nothing but time. A relative XDG_CACHE_HOME is
 * ignored, as the spec says.
 */
export function userCacheDir(env: (name: string) => string | undefined): string | null {
  const xdg = env("XDG_CACHE_HOME");
  if (xdg && xdg.startsWith("/")) return `${xdg.replace(/\/+$/, "")}/drover`;
  const home = env("HOME");
  return home ? `${home.replace(/\/+$/, "")}/.cache/drover` : null;
}
