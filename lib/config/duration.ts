/**
 * The one duration grammar of drover, for the configuration file and the command line alike
 * (README "Durations"): one or more NUMBER UNIT pairs written together, the largest unit first,
 * each unit at most once. NUMBER is decimal digits with an optional fraction ("1.5h"); UNIT is
 * `d` (24 hours), `h`, `m`, `s` or `ms`. So `500ms`, `15s`, `10m`, `1h30m`, `1d`, `1d12h`.
 *
 * A bare number is refused (is "15" seconds or minutes?), and so are spaces inside, signs and
 * units out of order. Zero ("0s") is a duration; whether a setting takes it is that setting's
 * range, checked where the setting is used, for a flag and a config key alike.
 */
import { invalidArgument } from "../errors.ts";

const UNITS = ["d", "h", "m", "s", "ms"] as const;
const UNIT_MS: Record<(typeof UNITS)[number], number> = {
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
};

/** How the grammar is named in messages. */
export const DURATION_EXAMPLES = "500ms, 15s, 10m, 1h30m, 1d";

/** Milliseconds for a duration, or null when the text is not one. */
export function parseDuration(text: string): number | null {
  const t = text.trim();
  if (t === "") return null;
  // `ms` before `m`, so "500ms" is not read as 500 minutes followed by "s".
  const re = /([0-9]+(?:\.[0-9]+)?)(ms|d|h|m|s)/y;
  let total = 0;
  let last = -1;
  let pos = 0;
  while (pos < t.length) {
    re.lastIndex = pos;
    const m = re.exec(t);
    if (!m) return null;
    const rank = UNITS.indexOf(m[2] as (typeof UNITS)[number]);
    if (rank <= last) return null;
    last = rank;
    total += Number(m[1]) * UNIT_MS[m[2] as (typeof UNITS)[number]];
    pos = re.lastIndex;
  }
  return Number.isFinite(total) ? Math.round(total) : null;
}

/** Why `text` is not a duration, for a message (the text itself is quoted by the caller). */
export function durationProblem(text: string): string {
  const t = text.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(t)) {
    return `is a number without a unit (write ${t}s, ${t}m …; durations look like ${DURATION_EXAMPLES})`;
  }
  return `is not a duration (use e.g. ${DURATION_EXAMPLES}: units d, h, m, s, ms, largest first)`;
}

/**
 * A duration given on the command line; a usage error naming `what` when it is not one or is
 * outside `range`.
 */
export function readDuration(text: string, what: string, range: DurationRange = {}): number {
  const ms = parseDuration(text);
  if (ms === null) throw invalidArgument(`${what}: "${text}" ${durationProblem(text)}`);
  const out = rangeProblem(ms, range);
  if (out !== null) throw invalidArgument(`${what} ${out} (got ${text})`);
  return ms;
}

/** Bounds of one setting, in ms (inclusive; absent = unbounded on that side). */
export interface DurationRange {
  min?: number;
  max?: number;
}

/**
 * The `[drive]` durations and the range of each, shared by the config file and the flags of the
 * same name (`interval` ↔ `--interval`): a value is taken or refused the same way in both.
 */
export const DRIVE_DURATIONS = {
  interval: { min: 100 },
  nudge_every: { min: 1000 },
  dedup_window: {},
  hook_timeout: { min: 100, max: 3_600_000 },
  resume_margin: { max: 24 * 3_600_000 },
} as const satisfies Record<string, DurationRange>;

/** Why `ms` is outside `r` ("must be at least 100ms"), or null when it is inside. */
export function rangeProblem(ms: number, r: DurationRange): string | null {
  const lo = r.min !== undefined && ms < r.min;
  const hi = r.max !== undefined && ms > r.max;
  if (!lo && !hi) return null;
  if (r.min !== undefined && r.max !== undefined) {
    return `must be between ${formatDuration(r.min)} and ${formatDuration(r.max)}`;
  }
  return lo
    ? `must be at least ${formatDuration(r.min!)}`
    : `must be at most ${formatDuration(r.max!)}`;
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
