/** Durations as operators write them in flags and config: "500ms", "15s", "10m", "1h", "1h30m". */
import { invalidArgument } from "../errors.ts";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds for a duration string; a bare number means seconds. */
export function parseDuration(text: string, what: string): number {
  const t = text.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const re = /([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let end = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t)) !== null) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    end = re.lastIndex;
  }
  if (t === "" || end !== t.length) {
    throw invalidArgument(
      `${what}: "${text}" is not a duration (use e.g. 500ms, 15s, 10m, 1h)`,
    );
  }
  return Math.round(total);
}

/** "15s", "10m", "1h30m" — the short form for messages. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  let s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return `${h ? `${h}h` : ""}${m ? `${m}m` : ""}${s || (!h && !m) ? `${s}s` : ""}`;
}
