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
import {
  cleanupReplay,
  loadScreen,
  type ReplayPane,
  type Screen,
  startReplay,
} from "../helpers/replay.ts";

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

/**
 * The pane's bytes once all of them have arrived: every tick is a `drive --once` that has exited
 * (its own verify captures done), so the double's sentinel proves nothing it typed is still on its
 * way — under a full run's load a fixed look once returned a resume text typed only half-way.
 */
const settled = (p: ReplayPane): Promise<string> => p.settled();

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
      assert.equal(await orch.settled(), "");

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
      assert.equal(await orch.settled(), "");

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
      assert.equal(await orch.settled(), "");
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

// ---- issue 27: a limit counts only where the CLI draws it; a printed reset is trusted ~8 days ----

const V = "claude-code/2.1.332";
const HAND = "hand-made/claude-code";
/**
 * Real 2.1.332 screens that only quote a limit — in an answer (newer lines below it, at its end, in
 * a list), in a tool's output — or show a real banner with a newer turn below it; and two
 * hand-made variants (a tool's output quoting it as the last block, the macOS answer glyph).
 */
const QUOTED = [
  `${V}/limit-quoted-answer@${SIZE}`,
  `${V}/limit-quoted-answer-end@${SIZE}`,
  `${V}/limit-quoted-list@${SIZE}`,
  `${V}/limit-quoted-tool@${SIZE}`,
  `${V}/limit-then-work@${SIZE}`,
  `${HAND}/limit-quoted-tool-last@${SIZE}`,
  `${HAND}/limit-quoted-answer-macos@${SIZE}`,
];
/** Ticks through a whole day: whatever reset a quoted banner names, some tick is past it + margin. */
const ALL_DAY = Array.from(
  { length: 9 },
  (_, k) => new Date(Date.parse(`${DAY}T00:30:00Z`) + k * 3 * 3_600_000).toISOString(),
);

Deno.test("drive limit (cron, 2.1.332, issue 27): panes that only quote a limit get no resume text all day", async () => {
  await using box = await cronBox();
  const orch = await startReplay(box.server, await loadScreen(`${V}/ready@${SIZE}`), {
    session: "agents",
  });
  const panes = [orch];
  try {
    for (const rel of QUOTED) {
      panes.push(
        await startReplay(box.server, await loadScreen(rel), {
          session: "agents",
          newWindow: true,
        }),
      );
    }
    for (const t of ALL_DAY) {
      const r = await tick(box, t);
      assert.equal(r.code, 0, `${t}: ${r.stdout}`);
      assert.deepEqual(names(r.events), [], `${t}: nothing is a limit`);
    }
    for (const [i, p] of panes.entries()) {
      assert.equal(
        await settled(p),
        "",
        `no key reached ${i === 0 ? "the orchestrator" : QUOTED[i - 1]}`,
      );
    }
  } finally {
    for (const p of panes) await cleanupReplay(p);
  }
});

Deno.test("drive limit (cron, 2.1.332, issue 27): a quoted limit in the orchestrator does not make drive exit 75", async () => {
  await using box = await cronBox();
  const orch = await startReplay(box.server, await loadScreen(QUOTED[1]), { session: "agents" });
  try {
    for (const t of [ALL_DAY[0], ALL_DAY[5]]) {
      const resumed = await tick(box, t);
      assert.equal(resumed.code, 0, `--resume at ${t}: ${resumed.stdout}`);
      const plain = await box.run(
        `"$DROVER" drive --session agents --once --events "$HOME/events.jsonl" --now ${t}`,
      );
      assert.equal(plain.code, 0, `without --resume at ${t}: ${plain.stdout}${plain.stderr}`);
    }
    assert.deepEqual(names(await readEvents(box)), []);
    assert.equal(await settled(orch), "");
  } finally {
    await cleanupReplay(orch);
  }
});

Deno.test("drive limit (cron, 2.1.332, issue 27): a reset in the past, decades ahead or in a blank zone escalates, never resumes", async () => {
  await using box = await cronBox();
  const orch = await startReplay(box.server, await loadScreen(`${V}/ready@${SIZE}`), {
    session: "agents",
  });
  const bad = ["limit-past-reset", "limit-far-reset", "limit-blank-zone"];
  const panes = [orch];
  try {
    for (const name of bad) {
      panes.push(
        await startReplay(box.server, await loadScreen(`${HAND}/${name}@${SIZE}`), {
          session: "agents",
          newWindow: true,
        }),
      );
    }
    for (const t of [ALL_DAY[0], ALL_DAY[3], ALL_DAY[8]]) {
      const r = await tick(box, t);
      assert.equal(r.code, 0, r.stdout);
    }
    const events = await readEvents(box);
    // Each escalated as an unavailable CLI (once per dedup window: each tick is hours apart).
    assert.deepEqual(names(events), Array(9).fill("escalated:cli-unavailable"));
    for (const e of events) assert.equal(e.resets_at, undefined, `no reset read: ${e.text}`);
    for (const p of panes) assert.equal(await settled(p), "");
  } finally {
    for (const p of panes) await cleanupReplay(p);
  }
  // The orchestrator at such a limit: exit 75 (its CLI cannot serve), as for any unreadable reset.
  await using box2 = await cronBox();
  const o2 = await startReplay(box2.server, await loadScreen(`${HAND}/${bad[0]}@${SIZE}`), {
    session: "agents",
  });
  try {
    const r = await tick(box2, ALL_DAY[2]);
    assert.equal(r.code, 75, r.stdout);
    assert.deepEqual(names(r.events), [
      "orchestrator-unavailable",
      "escalated:orchestrator-unavailable",
    ]);
    assert.equal(await settled(o2), "");
  } finally {
    await cleanupReplay(o2);
  }
});

/** What a real bash pane shows after `cat FILE`, captured styled: the screen a replay double shows. */
async function bashCatScreen(box: CronBox, file: string): Promise<Screen> {
  const pane = (await box.server.tmux(
    "new-window",
    "-d",
    "-P",
    "-F",
    "#{pane_id}",
    "-t",
    "agents:",
    "env -i PS1='$ ' TERM=xterm bash --norc --noprofile",
  )).trim();
  await box.server.tmux("send-keys", "-t", pane, "-l", `cat '${file}'`);
  await box.server.tmux("send-keys", "-t", pane, "Enter");
  let screen = "";
  for (let i = 0; i < 100; i++) {
    screen = await box.server.tmux("capture-pane", "-p", "-e", "-J", "-t", pane);
    const lines = screen.trimEnd().split("\n");
    if (lines.length > 2 && lines[lines.length - 1].trim() === "$") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await box.server.tmux("kill-pane", "-t", pane);
  return { text: screen, cols: 120, rows: 40 };
}

Deno.test("drive limit (cron, 2.1.332, issue 27): a bash pane that cats a limit gets nothing at the reset", async () => {
  await using box = await cronBox();
  const orch = await startReplay(box.server, await loadScreen(`${V}/ready@${SIZE}`), {
    session: "agents",
  });
  const panes = [orch];
  try {
    // The banner alone, and a whole saved limit screen (its input box and footer included).
    await Deno.writeTextFile(
      `${box.home}/banner.txt`,
      "You've hit your 5-hour limit · resets 6:34am (UTC)\n",
    );
    await Deno.copyFile(
      new URL(`../fixtures/${V}/session-limit@${SIZE}.txt`, import.meta.url),
      `${box.home}/saved.txt`,
    );
    for (const f of ["banner.txt", "saved.txt"]) {
      const screen = await bashCatScreen(box, `${box.home}/${f}`);
      assert.match(screen.text, /You've hit your 5-hour limit/);
      panes.push(await startReplay(box.server, screen, { session: "agents", newWindow: true }));
    }
    // Before the printed reset, and after it + margin.
    for (
      const t of [
        "2026-12-01T05:00:00.000Z",
        "2026-12-01T06:40:00.000Z",
        "2026-12-01T08:00:00.000Z",
      ]
    ) {
      const r = await tick(box, t);
      assert.equal(r.code, 0, r.stdout);
      assert.deepEqual(names(r.events), [], `${t}: no limit, no limit-menu, no unavailable CLI`);
    }
    for (const p of panes) assert.equal(await settled(p), "");
  } finally {
    for (const p of panes) await cleanupReplay(p);
  }
});
