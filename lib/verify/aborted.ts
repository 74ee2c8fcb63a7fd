/** A verify run that was interrupted (Ctrl-C, SIGTERM): the error it ends with, and its sleep. */
import { sleep as baseSleep } from "../base/sleep.ts";

export class Aborted extends Error {
  override name = "Aborted";
}

/** The one sleep, for a run that ends when interrupted: an abort rejects with Aborted. */
export async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw new Aborted("interrupted");
  await baseSleep(ms, signal);
  if (signal.aborted) throw new Aborted("interrupted");
}
