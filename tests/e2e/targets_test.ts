/**
 * Issue 16, finding 3 on real tmux: session names resolve exactly. tmux matches `-t d` against a
 * session named "drv" (prefix) and `-t =d` against a WINDOW named "d" in another session; drover
 * and sweep.sh must touch neither when told `d`. Replay doubles record every byte they get.
 */
import assert from "node:assert/strict";
import { drover, droverCommand, envelope, REPO_ROOT } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";
import { droverOn, fakeAgent } from "./launch_helpers.ts";

const V = "claude-code/2.1.197";
const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

interface Rig extends AsyncDisposable {
  srv: TestServer;
  panes: ReplayPane[];
  tmp: string;
  /** A session: window 0 = the ready orchestrator, window 1 = stranded typed input. */
  session(name: string): Promise<{ orch: ReplayPane; agent: ReplayPane }>;
  drive(session: string): Promise<{ code: number; stdout: string; stderr: string }>;
}

async function rig(): Promise<Rig> {
  const srv = await startTestServer({ width: 80, height: 24 });
  const s = (n: string) => loadScreen(`${V}/${n}@80x24`);
  const panes: ReplayPane[] = [];
  const tmp = await Deno.makeTempDir({ prefix: "drover-targets-" });
  return {
    srv,
    panes,
    tmp,
    async session(name) {
      const orch = await startReplay(srv, await s("ready"), { session: name });
      const agent = await startReplay(srv, await s("typed-input"), {
        session: name,
        newWindow: true,
      });
      for (const p of [orch, agent]) {
        await srv.tmux("set-option", "-p", "-t", p.paneId, "@drover-cli", "claude");
      }
      panes.push(orch, agent);
      return { orch, agent };
    },
    async drive(session) {
      const r = await drover([
        "-L",
        srv.name,
        "drive",
        "--session",
        session,
        "--once",
        "--json",
        "--state",
        `${tmp}/state`,
      ], { env: { XDG_RUNTIME_DIR: tmp } });
      await new Promise((res) => setTimeout(res, 400));
      return r;
    },
    async [Symbol.asyncDispose]() {
      for (const p of panes) await cleanupReplay(p);
      await srv[Symbol.asyncDispose]();
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    },
  };
}

Deno.test("exact sessions: --session d never touches drv, nor a window named d elsewhere", async () => {
  await using r = await rig();
  const drv = await r.session("drv");
  const xd = await r.session("xd");
  // In session "xd" a window NAMED "d": what tmux's `-t =d` picks as a window target.
  await r.srv.tmux("rename-window", "-t", xd.agent.paneId, "d");
  const untouched = async () => {
    for (const p of [drv.orch, drv.agent, xd.orch, xd.agent]) {
      assert.equal(await p.keys(), "", `${p.paneId} got a key`);
    }
  };

  // No session "d" at all: nothing to drive.
  const none = await r.drive("d");
  assert.equal(none.code, 69, none.stdout + none.stderr);
  await untouched();
  const panes = await drover(["-L", r.srv.name, "--json", "panes", "--session", "d"]);
  assert.equal(panes.code, 4, panes.stdout);
  assert.equal(envelope(panes).error.code, "TARGET_NOT_FOUND");

  // sweep.sh --session d: the same answer, no pane of drv listed or touched.
  const [exe, pre] = droverCommand();
  await Deno.mkdir(`${r.tmp}/bin`);
  const bin = `${r.tmp}/bin/drover`;
  await Deno.writeTextFile(bin, `#!/bin/sh\nexec ${[exe, ...pre].map(q).join(" ")} "$@"\n`);
  await Deno.chmod(bin, 0o755);
  const sweep = await new Deno.Command("bash", {
    args: [`${REPO_ROOT}sweep/sweep.sh`, "-L", r.srv.name, "--session", "d", "snapshot"],
    env: { DROVER: bin, XDG_RUNTIME_DIR: r.tmp },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const sweepOut = new TextDecoder().decode(sweep.stdout);
  assert.notEqual(sweep.code, 0);
  assert.doesNotMatch(sweepOut, /drv:|xd:/);

  // With a real "d": only d is driven (its stranded input gets the one Enter).
  const d = await r.session("d");
  const run = await r.drive("d");
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(await d.agent.keys(), "\r");
  assert.equal(await d.orch.keys(), "");
  await untouched();
  // The state and lock of "d" are its own: drv's drive is not locked out, and drives drv only.
  const other = await r.drive("drv");
  assert.equal(other.code, 0, other.stdout + other.stderr);
  assert.equal(await drv.agent.keys(), "\r");
  assert.equal(await xd.agent.keys(), "");
  assert.equal(await d.agent.keys(), "\r");

  // approve and launch resolve "d" exactly too.
  const approve = await drover(["-L", r.srv.name, "--json", "approve", "d:1.0"], {
    env: { XDG_RUNTIME_DIR: r.tmp },
  });
  assert.equal(envelope(approve).data.target, "d:1.0");
  await using agent = await fakeAgent();
  const launched = await droverOn(r.srv, agent, ["launch", "--cli", "fake", "--session", "d"]);
  assert.equal(launched.code, 0, launched.stdout + launched.stderr);
  assert.equal(envelope(launched).data.session.name, "d");
  const drvWindows = await r.srv.tmux("list-windows", "-t", "=drv:", "-F", "#{window_id}");
  assert.equal(drvWindows.trim().split("\n").length, 2);
});

Deno.test("exact targets in every command: with only drv (and a window named d), d:… is not found and nothing is touched", async () => {
  await using r = await rig();
  const drv = await r.session("drv");
  const xd = await r.session("xd");
  await r.srv.tmux("rename-window", "-t", xd.agent.paneId, "d");
  // drv's window 1 shows a live Bash prompt: what a prefix match would approve or type into.
  await drv.agent.show(await loadScreen(`${V}/bash-prompt@80x24`));
  await drv.agent.onKey("1", await loadScreen(`${V}/bash-answered@80x24`));
  const env = { XDG_RUNTIME_DIR: r.tmp };
  const [exe, pre] = droverCommand();
  await Deno.mkdir(`${r.tmp}/bin`);
  const bin = `${r.tmp}/bin/drover`;
  await Deno.writeTextFile(bin, `#!/bin/sh\nexec ${[exe, ...pre].map(q).join(" ")} "$@"\n`);
  await Deno.chmod(bin, 0o755);
  const sweep = async (args: string[]) => {
    const out = await new Deno.Command("bash", {
      args: [`${REPO_ROOT}sweep/sweep.sh`, "-L", r.srv.name, ...args],
      env: { DROVER: bin, XDG_RUNTIME_DIR: r.tmp, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
  };
  const wrong: string[] = [];
  // A pane id that does not exist (%1 exists; %19x does not, and is no prefix of anything).
  const missingId = `%${Number(xd.agent.paneId.slice(1)) + 100}`;
  const runs: [string, string[]][] = [
    ["approve", ["approve", "d:1.0"]],
    ["approve --dry-run", ["approve", "--dry-run", "d:1.0"]],
    ["send", ["send", "d:1.0", "1"]],
    ["capture", ["capture", "d:1.0"]],
    ["read", ["read", "d:1.0"]],
    ["wait", ["wait", "d:1.0", "--until", "prompt", "--timeout", "1"]],
    ["launch --anchor", ["launch", "--cli", "claude", "--split", "right", "--anchor", "d:1.0"]],
    ["drive --orchestrator", ["drive", "--session", "drv", "--once", "--orchestrator", "d:0.0"]],
    ["approve missing id", ["approve", missingId]],
    ["send missing id", ["send", missingId, "1"]],
  ];
  for (const [what, args] of runs) {
    const run = await drover([
      "-L",
      r.srv.name,
      "--json",
      ...args,
      ...(
        args[0] === "drive" ? ["--state", `${r.tmp}/state`] : []
      ),
    ], { env });
    const err = run.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
      .find((e) => e.ok === false)?.error;
    if (run.code !== 4 || err?.code !== "TARGET_NOT_FOUND") {
      wrong.push(`${what}: exit ${run.code} ${run.stdout.slice(0, 300)}`);
    }
  }
  for (const args of [["approve", "d:1.0"], ["capture", "d:1.0"], ["approve", missingId]]) {
    const s = await sweep(args);
    if (s.code !== 4) wrong.push(`sweep.sh ${args.join(" ")}: exit ${s.code} ${s.stdout}`);
  }
  await new Promise((res) => setTimeout(res, 400));
  for (const p of [drv.orch, drv.agent, xd.orch, xd.agent]) {
    const k = await p.keys();
    if (k !== "") wrong.push(`${p.paneId} got ${JSON.stringify(k)}`);
  }
  const windows = await r.srv.tmux("list-windows", "-a", "-F", "#{session_name}:#{window_index}");
  assert.equal(windows.trim().split("\n").filter((l) => !l.startsWith("holder")).length, 4);
  assert.deepEqual(wrong, []);
  // The same commands on the exact names reach the right pane: approve answers drv's prompt.
  const ok = await drover(["-L", r.srv.name, "--json", "approve", "drv:1.0"], { env });
  assert.equal(ok.code, 0, ok.stdout);
  await new Promise((res) => setTimeout(res, 300));
  assert.equal(await drv.agent.keys(), "1");
});
