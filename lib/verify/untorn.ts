/**
 * The screen a verify scenario is judged on. A full-screen CLI (Qwen Code, Gemini CLI) can clear
 * and redraw its whole screen at any moment; a capture taken mid-redraw holds a torn frame (the
 * logo, then blank lines) that says nothing about the CLI's state. The lines the scenario's wait
 * reached were on screen a moment ago, so a capture without them is taken again, for a short while.
 */

/** How long a capture missing the reached lines is taken again (a redraw takes milliseconds). */
export const REDRAW_GRACE_MS = 3_000;

export interface UntornOptions {
  graceMs?: number;
  pollMs?: number;
  /** Waits between captures (verify's abortable sleep). */
  sleep: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * The first capture that shows every one of `lines`; after the grace, the last capture as it is
 * (a CLI that really moved on is then judged on what it shows, and drifts).
 */
export async function untornCapture<S extends { plain: string }>(
  capture: () => Promise<S>,
  lines: readonly string[],
  opts: UntornOptions,
): Promise<S> {
  const now = opts.now ?? Date.now;
  const deadline = now() + (opts.graceMs ?? REDRAW_GRACE_MS);
  while (true) {
    const screen = await capture();
    if (lines.every((x) => screen.plain.includes(x)) || now() > deadline) return screen;
    await opts.sleep(opts.pollMs ?? 250);
  }
}
