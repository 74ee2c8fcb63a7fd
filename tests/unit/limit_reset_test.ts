/**
 * The reset-time parser (lib/limit/reset.ts): every wording the shipped profiles read, zones east
 * and west of UTC, a reset earlier in the day than now (tomorrow), midnight, DST changes, dates
 * without a year, relative forms, and what must stay unread (null, never a guess).
 */
import assert from "node:assert/strict";
import {
  parseDate,
  parseRelative,
  parseTime,
  parseZone,
  type ResetCaptures,
  resetIso,
  wallToInstant,
} from "../../lib/limit/reset.ts";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const at = (iso: string) => Date.parse(iso);

function iso(c: ResetCaptures, now: string, timeZone = "UTC"): string | null {
  return resetIso(c, { now: at(now), timeZone });
}

/** The named groups a shipped profile's pattern captures from a line. */
function captures(cli: string, line: string): ResetCaptures | null {
  const re = resolveProfile(cli, EMPTY_CONFIG).matchers.patterns.limit_reset_pattern;
  const m = re?.exec(line);
  if (!m) return null;
  const out: ResetCaptures = {};
  for (const [k, v] of Object.entries(m.groups ?? {})) {
    if (v !== undefined && v.trim() !== "") out[k as keyof ResetCaptures] = v;
  }
  return out;
}

// ---- every wording, through the shipped profile's pattern and the parser ----

interface Case {
  cli: string;
  line: string;
  now: string;
  zone?: string;
  want: string | null;
  source: string;
}

const WORDINGS: Case[] = [
  // Claude Code
  {
    cli: "claude",
    line: "⎿  You've hit your session limit · resets 8pm (America/New_York)",
    now: "2026-12-01T15:00:00Z", // 10:00 in New York (EST, UTC-5)
    want: "2026-12-02T01:00:00.000Z",
    source: "issue 12 wording; zone west of UTC",
  },
  {
    cli: "claude",
    line: "⎿  You've hit your session limit · resets 6:37pm (UTC)",
    now: "2026-12-01T14:00:00Z",
    want: "2026-12-01T18:37:00.000Z",
    source: "fixture session-limit (2.1.197)",
  },
  {
    cli: "claude",
    line: "⎿  You've hit your weekly limit · resets 6:37pm (UTC)",
    now: "2026-12-01T14:00:00Z",
    want: "2026-12-01T18:37:00.000Z",
    source: "fixture weekly-limit (2.1.197)",
  },
  {
    cli: "claude",
    line: "⎿  You've hit your 5-hour limit · resets 6:34am (UTC)",
    now: "2026-12-01T04:00:00Z",
    want: "2026-12-01T06:34:00.000Z",
    source: "2.1.332 lab recording",
  },
  {
    cli: "claude",
    line: "5-hour limit reached ∙ resets 3pm",
    now: "2026-12-01T09:00:00Z",
    zone: "Europe/Berlin", // no zone printed: the local zone (UTC+1 in December)
    want: "2026-12-01T14:00:00.000Z",
    source: "issue 12 wording (1.0.x, U+2219)",
  },
  {
    cli: "claude",
    line: "You're out of extra usage · resets 11:30am (Asia/Colombo)",
    now: "2026-12-01T03:00:00Z", // 08:30 in Colombo (UTC+5:30)
    want: "2026-12-01T06:00:00.000Z",
    source: "issue 12 wording; zone east of UTC with a half hour",
  },
  {
    cli: "claude",
    line: "You're out of extra usage · resets Feb 4, 8pm (Europe/Budapest)",
    now: "2026-02-02T19:49:25Z",
    want: "2026-02-04T19:00:00.000Z",
    source: "anthropics/claude-code#22603 (2.1.23)",
  },
  {
    cli: "claude",
    line: "You're out of extra usage · resets Mar 5 at 10pm (America/Chicago)",
    now: "2026-03-03T13:09:56Z",
    want: "2026-03-06T04:00:00.000Z",
    source: "anthropics/claude-code#30379 (2.1.63)",
  },
  {
    cli: "claude",
    line: "You've hit your session limit · resets Dec 2, 9am",
    now: "2026-11-29T12:00:00Z",
    zone: "America/Los_Angeles",
    want: "2026-12-02T17:00:00.000Z",
    source: "issue 12 date form",
  },
  {
    cli: "claude",
    line: "You've hit your weekly limit · resets Jan 3, 2027, 9am (Europe/Berlin)",
    now: "2026-12-30T12:00:00Z",
    want: "2027-01-03T08:00:00.000Z",
    source: "2.1.197 binary: the year is printed when it differs",
  },
  {
    cli: "claude",
    line: "You're out of usage credits · resets 5pm (Europe/Brussels)",
    now: "2026-06-01T08:00:00Z", // CEST, UTC+2
    want: "2026-06-01T15:00:00.000Z",
    source: "2.1.197 binary wording; #38240 zone",
  },
  {
    cli: "claude",
    line: "Claude usage limit reached. Your limit will reset at 12am.",
    now: "2025-07-15T10:00:00Z", // 19:00 in Tokyo
    zone: "Asia/Tokyo",
    want: "2025-07-15T15:00:00.000Z", // midnight that starts Jul 16 in Tokyo
    source: "aniketkarne/CCAutoRenew#3 (1.0.x)",
  },
  // Codex
  {
    cli: "codex",
    line:
      "■ You've hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at 3:05 PM.",
    now: "2026-12-01T17:00:00Z",
    zone: "America/New_York",
    want: "2026-12-01T20:05:00.000Z",
    source: "0.171.0 binary format %-I:%M %p",
  },
  {
    cli: "codex",
    line:
      "You've hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at Jul 5th, 2026 8:19 PM.",
    now: "2026-06-05T12:00:00Z",
    zone: "America/Los_Angeles",
    want: "2026-07-06T03:19:00.000Z",
    source: "openai/codex#26668",
  },
  {
    cli: "codex",
    line:
      "■ You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 5 days 22 hours 11 minutes.",
    now: "2025-09-19T10:00:00Z",
    want: "2025-09-25T08:11:00.000Z",
    source: "openai/codex#3899 (0.39.0)",
  },
  {
    cli: "codex",
    line: "■ You've hit your usage limit. Try again in 2 days 4 hours.",
    now: "2026-12-01T00:00:00Z",
    want: "2026-12-03T04:00:00.000Z",
    source: "issue 12 wording",
  },
  {
    cli: "codex",
    line:
      "You've hit your usage limit for gpt-6-sol. Switch to another model now, or try again at Dec 2nd, 2026 9:00 AM.",
    now: "2026-12-01T00:00:00Z",
    zone: "Asia/Kolkata",
    want: "2026-12-02T03:30:00.000Z",
    source: "0.171.0 binary wording and date format",
  },
  // Gemini CLI
  {
    cli: "gemini",
    line: "Usage limit reached for gemini-3.8-flash. Access resets at 3:05 PM UTC.",
    now: "2026-12-01T12:00:00Z",
    want: "2026-12-01T15:05:00.000Z",
    source: "0.61.0 bundle (getResetTimeMessage)",
  },
  {
    cli: "gemini",
    line: "Usage limit reached for all Pro models. Access resets at 11:30 AM GMT+5:30.",
    now: "2026-12-01T03:00:00Z",
    want: "2026-12-01T06:00:00.000Z",
    source: "0.61.0 bundle: Intl short zone outside the US",
  },
  {
    cli: "gemini",
    line: "Usage limit reached for gemini-3.8-flash. Access resets at 9:00 PM PST.",
    now: "2026-12-01T12:00:00Z",
    want: "2026-12-02T05:00:00.000Z",
    source: "0.61.0 bundle: Intl short zone in the US",
  },
];

for (const c of WORDINGS) {
  Deno.test(`reset: ${c.cli}: ${c.line.slice(0, 60)}… (${c.source})`, () => {
    const caps = captures(c.cli, c.line);
    if (caps === null) throw new Error(`the ${c.cli} profile does not match: ${c.line}`);
    assert.deepEqual(iso(caps, c.now, c.zone), c.want);
  });
}

Deno.test("reset: look-alike lines are no limit", () => {
  for (
    const line of [
      "You've used 90% of your session limit · resets 6pm (UTC)",
      "Approaching session limit · resets 6pm (UTC)",
      "You're now using usage credits · Your session limit resets 6pm (UTC)",
      "You've hit your fast limit · resets in 5m 30s",
      "⚠ Usage limit reached · limit resets 6:34am",
    ]
  ) assert.deepEqual(captures("claude", line), null, line);
  assert.deepEqual(
    captures("codex", "■ Quota exceeded. Check your plan and billing details."),
    null,
  );
  assert.deepEqual(captures("gemini", "Usage limit reached for gemini-3.8-flash."), null);
  // Qwen Code prints no reset time (profiles/qwen.toml): its quota lines are escalated as before.
  for (
    const line of [
      "Pro quota limit reached for qwen3-coder-plus.",
      "Possible quota limitations in place or slow response times detected. Please wait and try again later.",
      "Retrying in 5 seconds…",
    ]
  ) assert.deepEqual(captures("qwen", line), null, line);
});

// ---- rolling forward, midnight, zones ----

Deno.test("reset: a time earlier in the day than now is tomorrow", () => {
  assert.deepEqual(
    iso({ time: "6:37pm", zone: "UTC" }, "2026-12-01T19:00:00Z"),
    "2026-12-02T18:37:00.000Z",
  );
  assert.deepEqual(
    iso({ time: "9am" }, "2026-12-01T23:00:00Z", "Asia/Tokyo"),
    "2026-12-02T00:00:00.000Z",
  );
});

Deno.test("reset: a time cut to the minute is still today within that minute", () => {
  // printed "6:37pm" for a reset at 18:37:45; read at 18:37:30 it is not tomorrow
  assert.deepEqual(
    iso({ time: "6:37pm", zone: "UTC" }, "2026-12-01T18:37:30Z"),
    "2026-12-01T18:37:00.000Z",
  );
  assert.deepEqual(
    iso({ time: "6:37pm", zone: "UTC" }, "2026-12-01T18:38:01Z"),
    "2026-12-02T18:37:00.000Z",
  );
});

Deno.test("reset: midnight wraps to the next day", () => {
  assert.deepEqual(
    iso({ time: "12:30am", zone: "UTC" }, "2026-12-31T23:10:00Z"),
    "2027-01-01T00:30:00.000Z",
  );
  assert.deepEqual(
    iso({ time: "12am" }, "2026-12-01T22:00:00Z", "UTC"),
    "2026-12-02T00:00:00.000Z",
  );
  assert.deepEqual(
    iso({ time: "12pm" }, "2026-12-01T09:00:00Z", "UTC"),
    "2026-12-01T12:00:00.000Z",
  );
});

Deno.test("reset: the zone decides the day: east and west of UTC at the same instant", () => {
  const now = "2026-12-01T22:00:00Z"; // Dec 2 07:00 in Tokyo, Dec 1 14:00 in Los Angeles
  assert.deepEqual(iso({ time: "8am", zone: "Asia/Tokyo" }, now), "2026-12-01T23:00:00.000Z");
  assert.deepEqual(
    iso({ time: "8am", zone: "America/Los_Angeles" }, now),
    "2026-12-02T16:00:00.000Z",
  );
  assert.deepEqual(
    iso({ time: "11:45pm", zone: "Pacific/Kiritimati" }, now),
    "2026-12-02T09:45:00.000Z",
  );
  assert.deepEqual(iso({ time: "3pm", zone: "GMT-3" }, now), "2026-12-02T18:00:00.000Z");
  assert.deepEqual(iso({ time: "3pm", zone: "UTC+9" }, now), "2026-12-02T06:00:00.000Z");
});

// ---- DST ----

Deno.test("reset: across a DST change the reset keeps its wall-clock time", () => {
  // New York springs forward on 2026-03-08 at 02:00 (UTC-5 → UTC-4).
  const before = "2026-03-07T23:00:00Z"; // Mar 7 18:00 EST
  assert.deepEqual(
    iso({ time: "9am", zone: "America/New_York" }, before),
    "2026-03-08T13:00:00.000Z", // 09:00 EDT, not 09:00 EST
  );
  // London falls back on 2026-10-25 (BST UTC+1 → GMT).
  assert.deepEqual(
    iso({ time: "9am", zone: "Europe/London" }, "2026-10-24T20:00:00Z"),
    "2026-10-25T09:00:00.000Z",
  );
});

Deno.test("reset: a time the change skips moves forward, a time it repeats is the later one", () => {
  const night = "2026-03-08T05:00:00Z"; // 00:00 EST
  assert.deepEqual(
    iso({ time: "2:30am", zone: "America/New_York" }, night),
    "2026-03-08T07:30:00.000Z",
  );
  // 01:30 happens twice on 2026-11-01 in New York (EDT then EST): the later one
  assert.deepEqual(
    iso({ time: "1:30am", zone: "America/New_York" }, "2026-11-01T04:00:00Z"),
    "2026-11-01T06:30:00.000Z",
  );
  // southern hemisphere: Sydney springs forward on 2026-10-04 at 02:00 (UTC+10 → UTC+11)
  assert.deepEqual(
    iso({ time: "2:15am", zone: "Australia/Sydney" }, "2026-10-03T12:00:00Z"),
    "2026-10-03T16:15:00.000Z", // 03:15 AEDT
  );
});

// ---- dates ----

Deno.test("reset: a date without a year is its next occurrence", () => {
  assert.deepEqual(
    iso({ date: "Dec 2,", time: "9am", zone: "UTC" }, "2026-11-30T00:00:00Z"),
    "2026-12-02T09:00:00.000Z",
  );
  assert.deepEqual(
    iso({ date: "Jan 3, ", time: "9am", zone: "UTC" }, "2026-12-30T00:00:00Z"),
    "2027-01-03T09:00:00.000Z",
  );
  assert.deepEqual(
    iso({ date: "Feb 29", time: "9am", zone: "UTC" }, "2027-03-01T00:00:00Z"),
    "2028-02-29T09:00:00.000Z",
  );
  assert.deepEqual(
    iso({ date: "Feb 29, 2027", time: "9am", zone: "UTC" }, "2027-01-01T00:00:00Z"),
    null,
  );
  assert.deepEqual(
    iso({ date: "Feb 29", time: "9am", zone: "UTC" }, "2028-01-01T00:00:00Z"),
    "2028-02-29T09:00:00.000Z",
  );
});

Deno.test("reset: date forms", () => {
  assert.deepEqual(parseDate("Dec 2"), { month: 12, day: 2 });
  assert.deepEqual(parseDate("Mar 5 at "), { month: 3, day: 5 });
  assert.deepEqual(parseDate("Jul 5th, 2026 "), { year: 2026, month: 7, day: 5 });
  assert.deepEqual(parseDate("May 11th, 2026"), { year: 2026, month: 5, day: 11 });
  assert.deepEqual(parseDate("Dec 2, 2027, "), { year: 2027, month: 12, day: 2 });
  assert.deepEqual(parseDate("September 1"), { month: 9, day: 1 });
  assert.deepEqual(parseDate("Sept 1"), { month: 9, day: 1 });
  assert.deepEqual(parseDate("Foo 2"), null);
  assert.deepEqual(parseDate("Decimal 2"), null);
  assert.deepEqual(parseDate("Apr 31"), null);
  assert.deepEqual(parseDate("2 Dec"), null);
});

Deno.test("reset: time forms", () => {
  assert.deepEqual(parseTime("8pm"), { h: 20, m: 0 });
  assert.deepEqual(parseTime("6:37pm"), { h: 18, m: 37 });
  assert.deepEqual(parseTime("3:05 PM"), { h: 15, m: 5 });
  assert.deepEqual(parseTime("12am"), { h: 0, m: 0 });
  assert.deepEqual(parseTime("12:50am"), { h: 0, m: 50 });
  assert.deepEqual(parseTime("12pm"), { h: 12, m: 0 });
  assert.deepEqual(parseTime("11:30 a.m."), { h: 11, m: 30 });
  assert.deepEqual(parseTime("15:05"), { h: 15, m: 5 });
  for (const bad of ["13pm", "0am", "6:60pm", "25:00", "6.37", "noon", "", "6:3pm"]) {
    assert.deepEqual(parseTime(bad), null, bad);
  }
});

Deno.test("reset: relative forms", () => {
  assert.deepEqual(parseRelative("2 days 4 hours"), (2 * 24 + 4) * 3_600_000);
  assert.deepEqual(parseRelative("5 days 22 hours 11 minutes"), ((5 * 24 + 22) * 60 + 11) * 60_000);
  assert.deepEqual(parseRelative("1 hour"), 3_600_000);
  assert.deepEqual(parseRelative("5m 30s"), 330_000);
  assert.deepEqual(parseRelative("1h 5m"), 65 * 60_000);
  assert.deepEqual(parseRelative("3 hours, 2 minutes"), 182 * 60_000);
  assert.deepEqual(parseRelative("2 days and 4 hours"), 52 * 3_600_000);
  for (const bad of ["", "soon", "2 fortnights", "days 2", "2 days 4"]) {
    assert.deepEqual(parseRelative(bad), null, bad);
  }
  assert.deepEqual(
    iso({ in: "8 hours 30 minutes" }, "2026-12-01T00:00:00Z"),
    "2026-12-01T08:30:00.000Z",
  );
});

// ---- never a guess ----

Deno.test("reset: what cannot be read is null", () => {
  const now = "2026-12-01T12:00:00Z";
  assert.deepEqual(iso({ time: "8pm", zone: "Mars/Olympus_Mons" }, now), null);
  assert.deepEqual(iso({ time: "8pm", zone: "XYZ" }, now), null);
  assert.deepEqual(iso({ time: "8pm", zone: "GMT+15" }, now), null);
  assert.deepEqual(iso({ time: "8pm", zone: "a b" }, now), null);
  assert.deepEqual(iso({ time: "8pm" }, now, "Not/AZone"), null);
  assert.deepEqual(iso({ time: "13pm", zone: "UTC" }, now), null);
  assert.deepEqual(iso({ date: "Smarch 3", time: "9am", zone: "UTC" }, now), null);
  assert.deepEqual(iso({ zone: "UTC" }, now), null);
  assert.deepEqual(iso({}, now), null);
  assert.deepEqual(resetIso({ time: "8pm" }, { now: NaN, timeZone: "UTC" }), null);
});

Deno.test("reset: zone spellings", () => {
  const now = "2026-07-01T00:00:00Z";
  const noon = (zone: string) => iso({ time: "12pm", zone }, now);
  assert.deepEqual(noon("UTC"), "2026-07-01T12:00:00.000Z");
  assert.deepEqual(noon("GMT"), "2026-07-01T12:00:00.000Z");
  assert.deepEqual(noon("EDT"), "2026-07-01T16:00:00.000Z");
  assert.deepEqual(noon("PDT"), "2026-07-01T19:00:00.000Z");
  assert.deepEqual(noon("HST"), "2026-07-01T22:00:00.000Z");
  assert.deepEqual(noon("GMT+5:30"), "2026-07-01T06:30:00.000Z");
  assert.deepEqual(noon("GMT−3"), "2026-07-01T15:00:00.000Z"); // U+2212 minus, as some Intl data prints
  assert.deepEqual(noon("America/Sao_Paulo"), "2026-07-01T15:00:00.000Z");
  assert.deepEqual(noon("Australia/Adelaide"), "2026-07-01T02:30:00.000Z");
  assert.deepEqual(noon("Etc/GMT+5"), "2026-07-01T17:00:00.000Z");
});

Deno.test("reset: an offset needs a real sign (+, -, U+2212) before its digits", () => {
  const HOUR = 3_600_000;
  const fixed = (h: number, m = 0) => ({
    kind: "fixed",
    offsetMs: h * HOUR + Math.sign(h) * m * 60_000,
  });
  assert.deepEqual(parseZone("+5"), fixed(5));
  assert.deepEqual(parseZone("-05:30"), fixed(-5, 30));
  assert.deepEqual(parseZone("\u22123"), fixed(-3));
  assert.deepEqual(parseZone("UTC+9"), fixed(9));
  assert.deepEqual(parseZone("GMT-0330"), fixed(-3, 30));
  // `[+-−]` is the character range U+002B…U+2212: a digit or a letter took the place of the sign
  // and both of these read as UTC−5.
  for (const bad of ["05", "a5", "utca5", "GMT05", "5", "×5", "~5", "+", "+a"]) {
    assert.deepEqual(parseZone(bad), null, bad);
  }
});

Deno.test("reset: a limit printed in an unknown zone has no reset instant (so drive escalates it)", () => {
  // The recorded 2.1.197 session-limit-zone screen with its zone edited (hand-made, labelled so).
  const dir = new URL("../fixtures/claude-code/2.1.197/", import.meta.url).pathname;
  const real = Deno.readTextFileSync(`${dir}session-limit-zone@120x40.txt`);
  assert.ok(real.includes("(America/New_York)"));
  const profile = resolveProfile("claude", EMPTY_CONFIG);
  const opts = { now: at("2026-12-01T12:00:00Z"), timeZone: "UTC" };
  assert.notEqual(detect({ plain: real }, profile, opts).limit_resets_at, null);
  for (const zone of ["05", "a5"]) {
    const v = detect({ plain: real.replace("(America/New_York)", `(${zone})`) }, profile, opts);
    assert.match(v.limit ?? "", /resets 3:55am/, zone);
    assert.equal(v.limit_resets_at, null, `zone "${zone}" must stay unread, never UTC-5`);
  }
  // Unread resets escalate as an unavailable CLI (tests/unit/drive_limit_test.ts "a limit with no
  // readable reset is escalated as before, even with resume").
});

Deno.test("reset zones ICU knows and Temporal does not keep ICU's rules (a local zone of Factory reads as UTC)", () => {
  const at = (zone: string) => wallToInstant(parseZone(zone)!, 2026, 7, 1, 15, 0);
  assert.equal(at("Factory"), Date.parse("2026-07-01T15:00:00Z"));
  assert.equal(at("SystemV/EST5"), Date.parse("2026-07-01T20:00:00Z"));
  assert.equal(at("SystemV/PST8PDT"), Date.parse("2026-07-01T22:00:00Z"));
  assert.equal(
    wallToInstant(parseZone("SystemV/PST8PDT")!, 2026, 1, 1, 15, 0),
    Date.parse("2026-01-01T23:00:00Z"),
  );
});
