/**
 * Issue 16 on real tmux, `drover approve`: the follow-up Enter is earned (finding 2) and no key is
 * ever broadcast into a synchronized window (finding 3). Replay doubles show recorded real Claude
 * Code screens (or screens derived from their lines, said so where it happens) and record every
 * byte they receive.
 */
import assert from "node:assert/strict";
import { driveTick, drover, envelope } from "../helpers/drover.ts";
import {
  cleanupReplay,
  loadScreen,
  plainFixture,
  type ReplayPane,
  type Screen,
  startReplay,
} from "../helpers/replay.ts";
import { paneOption, startTestServer, type TestServer } from "../helpers/tmux_server.ts";

const V = "claude-code/2.1.197";
const SIZE = "120x40";

async function screen(name: string): Promise<Screen> {
  return await loadScreen(`${V}/${name}@${SIZE}`);
}

async function lines(name: string): Promise<string[]> {
  return (await plainFixture(`${V}/${name}@${SIZE}`)).replace(/\n$/, "").split("\n");
}

function plainScreen(ls: string[]): Screen {
  const [cols, rows] = SIZE.split("x").map(Number);
  const padded = [...ls, ...Array(Math.max(0, rows - ls.length)).fill("")];
  return { text: padded.join("\n") + "\n", cols, rows };
}

/** The recorded ready screen with `typed` in its input line (derived: only that line changes). */
async function readyTyped(typed: string): Promise<Screen> {
  const ls = await lines("ready");
  const i = ls.findIndex((l) => /^❯\u00a0 $/.test(l));
  if (i < 0) throw new Error("ready fixture has no empty input line");
  ls[i] = `❯\u00a0${typed}`;
  return plainScreen(ls);
}

/**
 * Derived from recorded lines: the ready screen's input box (rule, `❯`, rule) drawn ABOVE the
 * recorded Bash prompt — a layout in which the prompt is live and an input box is on screen, so
 * the gate passes and the only thing that can stop a wrong Enter is looking where the `1` went.
 */
async function boxAbovePrompt(typed: string): Promise<Screen> {
  const ready = await lines("ready");
  const prompt = await lines("bash-prompt");
  const box = ready.findIndex((l) => /^❯\u00a0 $/.test(l));
  const top = prompt.findIndex((l, i) =>
    /^─{3,}$/.test(l.trim()) && prompt[i + 1]?.trim() === "Bash command"
  );
  const last = prompt.findIndex((l) => l.includes("Esc to cancel"));
  return plainScreen([
    ...ready.slice(0, box - 1),
    ready[box - 1],
    `❯\u00a0${typed}`,
    ...prompt.slice(top, last + 1),
  ]);
}

interface Rig extends AsyncDisposable {
  srv: TestServer;
  orch: ReplayPane;
  agent: ReplayPane;
  other: ReplayPane;
  runtime: string;
  approve(target: string): Promise<{ code: number; out: ReturnType<typeof envelope> }>;
}

/** Session "agents": window 0 the orchestrator; window 1 the agent and a second pane beside it. */
async function rig(agentScreen: Screen): Promise<Rig> {
  const srv = await startTestServer();
  const orch = await startReplay(srv, await screen("ready"), { session: "agents" });
  const agent = await startReplay(srv, agentScreen, { session: "agents", newWindow: true });
  // A second double in the agent's window (split): the pane a broadcast would also reach.
  const other = await startReplay(srv, await screen("ready"), {
    session: "agents",
    newWindow: true,
  });
  await srv.tmux("join-pane", "-d", "-h", "-s", other.paneId, "-t", agent.paneId);
  // Side by side at full size each, then redraw both screens at that size.
  await srv.tmux(
    "resize-window",
    "-t",
    agent.paneId,
    "-x",
    String(agentScreen.cols * 2 + 1),
    "-y",
    String(agentScreen.rows),
  );
  await srv.tmux("select-layout", "-t", agent.paneId, "even-horizontal");
  await agent.show(agentScreen);
  await other.show(await screen("ready"));
  for (const p of [orch, agent, other]) {
    await srv.tmux("set-option", "-p", "-t", p.paneId, "@drover-cli", "claude");
  }
  const runtime = await Deno.makeTempDir({ prefix: "drover-approve-safety-" });
  return {
    srv,
    orch,
    agent,
    other,
    runtime,
    async approve(target) {
      const r = await drover(["-L", srv.name, "--json", "approve", target], {
        env: { XDG_RUNTIME_DIR: runtime },
      });
      return { code: r.code, out: envelope(r) };
    },
    async [Symbol.asyncDispose]() {
      for (const p of [orch, agent, other]) await cleanupReplay(p);
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
      await srv[Symbol.asyncDispose]();
    },
  };
}

Deno.test("approve: a 1 that lands in an input box is reported (exit 20) and no Enter follows", async () => {
  // The CLI took the digit as typing: the prompt went away and "1" sits in the input line.
  await using r = await rig(await screen("bash-prompt"));
  await r.agent.onKey("1", await readyTyped("1"));
  const res = await r.approve(r.agent.paneId);
  assert.equal(res.code, 20, JSON.stringify(res.out));
  assert.equal(res.out.data.outcome, "key-in-input");
  assert.equal(res.out.data.reason, "key-in-input");
  assert.deepEqual(res.out.data.sent, ["1"]);
  assert.equal(await r.agent.settled(), "1");
});

Deno.test("approve: the Enter is earned — same live modal but a 1 in an input box gets no Enter", async () => {
  // The prompt stays live with option 1 selected (the case that used to earn the Enter), but the
  // digit showed up in the input box above it: an Enter would send "1" as a message.
  await using r = await rig(await boxAbovePrompt(""));
  await r.agent.onKey("1", await boxAbovePrompt("1"));
  const res = await r.approve(r.agent.paneId);
  assert.equal(res.code, 20, JSON.stringify(res.out));
  assert.equal(res.out.data.outcome, "key-in-input");
  assert.equal(res.out.data.after.same_prompt, true);
  assert.equal(await r.agent.settled(), "1");
});

Deno.test("approve: the same live modal with no 1 in an input box still earns its one Enter", async () => {
  await using r = await rig(await boxAbovePrompt(""));
  const res = await r.approve(r.agent.paneId);
  assert.equal(res.code, 17, JSON.stringify(res.out));
  assert.deepEqual(res.out.data.sent, ["1", "Enter"]);
  assert.equal(await r.agent.settled(), "1\r");
});

Deno.test("approve: no key into a synchronized window — refusal synchronized, exit 19, no pane gets anything", async () => {
  await using r = await rig(await screen("bash-prompt"));
  await r.agent.onKey("1", await screen("bash-answered"));
  await r.srv.tmux("set-option", "-w", "-t", r.agent.paneId, "synchronize-panes", "on");
  const res = await r.approve(r.agent.paneId);
  assert.equal(res.code, 19, JSON.stringify(res.out));
  assert.equal(res.out.data.outcome, "refused");
  assert.equal(res.out.data.reason, "synchronized");
  assert.deepEqual(res.out.data.sent, []);
  const dry = await drover(["-L", r.srv.name, "--json", "approve", "--dry-run", r.agent.paneId], {
    env: { XDG_RUNTIME_DIR: r.runtime },
  });
  assert.equal(dry.code, 19);
  // Synchronized through the other pane's own option only: still the same window, still refused.
  await r.srv.tmux("set-option", "-w", "-t", r.agent.paneId, "synchronize-panes", "off");
  await r.srv.tmux("set-option", "-p", "-t", r.other.paneId, "synchronize-panes", "on");
  const viaOther = await r.approve(r.agent.paneId);
  assert.equal(viaOther.code, 19, JSON.stringify(viaOther.out));
  for (const p of [r.agent, r.other, r.orch]) assert.equal(await p.settled(), "", p.paneId);
  // Off again: the same prompt is approved with exactly "1".
  await r.srv.tmux("set-option", "-p", "-u", "-t", r.other.paneId, "synchronize-panes");
  const ok = await r.approve(r.agent.paneId);
  assert.equal(ok.code, 0, JSON.stringify(ok.out));
  assert.equal(await r.agent.settled(), "1");
  assert.equal(await r.other.settled(), "");
});

Deno.test("drive: a 1 that lands in an input box gets no Enter — not from the approval, nor later as stranded input", async () => {
  await using r = await rig(await screen("bash-prompt"));
  await r.agent.onKey("1", await readyTyped("1"));
  const state = `${r.runtime}/state`;
  const tick = () =>
    driveTick(r.srv.name, "agents", state, r.runtime, [
      "--approve",
      "allowlist",
      "--allow",
      // inline code: only an entry equal to the whole command approves it (issue 25)
      `node -e "console.log('build check ok: 3 files')"`,
    ]);
  const first = await tick();
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const ev = first.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  const refused = ev.find((e) => e.event === "approve-refused");
  assert.ok(refused, first.stdout);
  assert.match(refused.message, /key-in-input|input/);
  assert.equal(await r.agent.settled(), "1");
  // The next ticks see "1" typed in the input box: the gate's own mistake, never submitted.
  for (let i = 0; i < 2; i++) {
    const next = await tick();
    assert.equal(next.code, 0, next.stdout + next.stderr);
    assert.doesNotMatch(next.stdout, /"event":"input-submitted"/, next.stdout);
    // Said once (per dedup window), with its own reason.
    if (i === 0) assert.match(next.stdout, /"reason":"key-in-input"/, next.stdout);
  }
  assert.equal(await r.agent.settled(), "1");
  assert.equal(await r.other.settled(), "");
  assert.equal(await r.orch.settled(), "");
});

Deno.test("drover approve's stray 1 is marked on the pane: a later drive tick never submits it, and forgets it once cleared", async () => {
  await using r = await rig(await screen("bash-prompt"));
  await r.agent.onKey("1", await readyTyped("1"));
  const res = await r.approve(r.agent.paneId);
  assert.equal(res.code, 20, JSON.stringify(res.out));
  const mark = await paneOption(r.srv, r.agent.paneId, "@drover-stray-key");
  assert.equal(mark, "1");
  const tick = () => driveTick(r.srv.name, "agents", `${r.runtime}/state`, r.runtime);
  const run = await tick();
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.doesNotMatch(run.stdout, /"event":"input-submitted"/, run.stdout);
  assert.match(run.stdout, /"reason":"key-in-input"/, run.stdout);
  assert.equal(await r.agent.settled(), "1");
  // Cleared by hand, then a person types something else: that is stranded input as usual.
  await r.agent.show(await readyTyped("fix the tests"));
  const later = await tick();
  assert.match(later.stdout, /"event":"input-submitted"/, later.stdout);
  assert.equal(await r.agent.settled(), "1\r");
  const cleared = await paneOption(r.srv, r.agent.paneId, "@drover-stray-key");
  assert.equal(cleared, "");
});
