/**
 * The one sleep: setTimeout that an AbortSignal cuts short, resolving (never rejecting) and leaving
 * no timer or listener behind. A signal already aborted resolves at once; a zero wait still yields
 * to the timers, so a polling loop never spins.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
