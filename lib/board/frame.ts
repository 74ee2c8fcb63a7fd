/**
 * Terminal control for the live board, as strings: entering and leaving the alternate screen, and
 * a frame update that rewrites only the lines that changed, as one write (no flicker: the screen
 * is never cleared between frames).
 */
const ESC = "\x1b[";

/** Alternate screen on, cursor hidden, screen cleared. */
export const ENTER = `${ESC}?1049h${ESC}?25l${ESC}H${ESC}2J`;
/** Reset colours, cursor shown, main screen back (its content as it was). */
export const LEAVE = `${ESC}0m${ESC}?25h${ESC}?1049l`;

/**
 * The bytes that turn the screen showing `prev` into `next`: for each changed row, move there,
 * write the line, clear the rest of it. `prev` null (first frame, resize) redraws everything.
 */
export function frameUpdate(prev: readonly string[] | null, next: readonly string[]): string {
  let out = prev === null ? `${ESC}0m${ESC}H${ESC}2J` : "";
  const n = Math.max(prev?.length ?? 0, next.length);
  for (let i = 0; i < n; i++) {
    const line = next[i] ?? "";
    if (prev !== null && prev[i] === line) continue;
    if (prev === null && line === "") continue;
    out += `${ESC}${i + 1};1H${line}${ESC}0m${ESC}K`;
  }
  return out;
}
