/**
 * `drover read`: a pane's text now, or once it has stopped changing (`--wait-stable`).
 *
 * Stability: take a capture, then sleep one interval and capture again; identical full text
 * extends the streak, different text replaces the capture and resets it. Stable once the streak
 * reaches ceil(period / interval); giving up after ceil(timeout / interval) sleeps is not an error
 * (`stabilized: false`, the latest text is still returned).
 */
import { DroverError, invalidArgument } from "../errors.ts";
import { sleep as baseSleep } from "../base/sleep.ts";

export const READ_DEFAULTS = { intervalMs: 200, periodMs: 800, timeoutS: 10 } as const;
export const READ_RANGES = {
  intervalMs: [50, 5000],
  periodMs: [100, 60000],
  timeoutS: [1, 300],
  last: [1, 100000],
} as const;

export interface ReadRequest {
  last?: number;
  waitStable?: boolean;
  intervalMs?: number;
  periodMs?: number;
  timeoutS?: number;
}

export interface ReadSettings {
  last: number | null;
  waitStable: boolean;
  intervalMs: number;
  periodMs: number;
  timeoutS: number;
}

/** Parse a flag's integer value; anything else (1.5, "10s", "") is a usage error naming the flag. */
export function intFlag(flag: string, raw: string | undefined, range: readonly [number, number]) {
  if (raw === undefined) return undefined;
  if (!/^[0-9]+$/.test(raw.trim())) {
    throw invalidArgument(`${flag} takes a whole number, got ${JSON.stringify(raw)}`);
  }
  const n = Number(raw.trim());
  if (n < range[0] || n > range[1]) {
    throw invalidArgument(`${flag} must be between ${range[0]} and ${range[1]}, got ${n}`);
  }
  return n;
}

export function readSettings(raw: {
  last?: string;
  waitStable?: boolean;
  stableInterval?: string;
  stablePeriod?: string;
  waitTimeout?: string;
}): ReadSettings {
  const tuning = raw.stableInterval !== undefined || raw.stablePeriod !== undefined ||
    raw.waitTimeout !== undefined;
  if (tuning && !raw.waitStable) {
    throw invalidArgument(
      "--stable-interval, --stable-period and --wait-timeout only apply with --wait-stable",
    );
  }
  return {
    last: intFlag("--last", raw.last, READ_RANGES.last) ?? null,
    waitStable: raw.waitStable === true,
    intervalMs: intFlag("--stable-interval", raw.stableInterval, READ_RANGES.intervalMs) ??
      READ_DEFAULTS.intervalMs,
    periodMs: intFlag("--stable-period", raw.stablePeriod, READ_RANGES.periodMs) ??
      READ_DEFAULTS.periodMs,
    timeoutS: intFlag("--wait-timeout", raw.waitTimeout, READ_RANGES.timeoutS) ??
      READ_DEFAULTS.timeoutS,
  };
}

/** The last N lines of a capture, trailing blank screen rows dropped first. */
export function lastLines(text: string, n: number | null): string[] {
  const lines = text.replace(/\n$/, "").split("\n");
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  return n === null ? lines : lines.slice(-n);
}

export interface StableResult {
  text: string;
  stabilized: boolean;
  waited_ms: number;
  samples: number;
}

/**
 * The stability loop over an injected capture (null = the pane is gone: the loop ends with the
 * best capture so far). The first capture failing is the caller's error to raise.
 */
export async function waitStable(
  capture: () => Promise<string | null>,
  s: Pick<ReadSettings, "intervalMs" | "periodMs" | "timeoutS">,
  sleep: (ms: number) => Promise<void> = baseSleep,
): Promise<StableResult> {
  const first = await capture();
  if (first === null) {
    throw new DroverError("TARGET_NOT_FOUND", "the pane disappeared before it could be read");
  }
  const required = Math.max(1, Math.ceil(s.periodMs / s.intervalMs));
  const maxSleeps = Math.max(1, Math.ceil((s.timeoutS * 1000) / s.intervalMs));
  let text = first;
  let streak = 0;
  let sleeps = 0;
  let samples = 1;
  while (streak < required && sleeps < maxSleeps) {
    await sleep(s.intervalMs);
    sleeps++;
    const next = await capture();
    if (next === null) break;
    samples++;
    if (next === text) streak++;
    else {
      text = next;
      streak = 0;
    }
  }
  return { text, stabilized: streak >= required, waited_ms: sleeps * s.intervalMs, samples };
}
