/**
 * Issue 16, finding 2 on real tmux for `send`, `launch` and `drive`: with synchronize-panes on,
 * a key sent to one pane is typed into every synchronized pane of the window. drover refuses
 * (PANES_SYNCHRONIZED, exit 19) before any key; the replay doubles prove no pane got a byte.
 */
import assert from "node:assert/strict";
import { driveTick, drover, type DroverRun, envelope } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";
import { droverOn, fakeAgent, paneCount, windowCount } from "./launch_helpers.ts";

const V = "claude-code/2.1.197";

interface Rig extends AsyncDisposable {
  srv: TestServer;
  orch: ReplayPane;
  /** Two doubles side by side in window 1. */
  a: ReplayPane;
  b: ReplayPane;
  /** A double alone in window 2. */
  c: ReplayPane;
  tmp: string;
  all(): ReplayPane[];
}

async function rig(aScreen: string, cScreen = "typed-input"): Promise<Rig> {
  const srv = await startTestServer({ width: 80, height: 24 });
  const s = (n: string) => loadScreen(`${V}/${n}@80x24`);
  const orch = await startReplay(srv, await s("ready"), { session: "s" });
  const a = await startReplay(srv, await s(aScreen), { session: "s", newWindow: true });
  const b = await startReplay(srv, await s("ready"), { session: "s", newWindow: true });
  await srv.tmux("join-pane", "-d", "-h", "-s", b.paneId, "-t", a.paneId);
  await srv.tmux("resize-window", "-t", a.paneId, "-x", "161", "-y", "24");
  await srv.tmux("select-layout", "-t", a.paneId, "even-horizontal");
  await a.show(await s(aScreen));
  await b.show(await s("ready"));
  const c = await startReplay(srv, await s(cScreen), { session: "s", newWindow: true });
  for (const p of [orch, a, b, c]) {
    await srv.tmux("set-option", "-p", "-t", p.paneId, "@drover-cli", "claude");
  }
  const tmp = await Deno.makeTempDir({ prefix: "drover-sync-" });
  return {
    srv,
    orch,
    a,
    b,
    c,
    tmp,
    all: () => [orch, a, b, c],
    async [Symbol.asyncDispose]() {
      for (const p of [orch, a, b, c]) await cleanupReplay(p);
      await srv[Symbol.asyncDispose]();
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 400));

function events(run: DroverRun) {
  return run.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
}

Deno.test("send into a synchronized window: PANES_SYNCHRONIZED, exit 19, no byte in any pane", async () => {
  await using r = await rig("ready");
  await r.srv.tmux("set-option", "-w", "-t", r.a.paneId, "synchronize-panes", "on");
  const run = await drover(["-L", r.srv.name, "--json", "send", r.a.paneId, "hello"]);
  assert.equal(run.code, 19, run.stdout + run.stderr);
  assert.equal(envelope(run).error.code, "PANES_SYNCHRONIZED");
  assert.match(envelope(run).error.message, /synchronize-panes/);
  // Through the neighbour's own pane option only: the same window, still refused.
  await r.srv.tmux("set-option", "-w", "-t", r.a.paneId, "synchronize-panes", "off");
  await r.srv.tmux("set-option", "-p", "-t", r.b.paneId, "synchronize-panes", "on");
  const viaB = await drover(["-L", r.srv.name, "--json", "send", r.a.paneId, "hello"]);
  assert.equal(viaB.code, 19, viaB.stdout + viaB.stderr);
  await settle();
  for (const p of r.all()) assert.equal(await p.keys(), "", p.paneId);
});

Deno.test("drive leaves a synchronized window alone, drives the rest, and a --once tick exits 19", async () => {
  // Window 1 (synchronized): stranded input in a; window 2: stranded input in c.
  await using r = await rig("typed-input");
  await r.srv.tmux("set-option", "-w", "-t", r.a.paneId, "synchronize-panes", "on");
  const run = await driveTick(r.srv.name, "s", `${r.tmp}/state`, r.tmp);
  assert.equal(run.code, 19, run.stdout + run.stderr);
  const ev = events(run);
  const sync = ev.filter((e) => e.event === "escalated" && e.reason === "synchronized");
  assert.equal(sync.length, 1, run.stdout);
  const submitted = ev.filter((e) => e.event === "input-submitted").map((e) => e.pane);
  assert.deepEqual(submitted, [r.c.paneId]);
  const result = ev.find((e) => e.schema === "drover.drive.v1");
  assert.equal(result.data.outcome, "synchronized");
  await settle();
  assert.equal(await r.a.keys(), "");
  assert.equal(await r.b.keys(), "");
  assert.equal(await r.orch.keys(), "");
  assert.equal(await r.c.keys(), "\r");
});

Deno.test("launch refuses a split in a synchronized window, and any new window while the global option is on", async () => {
  await using r = await rig("ready");
  await using agent = await fakeAgent();
  await r.srv.tmux("set-option", "-w", "-t", r.a.paneId, "synchronize-panes", "on");
  const panes = await paneCount(r.srv);
  const windows = await windowCount(r.srv);
  const split = await droverOn(r.srv, agent, [
    "launch",
    "--cli",
    "fake",
    "--split",
    "right",
    "--anchor",
    r.a.paneId,
  ]);
  assert.equal(split.code, 19, split.stdout + split.stderr);
  assert.equal(envelope(split).error.code, "PANES_SYNCHRONIZED");
  await r.srv.tmux("set-option", "-g", "-w", "synchronize-panes", "on");
  const win = await droverOn(r.srv, agent, ["launch", "--cli", "fake", "--session", "s"]);
  assert.equal(win.code, 19, win.stdout + win.stderr);
  const ses = await droverOn(r.srv, agent, ["launch", "--cli", "fake", "--session", "fresh"]);
  assert.equal(ses.code, 19, ses.stdout + ses.stderr);
  assert.equal(await paneCount(r.srv), panes);
  assert.equal(await windowCount(r.srv), windows);
  // The unsynchronized case still launches.
  await r.srv.tmux("set-option", "-g", "-w", "synchronize-panes", "off");
  const ok = await droverOn(r.srv, agent, ["launch", "--cli", "fake", "--session", "s"]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  for (const p of r.all()) assert.equal(await p.keys(), "", p.paneId);
});

Deno.test("drive: no allowlisted approval and no nudge into a synchronized window (a pane-level option on a neighbour counts)", async () => {
  // a: a live allowlisted Bash prompt; b beside it has synchronize-panes on as a PANE option only.
  await using r = await rig("bash-prompt", "ready");
  await r.srv.tmux("set-option", "-p", "-t", r.b.paneId, "synchronize-panes", "on");
  // The orchestrator's window too: its nudge would be broadcast.
  await r.srv.tmux("set-option", "-w", "-t", r.orch.paneId, "synchronize-panes", "on");
  const tick = () =>
    driveTick(r.srv.name, "s", `${r.tmp}/state`, r.tmp, [
      "--approve",
      "allowlist",
      "--allow",
      // inline code: only an entry equal to the whole command approves it (issue 25)
      `node -e "console.log('build check ok: 3 files')"`,
      "--nudge",
      "Run your sweep now.",
      "--nudge-every",
      "2s",
      "--settle",
      "200ms",
    ]);
  const first = await tick();
  assert.equal(first.code, 19, first.stdout + first.stderr);
  await new Promise((res) => setTimeout(res, 2200));
  // Past the nudge interval: the nudge is due now, and still goes nowhere.
  const second = await tick();
  assert.equal(second.code, 19, second.stdout + second.stderr);
  for (const run of [first, second]) {
    const ev = events(run);
    assert.deepEqual(ev.filter((e) => ["approved", "nudge-sent"].includes(e.event)), []);
  }
  const sync = [...events(first), ...events(second)].filter((e) =>
    e.event === "escalated" && e.reason === "synchronized"
  );
  assert.ok(sync.length >= 2, first.stdout);
  await settle();
  for (const p of r.all()) assert.equal(await p.keys(), "", p.paneId);
  // Off again: the same tick approves the prompt with its one key.
  await r.srv.tmux("set-option", "-p", "-u", "-t", r.b.paneId, "synchronize-panes");
  await r.a.onKey("1", await loadScreen(`${V}/bash-answered@80x24`));
  const ok = await tick();
  assert.equal(events(ok).filter((e) => e.event === "approved").length, 1, ok.stdout);
  await settle();
  assert.equal(await r.a.keys(), "1");
  assert.equal(await r.orch.keys(), "");
  // And the orchestrator's window off: the nudge that was due all along is typed now.
  await r.srv.tmux("set-option", "-w", "-t", r.orch.paneId, "synchronize-panes", "off");
  const nudged = await tick();
  assert.equal(nudged.code, 0, nudged.stdout + nudged.stderr);
  assert.equal(events(nudged).filter((e) => e.event === "nudge-sent").length, 1, nudged.stdout);
  await settle();
  assert.equal(await r.orch.keys(), "Run your sweep now.\r");
  assert.equal(await r.b.keys(), "");
});
