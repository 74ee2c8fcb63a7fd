/** Paths as the danger rules read them: lexically normalised, scratch, device and system places. */

const SAFE_DEVICES = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/[0-9]+|pts\/[0-9]+)$/;
const SYSTEM_DIRS =
  /^\/(etc|boot|bin|sbin|usr|lib|lib32|lib64|libx32|proc|sys|root|var\/lib|var\/spool|System|Library|private\/etc)(\/|$)/;

/** Collapse "//", "/./" and "a/../" lexically; keeps relative paths relative. */
export function normalizePath(p: string): string {
  const abs = p.startsWith("/");
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!abs) out.push("..");
      continue;
    }
    out.push(part);
  }
  return (abs ? "/" : "") + out.join("/");
}

/**
 * A scratch location a recursive delete may target: strictly inside /tmp or /var/tmp, with a named
 * first component (so neither "/tmp" nor "/tmp/*" qualifies), written literally.
 */
export function isScratchPath(word: string, dynamic: boolean): boolean {
  if (dynamic) return false;
  if (word.includes("..")) return false;
  const n = normalizePath(word);
  const m = /^\/(?:var\/)?tmp\/([^/]+)/.exec(n);
  if (!m) return false;
  return !/^[*?[\]]+$/.test(m[1]) && !/^\.+$/.test(m[1]);
}

export function isDevicePath(p: string): boolean {
  const n = normalizePath(p);
  return n.startsWith("/dev/") && !SAFE_DEVICES.test(n);
}

export function isSystemPath(p: string): boolean {
  return SYSTEM_DIRS.test(normalizePath(p));
}
