/** lib/board: the live board's text, frames, state clocks and events tail (pure parts + a file). */
import assert from "node:assert/strict";
import { EventsTail, MAX_EVENT_LINE, parseEventLine } from "../../lib/board/events.ts";
import { ENTER, frameUpdate, LEAVE } from "../../lib/board/frame.ts";
import { type BoardInput, type BoardPane, clock, renderBoard } from "../../lib/board/render.ts";
import { age, trackStates } from "../../lib/board/since.ts";
import { cell, cellText, fit, width } from "../../lib/board/text.ts";

// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;
const visible = (line: string) => line.replace(SGR, "");

Deno.test("board text: columns, control characters, cutting", () => {
  assert.equal(width("abc"), 3);
  assert.equal(width("日本"), 4);
  assert.equal(width("e\u0301"), 1);
  assert.equal(cellText("a\x1b[2Jb\tc\nd\u009be"), "a?[2Jb c d?e");
  assert.equal(fit("abcdef", 4), "abc…");
  assert.equal(fit("abc", 4), "abc");
  assert.equal(fit("日本語", 4), "日…");
  assert.equal(cell("ab", 4), "ab  ");
  assert.equal(width(cell("日本語です", 5)), 5);
});

Deno.test("board since: a pane's clock restarts when its state changes; first sight is a lower bound", () => {
  const t0 = 1_000_000;
  const a = trackStates(undefined, [{ id: "%1", state: "idle" }], t0);
  assert.deepEqual(a.get("%1"), { state: "idle", since: t0, atLeast: true });
  const b = trackStates(a, [{ id: "%1", state: "idle" }, { id: "%2", state: "busy" }], t0 + 5000);
  assert.deepEqual(b.get("%1"), { state: "idle", since: t0, atLeast: true });
  assert.deepEqual(b.get("%2"), { state: "busy", since: t0 + 5000, atLeast: false });
  const c = trackStates(b, [{ id: "%1", state: "prompt" }], t0 + 9000);
  assert.deepEqual(c.get("%1"), { state: "prompt", since: t0 + 9000, atLeast: false });
  assert.equal(c.has("%2"), false, "a pane that went away is forgotten");
  assert.deepEqual(
    [0, 45_000, 252_000, 2 * 3_600_000 + 5 * 60_000, 3 * 86_400_000 + 4 * 3_600_000].map(age),
    ["0s", "45s", "4m12s", "2h05m", "3d04h"],
  );
});

const NOW = Date.parse("2026-03-01T12:00:00Z");

function pane(over: Partial<BoardPane>): BoardPane {
  return {
    id: "%1",
    target: "agents:0.0",
    cli: "claude",
    role: "agent",
    state: "idle",
    mode: "interactive",
    title: "claude",
    command: null,
    reason: null,
    ...over,
  };
}

function input(over: Partial<BoardInput>): BoardInput {
  const panes = over.panes ?? [
    pane({ id: "%1", target: "agents:0.0", role: "orchestrator" }),
    pane({ id: "%2", target: "agents:1.0", state: "prompt", command: "npm run build" }),
    pane({ id: "%3", target: "agents:2.0", state: "unavailable", reason: "usage limit reached" }),
  ];
  return {
    panes,
    since: new Map(panes.map((p, i) => [p.id, {
      state: p.state,
      since: NOW - (i + 1) * 61_000,
      atLeast: i === 0,
    }])),
    now: NOW,
    cols: 100,
    rows: 12,
    color: false,
    scope: "session agents",
    intervalMs: 2000,
    error: null,
    ...over,
  };
}

Deno.test("board render: what a person reads — state, how long, the prompt's command, the reason", () => {
  const lines = renderBoard(input({}));
  assert.equal(lines.length, 12);
  assert.match(
    lines[0]!,
    /^drover panes · session agents · 3 panes · every 2s · \d\d:\d\d:\d\d +q quit$/,
  );
  assert.match(lines[1]!, /^PANE +TARGET +CLI +ROLE +STATE +FOR +MODE +DETAIL/);
  assert.match(lines[2]!, /^%1 +agents:0\.0 +claude +orch +idle +≥1m01s +interactive +claude$/);
  assert.match(
    lines[3]!,
    /^%2 +agents:1\.0 +claude +agent +prompt +2m02s +interactive +\$ npm run build$/,
  );
  assert.match(lines[4]!, /unavailable +3m03s +interactive +usage limit reached$/);
  for (const l of lines) assert.ok(width(l) <= 99, `too wide: ${l}`);
});

Deno.test("board render: colours only on the state, the header and dim details; never wider than the terminal", () => {
  const hostile = pane({ id: "%9", title: "\x1b]0;owned\x07\x1b[2J evil", state: "busy" });
  for (const cols of [100, 60, 30, 12]) {
    const lines = renderBoard(input({
      cols,
      color: true,
      panes: [...input({}).panes, hostile],
    }));
    for (const l of lines) {
      assert.ok(width(visible(l)) <= cols - 1, `${cols} cols: ${JSON.stringify(l)}`);
      // The only escapes on a line are the board's own SGR codes.
      assert.ok(!visible(l).includes("\x1b"), JSON.stringify(l));
    }
  }
  const lines = renderBoard(input({ color: true }));
  assert.ok(lines[3]!.includes("\x1b[1;33mprompt"), JSON.stringify(lines[3]));
  assert.ok(lines[4]!.includes("\x1b[1;31munavailable"), JSON.stringify(lines[4]));
  assert.ok(lines[2]!.includes("\x1b[32midle"), JSON.stringify(lines[2]));
  assert.ok(lines[0]!.startsWith("\x1b[1m"));
});

Deno.test("board render: the last drive event under each pane, the newest in the status line", () => {
  const e = (pane: string, event: string, message: string, ts: string) => ({
    ts,
    event,
    message,
    pane,
  });
  const approved = e("%2", "approved", "approved npm run build", "2026-03-01T11:59:30Z");
  const lines = renderBoard(input({
    rows: 12,
    events: {
      file: "/s/agents.events.jsonl",
      byPane: new Map([["%2", approved]]),
      latest: approved,
      note: null,
      skipped: 0,
    },
  }));
  assert.match(lines[3]!, /^ +↳ no drive event yet$/);
  assert.match(
    lines[5]!,
    new RegExp(`^ +↳ ${clock(Date.parse(approved.ts))} approved: approved npm run build$`),
  );
  assert.match(
    lines[11]!,
    /^events: \/s\/agents\.events\.jsonl · last \d\d:\d\d:\d\d approved \(30s ago\)$/,
  );
  const none = renderBoard(input({
    events: {
      file: "x.jsonl",
      byPane: new Map(),
      latest: null,
      note: "no events file yet",
      skipped: 0,
    },
  }));
  assert.equal(none.at(-1), "events: x.jsonl: no events file yet");
});

Deno.test("board render: too many panes for the terminal, no panes, a failed refresh", () => {
  const many = Array.from({ length: 30 }, (_, i) => pane({ id: `%${i}`, target: `a:${i}.0` }));
  const lines = renderBoard(input({ panes: many, rows: 10 }));
  assert.equal(lines.length, 10);
  assert.match(lines.join("\n"), /… 24 more panes/);
  assert.match(renderBoard(input({ panes: [] })).join("\n"), /no panes/);
  const failed = renderBoard(input({ error: "no server running on /tmp/tmux-0/default" }));
  assert.equal(failed.at(-1), "refresh failed: no server running on /tmp/tmux-0/default");
});

Deno.test("board frames: the first draws everything, later ones only the changed lines, in one string", () => {
  assert.ok(ENTER.includes("\x1b[?1049h") && ENTER.includes("\x1b[?25l"));
  assert.ok(LEAVE.includes("\x1b[?1049l") && LEAVE.includes("\x1b[?25h"));
  const a = ["head", "row 1", "row 2", "status"];
  const first = frameUpdate(null, a);
  assert.ok(first.startsWith("\x1b[0m\x1b[H\x1b[2J"));
  for (const [i, l] of a.entries()) assert.ok(first.includes(`\x1b[${i + 1};1H${l}\x1b[0m\x1b[K`));
  assert.equal(frameUpdate(a, a), "", "nothing changed, nothing written");
  const b = ["head", "row 1*", "row 2", "status"];
  assert.equal(frameUpdate(a, b), "\x1b[2;1Hrow 1*\x1b[0m\x1b[K");
  // A shorter frame clears the rows it no longer uses.
  assert.equal(frameUpdate(a, ["head", "row 1", "row 2"]), "\x1b[4;1H\x1b[0m\x1b[K");
});

Deno.test("board events: parse drover.event.v1 lines only", () => {
  assert.deepEqual(
    parseEventLine(
      '{"schema":"drover.event.v1","ts":"2026-03-01T12:00:00Z","session":"a","event":"approved","pane":"%2","target":"a:1.0","message":"ok"}',
    ),
    { ts: "2026-03-01T12:00:00Z", event: "approved", message: "ok", pane: "%2", target: "a:1.0" },
  );
  assert.equal(parseEventLine("not json"), null);
  assert.equal(parseEventLine('{"schema":"drover.drive.v1","ts":"x","event":"y"}'), null);
  assert.equal(parseEventLine("[1,2]"), null);
});

Deno.test("board events: the tail reads only what was appended, waits for a whole line, survives truncation", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drover-board-" });
  const file = `${dir}/agents.events.jsonl`;
  const line = (pane: string, event: string, n: number) =>
    JSON.stringify({
      schema: "drover.event.v1",
      ts: `2026-03-01T12:00:${String(n).padStart(2, "0")}Z`,
      session: "agents",
      event,
      pane,
      message: `${event} ${n}`,
    }) + "\n";
  try {
    const tail = new EventsTail(file, { backlog: 400 });
    assert.equal((await tail.poll()).note, "no events file yet");
    // Much more history than the backlog: only the newest ~400 bytes are read.
    let history = "";
    for (let n = 0; n < 40; n++) history += line(`%${n % 3}`, "escalated", n);
    history += "garbage that is not json\n";
    await Deno.writeTextFile(file, history);
    const v1 = await tail.poll();
    assert.equal(v1.note, null);
    assert.equal(v1.latest?.message, "escalated 39");
    assert.equal(v1.byPane.get("%0")?.message, "escalated 39");
    assert.equal(v1.byPane.get("%2")?.message, "escalated 38");
    assert.ok(v1.byPane.size <= 3);
    // Half a line appended: not yet an event.
    const next = line("%1", "approved", 41);
    await Deno.writeTextFile(file, next.slice(0, 20), { append: true });
    assert.equal((await tail.poll()).byPane.get("%1"), undefined, "older than the backlog");
    await Deno.writeTextFile(file, next.slice(20), { append: true });
    assert.equal((await tail.poll()).byPane.get("%1")?.message, "approved 41");
    // Rotated (truncated and rewritten): read from the new start.
    await Deno.writeTextFile(file, line("%5", "nudged", 50));
    const v3 = await tail.poll();
    assert.equal(v3.byPane.get("%5")?.message, "nudged 50");
    assert.equal(v3.latest?.message, "nudged 50");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Issue 27, item 4: output that cannot be abused.

/** Right-to-left and other bidi controls, zero-width and tag characters: all invisible. */
const BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c";

Deno.test("board text: one sanitiser — bidi controls and invisible format characters are removed", () => {
  assert.equal(cellText(`evil\u202etxt.exe${BIDI}!`), "eviltxt.exe!");
  assert.equal(cellText("a\u200bb\ufeffc\u2060d\u{e0041}e"), "abcde", "zero-width, BOM, tags");
  assert.equal(cellText("a\u2028b\u2029c"), "a b c");
  // Joiners stay: scripts and emoji sequences need them.
  assert.equal(cellText("👩\u200d💻 \u0646\u200c\u0627"), "👩\u200d💻 \u0646\u200c\u0627");
  assert.equal(cellText("lone \ud800 surrogate"), "lone \ufffd surrogate");
  // Idempotent: sanitised text sanitises to itself.
  const once = cellText(`x\x1b[2J\u202e\t${BIDI}y`);
  assert.equal(cellText(once), once);
});

Deno.test("board render: every field of an event goes through the sanitiser; a bad ts never prints NaN", () => {
  const hostile = {
    ts: "not-a-date",
    event: "approved\u001b[?1049l\u001b[2J\u202e",
    message: "ok\u001b]0;owned\u0007",
    pane: "%2",
  };
  const lines = renderBoard(input({
    rows: 12,
    events: {
      file: "/s/ev\u202e.jsonl",
      byPane: new Map([["%2", hostile]]),
      latest: hostile,
      note: null,
      skipped: 0,
    },
  }));
  const all = lines.join("\n");
  assert.ok(!all.includes("\x1b"), JSON.stringify(all));
  assert.ok(!/NaN/.test(all), all);
  assert.ok(![...BIDI].some((c) => all.includes(c)), "no bidi control");
  assert.match(lines[5]!, /^ +↳ --:--:-- approved\?\[\?1049l\?\[2J: ok\?\]0;owned\?$/);
  assert.match(lines[11]!, /^events: \/s\/ev\.jsonl · last --:--:-- approved\?\[\?1049l/);
  assert.doesNotMatch(lines[11]!, /ago/, "no age for a time that is not one");
  assert.equal(clock(NaN), "--:--:--");
});

Deno.test("board render: a title is cut to its column and cleaned of bidi controls", () => {
  const long = pane({ id: "%4", title: `\u202e${"T".repeat(25_000)}` });
  for (const cols of [100, 72]) {
    const lines = renderBoard(input({ cols, panes: [long] }));
    const row = lines.find((l) => l.startsWith("%4 "))!;
    assert.ok(width(row) <= cols - 1, `${cols}: ${row.length}`);
    assert.ok(row.endsWith("T…"), row);
    assert.ok(!row.includes("\u202e"));
  }
});

/** `n` bytes of one event line that never ends. */
async function appendLong(file: string, n: number): Promise<void> {
  await Deno.writeTextFile(file, '{"schema":"drover.event.v1","message":"' + "x".repeat(n - 40), {
    append: true,
  });
}

Deno.test("board events: a line past 64 KiB without its newline is dropped, counted once, memory stays bounded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drover-board-" });
  const file = `${dir}/agents.events.jsonl`;
  const event = (message: string) =>
    JSON.stringify({
      schema: "drover.event.v1",
      ts: "2026-03-01T12:00:00Z",
      session: "agents",
      event: "approved",
      pane: "%1",
      message,
    }) + "\n";
  try {
    await Deno.writeTextFile(file, event("first"));
    const tail = new EventsTail(file);
    assert.equal((await tail.poll()).latest?.message, "first");
    // 27 MB without a newline, arriving in pieces the tail reads one poll at a time.
    for (let i = 0; i < 27; i++) {
      await appendLong(file, 1_000_000);
      const v = await tail.poll();
      assert.ok(
        tail.bufferedBytes <= MAX_EVENT_LINE,
        `poll ${i}: ${tail.bufferedBytes} bytes held`,
      );
      assert.equal(v.skipped, 1, `poll ${i}: counted once`);
      assert.equal(v.latest?.message, "first");
    }
    // The long line ends; the next one is read as usual.
    await Deno.writeTextFile(file, `"}\n${event("after")}`, { append: true });
    const after = await tail.poll();
    assert.equal(after.latest?.message, "after");
    assert.equal(after.skipped, 1);
    assert.equal(tail.bufferedBytes, 0);
    // A complete line that long, arriving at once, is skipped the same way.
    await Deno.writeTextFile(file, event("y".repeat(70_000)) + event("last"), { append: true });
    const v = await tail.poll();
    assert.equal(v.latest?.message, "last");
    assert.equal(v.skipped, 2);
    const lines = renderBoard(input({ rows: 12, events: { ...v, file: "f.jsonl" } }));
    assert.match(lines.at(-1)!, /· 2 lines over 64 KiB skipped$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("board events: the memory a real process holds after 27 MB without a newline", async () => {
  // Measured in a process of its own, polling as the board does, after a full GC: V8's external
  // memory (where byte buffers live) and the RSS. Keeping the line held 52 MiB external here.
  const dir = await Deno.makeTempDir({ prefix: "drover-board-rss-" });
  try {
    const script = `${dir}/tail.ts`;
    const events = new URL("../../lib/board/events.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { EventsTail } from "${events}";
const file = Deno.args[0];
await Deno.writeTextFile(file, "");
const tail = new EventsTail(file);
await tail.poll();
const gc = (globalThis as unknown as { gc: () => void }).gc;
gc();
const before = Deno.memoryUsage();
const piece = new TextEncoder().encode('{"schema":"drover.event.v1","message":"' + "x".repeat(1_000_000));
using f = await Deno.open(file, { append: true });
for (let i = 0; i < 27; i++) {
  await f.write(piece);
  await tail.poll();
}
gc();
const after = Deno.memoryUsage();
console.log(JSON.stringify({
  external: after.external - before.external,
  rss: after.rss - before.rss,
  held: tail.bufferedBytes,
}));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", "--v8-flags=--expose-gc", script, `${dir}/ev.jsonl`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const r = JSON.parse(new TextDecoder().decode(out.stdout));
    const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(
      `27 MB without a newline: the tail holds ${r.held} bytes; external memory grew ` +
        `${mib(r.external)} MiB, RSS ${mib(r.rss)} MiB`,
    );
    assert.ok(r.held <= MAX_EVENT_LINE);
    assert.ok(r.external < 16 * 1024 * 1024, `external memory grew ${r.external} bytes`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
