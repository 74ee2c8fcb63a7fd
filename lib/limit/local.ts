/**
 * The machine's local time zone, for reset times a CLI prints without one. Read where the clock is
 * (lib/cli, the drive host), never inside a detector. `TZ` in the environment sets it, as it does
 * for the CLIs that printed the time.
 */
export function localTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}
