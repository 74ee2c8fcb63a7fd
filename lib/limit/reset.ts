/**
 * When a usage limit resets, from the words a CLI printed: the named captures of a profile's
 * `limit_reset_pattern` (time, date, zone, in) turned into one absolute instant. Pure: the clock
 * and the local time zone are passed in, never read here.
 *
 * - `in` ("2 days 4 hours", "5m 30s"): that long after now.
 * - `time` ("8pm", "6:37pm", "3:05 PM", "15:05") with an optional `date` ("Dec 2", "Jul 5th, 2026")
 *   in `zone` when the screen prints one (an IANA name, "UTC"/"GMT", "GMT+5:30", a US abbreviation
 *   as en-US prints it), else in the local zone.
 * - A time with no date is the next occurrence of that wall-clock time; a date with no year is its
 *   next occurrence. A CLI prints the time cut to the minute, so a time up to a minute past is
 *   still "now", not tomorrow.
 * - Wall-clock time is turned into an instant with the zone's rules (Temporal): a time that a DST
 *   change skips moves forward by the gap (2:30 → 3:30), and a time that happens twice reads as
 *   the later one — resuming a minute late costs nothing, resuming early costs a second limit.
 */

export interface ResetCaptures {
  time?: string;
  date?: string;
  zone?: string;
  in?: string;
}

export interface ResetContext {
  /** Epoch ms. */
  now: number;
  /** IANA name of the local zone (used when the screen prints none). */
  timeZone: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A printed time is cut to the minute: up to this long ago it still means today. */
export const PRINTED_PRECISION_MS = MINUTE;

type Zone = { kind: "fixed"; offsetMs: number } | { kind: "iana"; name: string };

/** The instant the captures name, or null when any part cannot be read (never a guess). */
export function resetInstant(c: ResetCaptures, ctx: ResetContext): number | null {
  if (!Number.isFinite(ctx.now)) return null;
  const rel = c.in?.trim();
  if (rel) {
    const ms = parseRelative(rel);
    return ms === null ? null : ctx.now + ms;
  }
  const timeText = c.time?.trim();
  if (!timeText) return null;
  const time = parseTime(timeText);
  if (!time) return null;
  const zone = parseZone(c.zone?.trim() || ctx.timeZone);
  if (!zone) return null;
  const today = wallDate(zone, ctx.now);
  const floor = ctx.now - PRINTED_PRECISION_MS;
  const dateText = c.date?.trim();
  if (dateText) {
    const d = parseDate(dateText);
    if (!d) return null;
    if (d.year !== undefined) {
      if (d.day > daysInMonth(d.year, d.month)) return null;
      return wallToInstant(zone, d.year, d.month, d.day, time.h, time.m);
    }
    // The next year that has this date (Feb 29 waits for a leap year) and where it is still ahead.
    for (let year = today.year; year <= today.year + 8; year++) {
      if (d.day > daysInMonth(year, d.month)) continue;
      const t = wallToInstant(zone, year, d.month, d.day, time.h, time.m);
      if (t > floor) return t;
    }
    return null;
  }
  for (let add = 0; add <= 1; add++) {
    const day = addDays(today, add);
    const t = wallToInstant(zone, day.year, day.month, day.day, time.h, time.m);
    if (t > floor) return t;
  }
  return null;
}

/** The captures → an ISO 8601 instant (UTC), or null. */
export function resetIso(c: ResetCaptures, ctx: ResetContext): string | null {
  const t = resetInstant(c, ctx);
  return t === null ? null : new Date(t).toISOString();
}

// ---- relative: "2 days 4 hours", "5 days 22 hours 11 minutes", "1h 5m", "5400s" ----

const UNIT: Record<string, number> = {
  ms: 1,
  d: DAY,
  day: DAY,
  days: DAY,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  m: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
};

/** Milliseconds of a duration made of number-unit pairs (and "," / "and" between), or null. */
export function parseRelative(text: string): number | null {
  const rest = text.toLowerCase().replace(/\s+/g, " ").trim();
  const re = /(\d+(?:\.\d+)?) ?([a-z]+)(?:,? (?:and )?|,|$)/y;
  let total = 0, n = 0;
  re.lastIndex = 0;
  while (re.lastIndex < rest.length) {
    const m = re.exec(rest);
    if (!m) return null;
    const unit = UNIT[m[2]];
    if (unit === undefined) return null;
    total += Number(m[1]) * unit;
    n++;
  }
  return n > 0 && Number.isFinite(total) ? Math.round(total) : null;
}

// ---- time: "8pm", "6:37pm", "3:05 PM", "11:30 a.m.", "15:05" ----

export function parseTime(text: string): { h: number; m: number } | null {
  const t = text.trim().toLowerCase();
  const ampm = /^(\d{1,2})(?:[:.](\d{2}))? ?([ap])\.?m\.?$/.exec(t);
  if (ampm) {
    const h12 = Number(ampm[1]), m = Number(ampm[2] ?? "0");
    if (h12 < 1 || h12 > 12 || m > 59) return null;
    return { h: (h12 % 12) + (ampm[3] === "p" ? 12 : 0), m };
  }
  const h24 = /^(\d{1,2}):(\d{2})$/.exec(t);
  if (h24) {
    const h = Number(h24[1]), m = Number(h24[2]);
    if (h > 23 || m > 59) return null;
    return { h, m };
  }
  return null;
}

// ---- date: "Dec 2", "Mar 5 at", "Jul 5th, 2026", "May 11th, 2026", "December 2 2027" ----

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

export function parseDate(text: string): { year?: number; month: number; day: number } | null {
  // What sits between the date and the time ("Dec 2, 9am", "Mar 5 at 10pm") may come along.
  const t = text.toLowerCase().replace(/\s+/g, " ").replace(/[, ]*(?: at)?[, ]*$/, "").trim();
  const m = /^([a-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?(?:,? (\d{4}))?$/.exec(t);
  if (!m) return null;
  const mon = MONTHS.indexOf(m[1].slice(0, 3));
  if (mon < 0) return null;
  const full = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
  ][mon];
  // "Sept" is the one common abbreviation longer than three letters that is not the full name.
  if (m[1].length > 3 && !full.startsWith(m[1]) && m[1] !== "sept") return null;
  const day = Number(m[2]);
  const year = m[3] === undefined ? undefined : Number(m[3]);
  const days = daysInMonth(year ?? 2000, mon + 1); // a leap year when the year is not printed
  if (day < 1 || day > days) return null;
  return year === undefined ? { month: mon + 1, day } : { year, month: mon + 1, day };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

// ---- zones ----

/**
 * The fixed-offset abbreviations Intl prints for `timeZoneName: "short"` in en-US (Gemini CLI's
 * "Access resets at 3:05 PM PST."): outside the US it prints "GMT+5:30" instead, read below.
 */
const ABBREVIATIONS: Record<string, number> = {
  utc: 0,
  gmt: 0,
  z: 0,
  est: -5,
  edt: -4,
  cst: -6,
  cdt: -5,
  mst: -7,
  mdt: -6,
  pst: -8,
  pdt: -7,
  akst: -9,
  akdt: -8,
  hst: -10,
};

const zoneCache = new Map<string, Zone | null>();

export function parseZone(text: string): Zone | null {
  const key = text.trim();
  if (zoneCache.has(key)) return zoneCache.get(key)!;
  const z = readZone(key);
  if (zoneCache.size > 256) zoneCache.clear();
  zoneCache.set(key, z);
  return z;
}

function readZone(t: string): Zone | null {
  if (t === "") return null;
  const low = t.toLowerCase();
  if (ABBREVIATIONS[low] !== undefined) {
    return { kind: "fixed", offsetMs: ABBREVIATIONS[low] * HOUR };
  }
  // Only a real sign: `[+-−]` would be the range U+002B…U+2212 ("05" and "a5" read as UTC−5).
  const off = /^(?:utc|gmt)?([+\-−])(\d{1,2})(?::?(\d{2}))?$/.exec(low);
  if (off) {
    const h = Number(off[2]), m = Number(off[3] ?? "0");
    if (h > 14 || m > 59) return null;
    const sign = off[1] === "+" ? 1 : -1;
    return { kind: "fixed", offsetMs: sign * (h * HOUR + m * MINUTE) };
  }
  // An IANA name: letters, digits, '/', '_', '-', '+' (Etc/GMT+5), or it is unread. Intl resolves
  // old links (US/Pacific-New); Temporal, which does the arithmetic, must know what it resolves
  // to. The few names only ICU still has keep the rules ICU gives them: a machine whose local zone
  // is `Factory` (some minimal images) reads a bare reset time as UTC, as before Temporal.
  if (!/^[A-Za-z][A-Za-z0-9/_+-]{1,63}$/.test(t)) return null;
  try {
    const name = new Intl.DateTimeFormat("en-US", { timeZone: t }).resolvedOptions().timeZone;
    const icuOnly = ICU_ONLY_ZONES[name];
    if (icuOnly !== undefined) return icuOnly;
    new Temporal.ZonedDateTime(0n, name);
    return { kind: "iana", name };
  } catch {
    return null;
  }
}

/** Zones ICU knows and Temporal does not, as the rules ICU applies to them. */
const ICU_ONLY_ZONES: Record<string, Zone> = {
  Factory: { kind: "fixed", offsetMs: 0 },
  "SystemV/EST5": { kind: "fixed", offsetMs: -5 * HOUR },
  "SystemV/PST8PDT": { kind: "iana", name: "PST8PDT" },
};

interface YMD {
  year: number;
  month: number;
  day: number;
}

/** The calendar date at instant `t` in the zone. */
function wallDate(zone: Zone, t: number): YMD {
  if (zone.kind === "fixed") {
    const d = new Date(t + zone.offsetMs);
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
  }
  // Temporal takes whole milliseconds; the date a fraction falls in is its floor's.
  const z = Temporal.Instant.fromEpochMilliseconds(Math.floor(t)).toZonedDateTimeISO(zone.name);
  return { year: z.year, month: z.month, day: z.day };
}

function addDays(d: YMD, n: number): YMD {
  const x = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: x.getUTCFullYear(), month: x.getUTCMonth() + 1, day: x.getUTCDate() };
}

/** The instant a wall-clock time in the zone names (DST rules in the module comment). */
export function wallToInstant(
  zone: Zone,
  year: number,
  month: number,
  day: number,
  h: number,
  m: number,
): number {
  // Date.UTC in both branches, as daysInMonth: a printed year is read one way whatever the zone.
  const wall = Date.UTC(year, month - 1, day, h, m);
  if (zone.kind === "fixed") return wall - zone.offsetMs;
  // "later" is the module comment's rule: a skipped time moves forward by the gap, a repeated one
  // is its second occurrence.
  return Temporal.Instant.fromEpochMilliseconds(wall).toZonedDateTimeISO("UTC").toPlainDateTime()
    .toZonedDateTime(zone.name, { disambiguation: "later" }).epochMilliseconds;
}
