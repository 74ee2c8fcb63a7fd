/**
 * The machine's local time zone, for reset times a CLI prints without one. Read where the clock is
 * (lib/cli, the drive host), never inside a detector. `TZ` in the environment sets it, as it does
 * for the CLIs that printed the time.
 */
let cached: string | undefined;

/** Read once per process, and only when asked: it starts ICU (tens of ms). */
export function localTimeZone(): string {
  if (cached !== undefined) return cached;
  try {
    cached = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    cached = "UTC";
  }
  return cached;
}
