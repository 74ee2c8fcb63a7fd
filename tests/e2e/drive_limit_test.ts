/**
 * Driving through a usage limit (issue 12), end to end: `drover drive --once` run the way cron runs
 * it (`env -i PATH=/usr/bin:/bin`, no TMUX, no TERM; tests/helpers/cron.ts) against replay doubles
 * of the real Claude Code limit screens of every pinned version (2.1.197: "You've hit your session
 * limit · resets 6:37pm (UTC)"; 2.1.332: "You've hit your 5-hour limit · resets 6:34am (UTC)" and
 * its three-option menu; recorded by the lab). Time is the test's: each run gets the hidden `--now`
 * flag (the clock starts there), so a run "two minutes after the reset" needs no waiting. The
 * replay doubles record every byte drover sends, so the tests assert exactly what was typed and
 * when.
 */
import assert from "node:assert/strict";
import { type CronBox, cronBox } from "../helpers/cron.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";

const SIZE = "120x40";
/** The day the screens are read on. */
const DAY = "2026-12-01";

/** Each pinned version's recorded limit screens, and the reset they print. */
const VERSIONS = [
  {
    version: "2.1.197",
    banner: /You've hit your session limit · resets 6:37pm \(UTC\)/,
    reset: "18:37",
  },
  {
    version: "2.1.332",
    banner: /You've hit your 5-hour limit · resets 6:34am \(UTC\)/,
    reset: "06:34",
  },
] as const;

// deno-lint-ignore no-explicit-any
type Loose = any;

interface Tick {
  code: number;
  stdout: string;
  events: Loose[];
}

/** One cron tick: `drive --once` with the resume on, at the given instant. */
async function tick(box: CronBox, now: string, extra = "", resume = "continue"): Promise<Tick> {
  const q = `'${resume.replaceAll("'", `'\\''`)}'`;
  const r = await box.run(
    `"$DROVER" drive --session agents --once --resume ${q} --settle 200ms ` +
      `--events "$HOME/events.jsonl" --now ${now} ${extra}`,
  );
  assert.doesNotMatch(r.stderr, /Failed to resolve|NotCapable|NotFound|Error:/, r.stderr);
  const events = await readEvents(box);
  return { code: r.code, stdout: r.stdout, events };
}

async function readEvents(box: CronBox): Promise<Loose[]> {
  try {
    return (await Deno.readTextFile(`${box.home}/events.jsonl`)).trim().split("\n")
      .filter((l) => l !== "").map((l) => JSON.parse(l))
      .filter((e) => e.event !== "drive-started" && e.event !== "drive-stopped");
  } catch {
    return [];
  }
}

const names = (events: Loose[]) =>
  events.map((e) => e.event === "escalated" ? `escalated:${e.reason}` : e.event);

/** The pane's bytes once they stop arriving (drover waits for its own verify captures). */
async function settled(p: ReplayPane): Promise<string> {
  let last = await p.keys();
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await p.keys();
    if (now === last) return now;
    last = now;
  }
  return last;
}

for (const { version, banner, reset } of VERSIONS) {
  const FIX = `claude-code/${version}`;
  const [hh, mm] = reset.split(":").map(Number);
  const R = Date.parse(`${DAY}T00:00:00Z`) + (hh * 60 + mm) * 60_000;
  /** The instant `min` minutes and `sec` seconds after the printed reset (ISO 8601). */
  const iso = (min: number, sec = 0) => new Date(R + min * 60_000 + sec * 1000).toISOString();
  const at = iso;

  Deno.test(`drive limit (cron, ${version}): one limit event, nothing before reset + margin, one resume after it; a second limit backs off`, async () => {
    await using box = await cronBox();
    const orch = await startReplay(box.server, await loadScreen(`${FIX}/ready@${SIZE}`), {
      session: "agents",
    });
    const limited = await loadScreen(`${FIX}/session-limit@${SIZE}`);
    const agent = await startReplay(box.server, limited, { session: "agents", newWindow: true });
    // The CLI takes the resume: after its Enter the pane is back at work (its ready screen).
    await agent.onKey("\r", await loadScreen(`${FIX}/ready@${SIZE}`));
    try {
      // 37 min before the reset — the limit is seen: one event, no key.
      const first = await tick(box, at(-37));
      assert.equal(first.code, 0, first.stdout);
      assert.deepEqual(names(first.events), ["limit"]);
      const ev = first.events[0];
      assert.equal(ev.pane, agent.paneId);
      assert.equal(ev.resets_at, iso(0));
      assert.match(ev.text, banner);
      assert.equal(ev.detail.due_at, iso(2));
      assert.match(
        first.stdout,
        new RegExp(
          ` limit %\\d+ agents:1\\.0 \\(claude\\): usage limit until ${iso(0).slice(0, 19)}`,
        ),
      );
      assert.equal(first.stdout.trim().split("\n").length, 1, "cron mails one line");

      // 17 min before, at the reset, 1:50 after (inside the margin; 10 s spare for a slow start): quiet, no key.
      for (const t of [at(-17), at(0), at(1, 50)]) {
        const quiet = await tick(box, t);
        assert.equal(quiet.code, 0);
        assert.equal(quiet.stdout, "", `nothing to report at ${t}`);
      }
      assert.equal(await settled(agent), "");
      assert.deepEqual(names(await readEvents(box)), ["limit"]);

      // 2:30 after the reset — the first tick after reset + 2m: the resume text, once, then Enter.
      const resumed = await tick(box, at(2, 30));
      assert.equal(resumed.code, 0, resumed.stdout);
      assert.equal(await settled(agent), "continue\r");
      assert.deepEqual(names(resumed.events), ["limit", "resumed"]);
      assert.match(resumed.stdout, /resumed .*typed "continue"/);
      assert.equal(await orch.keys(), "");

      // Later ticks: the limit is over; nothing is typed again.
      for (const t of [at(8), at(53)]) {
        const later = await tick(box, t);
        assert.equal(later.stdout, "");
      }
      assert.equal(await settled(agent), "continue\r");

      // 83 min after the reset — the limit comes back (same words, a reset that has passed): a second limit, backed
      // off to twice the margin from now, and typed once when that has passed.
      await agent.show(limited);
      await agent.onKey("\r", await loadScreen(`${FIX}/ready@${SIZE}`));
      const again = await tick(box, at(83));
      assert.deepEqual(names(again.events), ["limit", "resumed", "limit"]);
      const back = again.events[2];
      assert.equal(back.detail.comeback, true);
      // (the clock of that run started at 20:00:00 and ran for a moment before it saw the limit)
      assert.equal(back.detail.due_at.slice(0, 19), iso(87).slice(0, 19));
      assert.equal((await tick(box, at(86, 50))).stdout, "");
      assert.equal(await settled(agent), "continue\r");
      const second = await tick(box, at(87, 2));
      assert.deepEqual(names(second.events), ["limit", "resumed", "limit", "resumed"]);
      assert.equal(await settled(agent), "continue\rcontinue\r");
      assert.equal(await orch.keys(), "");

      // The state file holds the limit between the runs.
      const dir = `${box.home}/.local/state/drover`;
      const files = [];
      for await (const e of Deno.readDir(dir)) files.push(e.name);
      const state = JSON.parse(
        await Deno.readTextFile(`${dir}/${files.find((f) => f.endsWith(".state.json"))}`),
      );
      assert.equal(state.panes[agent.paneId].limit.resumes, 2);
    } finally {
      for (const p of [orch, agent]) await cleanupReplay(p);
    }
  });

  Deno.test(`drive limit (cron, ${version}): the orchestrator exits 75 quietly until the reset, then is resumed`, async () => {
    await using box = await cronBox();
    const orch = await startReplay(box.server, await loadScreen(`${FIX}/session-limit@${SIZE}`), {
      session: "agents",
    });
    await orch.onKey("\r", await loadScreen(`${FIX}/ready@${SIZE}`));
    const agent = await startReplay(box.server, await loadScreen(`${FIX}/pasted-text@${SIZE}`), {
      session: "agents",
      newWindow: true,
    });
    try {
      const first = await tick(box, at(-37));
      assert.equal(first.code, 75);
      assert.deepEqual(names(first.events), ["limit"]);
      assert.equal(first.events[0].role, "orchestrator");
      assert.equal(first.stdout.trim().split("\n").length, 1, "one line: the limit event");
      for (const t of [at(-36), at(-7), at(1, 50)]) {
        const waiting = await tick(box, t);
        assert.equal(waiting.code, 75, `exit 75 at ${t}`);
        assert.equal(waiting.stdout, "", `cron stays quiet at ${t}`);
      }
      // While the orchestrator waits, the run stops before any other pane (as for exit 75 always).
      assert.equal(await settled(agent), "");
      assert.equal(await settled(orch), "");
      assert.deepEqual(names(await readEvents(box)), ["limit"]);

      // The resume text is typed byte-exact (issue 17): a trailing ";", "\\;" and tmux formats are
      // data, not tmux code.
      const hostile = "continue; #{pane_id} #(exit 1) a\\; -x;";
      const after = await tick(box, at(2, 1), "", hostile);
      assert.equal(after.code, 0, after.stdout);
      assert.equal(await settled(orch), `${hostile}\r`);
      assert.deepEqual(names(after.events), ["limit", "resumed", "input-submitted"]);
      const next = await tick(box, at(3), "", hostile);
      assert.equal(next.code, 0);
      assert.equal(await settled(orch), `${hostile}\r`);
    } finally {
      for (const p of [orch, agent]) await cleanupReplay(p);
    }
  });

  Deno.test(`drive limit (cron, ${version}): the limit menu is never answered; without --resume nothing changes`, async () => {
    await using box = await cronBox();
    const orch = await startReplay(box.server, await loadScreen(`${FIX}/ready@${SIZE}`), {
      session: "agents",
    });
    const menu = await startReplay(
      box.server,
      await loadScreen(`${FIX}/session-limit-options@${SIZE}`),
      { session: "agents", newWindow: true },
    );
    try {
      // Without --resume (the default): escalated as an unavailable CLI, with when it resets.
      const off = await box.run(
        `"$DROVER" drive --session agents --once --events "$HOME/events.jsonl" --now ${at(-37)}`,
      );
      assert.equal(off.code, 0, off.stderr);
      const offEvents = await readEvents(box);
      assert.deepEqual(names(offEvents), ["escalated:cli-unavailable"]);
      assert.equal(offEvents[0].resets_at, iso(0));
      await Deno.remove(`${box.home}/events.jsonl`);

      // With it: waited out, then — the menu still open at the due tick — escalated, never answered.
      assert.deepEqual(names((await tick(box, at(-36))).events), ["limit"]);
      const due = await tick(box, at(3));
      assert.deepEqual(names(due.events), ["limit", "escalated:limit-menu"]);
      assert.equal((await tick(box, at(4))).stdout, "", "once per dedup window");
      assert.equal(await settled(menu), "");
      assert.equal(await orch.keys(), "");
      // drover approve on it: refused (a limit, not a prompt), nothing sent.
      const approve = await box.run(`"$DROVER" approve ${menu.paneId}`);
      assert.notEqual(approve.code, 0);
      assert.match(approve.stdout + approve.stderr, /usage limit|not a permission prompt|dialog/);
      assert.equal(await settled(menu), "");
    } finally {
      for (const p of [orch, menu]) await cleanupReplay(p);
    }
  });
}
