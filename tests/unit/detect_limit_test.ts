/**
 * The limit detector (lib/detect/limit.ts) on real recorded screens: every limit screen the lab
 * recorded gives `limit` and, with a clock, `limit_resets_at` at the printed time (wrapped banners
 * included); no other recorded screen of any CLI shows a limit; the clock is only what the caller
 * passes; the field's named groups are checked; `approve`'s gate refuses a limit screen.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG, parseConfig } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { gate } from "../../lib/approve/gate.ts";
import { toJudged } from "../../lib/approve/judge.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { RECORDED_CLIS as PROFILE_OF } from "../helpers/recorded.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

interface Entry {
  cli: string;
  profile: string;
  dir: string;
  file: string;
  scenario: string;
  state: string;
}

function recorded(): Entry[] {
  const out: Entry[] = [];
  for (const cli of Object.keys(PROFILE_OF)) {
    for (const v of Deno.readDirSync(`${FIXTURES}${cli}`)) {
      if (!v.isDirectory) continue;
      const dir = `${FIXTURES}${cli}/${v.name}/`;
      const m = JSON.parse(Deno.readTextFileSync(`${dir}manifest.json`));
      for (const s of m.screens) {
        out.push({
          cli,
          profile: PROFILE_OF[cli],
          dir,
          file: s.file,
          scenario: s.scenario,
          state: s.state,
        });
      }
    }
  }
  return out;
}

const ALL = recorded();
/** The recorded scenarios that are usage limits (limit-quoted-*, limit-then-work only quote one). */
const LIMIT = /^(session-limit|weekly-limit|usage-limit|limit-after-tool|limit-again)/;
const NOW = Date.parse("2026-12-01T03:00:00Z");

function judge(e: Entry, now: number | null = NOW, timeZone = "UTC") {
  const plain = Deno.readTextFileSync(e.dir + e.file);
  let styled: string | undefined;
  try {
    styled = Deno.readTextFileSync(e.dir + e.file.replace(/\.txt$/, ".ansi.txt"));
  } catch {
    styled = undefined;
  }
  return detect(
    { plain, styled },
    resolveProfile(e.profile, EMPTY_CONFIG),
    now === null ? {} : { now, timeZone },
  );
}

Deno.test("limit: every recorded limit screen shows its limit and when it resets", () => {
  const limits = ALL.filter((e) => LIMIT.test(e.scenario));
  // Claude Code 2.1.197 (6 scenarios), Codex 0.171.0 (2), Gemini CLI 0.61.0 (2), two sizes each
  assert.ok(limits.length >= 20, `${limits.length} limit screens`);
  for (const e of limits) {
    const v = judge(e);
    const where = `${e.cli}/${e.file}`;
    assert.equal(v.state, "unavailable", where);
    assert.ok(v.limit !== null, `${where}: no limit`);
    assert.ok(v.limit_resets_at !== null, `${where}: no reset read from "${v.limit}"`);
    const at = Date.parse(v.limit_resets_at!);
    // The time printed on the screen is the instant's time of day in the printed zone (the lab's
    // zone, UTC, when none is printed).
    const printed = /(\d{1,2})(?::(\d{2}))? ?([ap])m(?: \(([^)]+)\)| (UTC))?/i.exec(v.limit!);
    if (printed) {
      const h = Number(printed[1]) % 12 + (printed[3].toLowerCase() === "p" ? 12 : 0);
      const zone = printed[4] ?? "UTC";
      const parts = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        hour: "numeric",
        minute: "numeric",
      }).formatToParts(new Date(at));
      const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
      assert.deepEqual([get("hour"), get("minute")], [h, Number(printed[2] ?? "0")], where);
      assert.ok(at > NOW - 60_000, `${where}: rolled forward from now`);
    } else {
      // Gemini's transcript: "Suggested retry after 5400s." — from now
      assert.match(v.limit!, /retry after 5400s/, where);
      assert.equal(at, NOW + 5_400_000, where);
    }
  }
});

Deno.test("limit: wrapped banners are read whole (Codex at 80 columns: three lines)", () => {
  const codex = ALL.filter((e) => e.cli === "codex" && LIMIT.test(e.scenario));
  assert.equal(codex.length, 4);
  for (const e of codex) {
    const v = judge(e);
    assert.match(v.limit!, /^■ You’ve hit your usage limit\. .* try again at .*[AP]M\.$/, e.file);
  }
  const dated = codex.find((e) => e.scenario === "usage-limit-date")!;
  assert.match(judge(dated).limit!, /try again at [A-Z][a-z]{2} \d{1,2}(st|nd|rd|th), \d{4} /);
  const gemini = ALL.find((e) => e.file === "usage-limit-dialog@80x24.txt")!;
  assert.match(judge(gemini).limit!, /^Usage limit reached for \S+\. Access resets at .+ UTC\.$/);
});

Deno.test("limit: no other recorded screen of any CLI shows a limit", () => {
  const others = ALL.filter((e) => !LIMIT.test(e.scenario));
  assert.ok(others.length > 150, `${others.length} screens`);
  for (const e of others) {
    const v = judge(e);
    assert.equal(v.limit, null, `${e.cli}/${e.file}: ${v.limit}`);
    assert.equal(v.limit_resets_at, null, `${e.cli}/${e.file}`);
  }
  // the hand-made look-alikes (narration quoting prompt words) neither
  for (const f of Deno.readDirSync(`${FIXTURES}hand-made/lookalike`)) {
    if (!f.name.endsWith(".txt")) continue;
    const plain = Deno.readTextFileSync(`${FIXTURES}hand-made/lookalike/${f.name}`);
    assert.equal(
      detect({ plain }, resolveProfile("claude", EMPTY_CONFIG), { now: NOW }).limit,
      null,
      f.name,
    );
  }
});

Deno.test("limit: the clock is the caller's — none given, no reset instant", () => {
  const e = ALL.find((x) => x.cli === "claude-code" && x.scenario === "session-limit")!;
  const v = judge(e, null);
  assert.match(v.limit!, /^You've hit your session limit · resets \d/);
  assert.equal(v.limit_resets_at, null);
  // the same screen read an hour before and an hour after its reset
  const reset = Date.parse(judge(e).limit_resets_at!);
  assert.equal(judge(e, reset - 3_600_000).limit_resets_at, new Date(reset).toISOString());
  assert.equal(
    judge(e, reset + 3_600_000).limit_resets_at,
    new Date(reset + 86_400_000).toISOString(),
  );
  // Codex prints no zone: the local zone the caller passes decides the instant
  const c = ALL.find((x) => x.cli === "codex" && x.scenario === "usage-limit")!;
  const utc = Date.parse(judge(c, NOW, "UTC").limit_resets_at!);
  const ny = Date.parse(judge(c, NOW, "America/New_York").limit_resets_at!);
  assert.equal((ny - utc) % 86_400_000, 5 * 3_600_000);
});

// Hand-made screens (small edits of the recorded session-limit layout), labelled as such.
const HANDMADE_TYPED = [
  "❯ say hello",
  "  ⎿  Done.",
  "",
  "────────────────────────────────────────",
  "❯ You've hit your session limit · resets 8pm (UTC)",
  "────────────────────────────────────────",
  "  ? for shortcuts",
].join("\n");
const HANDMADE_SCROLLED = [
  "  ⎿  You've hit your session limit · resets 8pm (UTC)",
  ...Array.from({ length: 20 }, (_, i) => `  line ${i} of a long answer`),
  "────────────────────────────────────────",
  "❯ ",
  "────────────────────────────────────────",
  "  ? for shortcuts",
].join("\n");

Deno.test("limit: typed text and old transcript are not a limit (hand-made screens)", () => {
  const p = resolveProfile("claude", EMPTY_CONFIG);
  const typed = detect({ plain: HANDMADE_TYPED }, p, { now: NOW });
  assert.equal(typed.limit, null);
  assert.equal(typed.input_box, "You've hit your session limit · resets 8pm (UTC)");
  assert.equal(detect({ plain: HANDMADE_SCROLLED }, p, { now: NOW }).limit, null);
});

Deno.test("limit: limit_reset_pattern needs time or in, knows only its group names", () => {
  const cfg = (pattern: string) =>
    parseConfig(
      `[clis.x.prompt_profile]\nlimit_reset_pattern = '''${pattern}'''\n`,
      "/x/config.toml",
    );
  const ok = cfg("hit the limit, back at (?P<time>[0-9:]+[ap]m)(?: \\((?P<zone>[^)]+)\\))?");
  const re = ok.clis.x.promptProfilePatterns.limit_reset_pattern!.matcher;
  assert.deepEqual(re.exec("we hit the limit, back at 8pm (UTC)")?.groups, {
    time: "8pm",
    zone: "UTC",
  });
  assert.throws(() => cfg("hit the limit"), /limit_reset_pattern: .*needs a named group/);
  assert.throws(
    () => cfg("limit (?P<when>[0-9]+pm)"),
    /limit_reset_pattern: .*unknown named group "when"/,
  );
  assert.throws(
    () => cfg("limit (?P<time>[0-9]+pm)|reset (?P<time>[0-9]+am)"),
    /duplicate capture group name "time"/,
  );
  // other pattern fields may name groups freely
  parseConfig(
    `[clis.x.prompt_profile]\ncontext_used_pattern = '(?P<pct>[0-9]{1,3})% used'\n`,
    "/x/config.toml",
  );
});

Deno.test("limit: the approve gate refuses a limit screen, menu or not, with no key", () => {
  for (
    const e of ALL.filter((x) => LIMIT.test(x.scenario) && x.cli !== "codex")
  ) {
    const g = gate(toJudged(judge(e)));
    assert.equal(g.ok, false, e.file);
    assert.ok(!g.ok && (g.reason === "dialog" || g.reason === "no-live-prompt"), e.file);
  }
  // a limit menu shaped like a permission prompt (hand-made verdicts): still refused
  const shaped = {
    live_prompt: true,
    permission_prompt: true,
    command: "ls",
    file_path: null,
    options: [{ number: 1, text: "Yes", selected: true }],
    broad_grant_option: null,
    limit: "You've hit your session limit · resets 8pm (UTC)",
  };
  const g = gate(shaped);
  assert.equal(g.ok, false);
  assert.match(!g.ok ? g.message : "", /usage limit/);
  assert.equal(gate({ ...shaped, limit: null }).ok, true);
});
