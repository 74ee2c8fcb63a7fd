/**
 * Issue 16 for sweep.sh's own approve gate on real tmux: the Enter is earned (a "1" that lands in
 * an input line is reported with exit 20, nothing more sent), no key into a synchronized window
 * (exit 19), and session names resolve exactly.
 */
import assert from "node:assert/strict";
import { drover, droverCommand, REPO_ROOT } from "../helpers/drover.ts";
import {
  cleanupReplay,
  loadScreen,
  plainFixture,
  type ReplayPane,
  type Screen,
  startReplay,
} from "../helpers/replay.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";

const SWEEP = `${REPO_ROOT}sweep/sweep.sh`;
const V = "claude-code/2.1.197";
const SIZE = "120x40";

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

async function screen(name: string): Promise<Screen> {
  return await loadScreen(`${V}/${name}@${SIZE}`);
}

/** The recorded ready screen with `typed` in its input line (derived: only that line changes). */
async function readyTyped(typed: string): Promise<Screen> {
  const ls = (await plainFixture(`${V}/ready@${SIZE}`)).replace(/\n$/, "").split("\n");
  const i = ls.findIndex((l) => /^❯\u00a0 $/.test(l));
  if (i < 0) throw new Error("ready fixture has no empty input line");
  ls[i] = `❯\u00a0${typed}`;
  return { text: ls.join("\n") + "\n", cols: 120, rows: 40 };
}

interface Rig extends AsyncDisposable {
  srv: TestServer;
  agent: ReplayPane;
  others: ReplayPane[];
  sweep(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

async function rig(agentScreen: Screen, session = "agents"): Promise<Rig> {
  const srv = await startTestServer();
  const orch = await startReplay(srv, await screen("ready"), { session });
  const agent = await startReplay(srv, agentScreen, { session, newWindow: true });
  for (const p of [orch, agent]) {
    await srv.tmux("set-option", "-p", "-t", p.paneId, "@drover-cli", "claude");
  }
  const tmp = await Deno.makeTempDir({ prefix: "drover-sweep-safety-" });
  const [exe, pre] = droverCommand();
  await Deno.mkdir(`${tmp}/bin`);
  const bin = `${tmp}/bin/drover`;
  await Deno.writeTextFile(bin, `#!/bin/sh\nexec ${[exe, ...pre].map(q).join(" ")} "$@"\n`);
  await Deno.chmod(bin, 0o755);
  const others: ReplayPane[] = [orch];
  return {
    srv,
    agent,
    others,
    async sweep(args) {
      const out = await new Deno.Command("bash", {
        args: [SWEEP, "-L", srv.name, ...args],
        env: { DROVER: bin, XDG_RUNTIME_DIR: tmp, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      await new Promise((r) => setTimeout(r, 300));
      const dec = new TextDecoder();
      return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
    },
    async [Symbol.asyncDispose]() {
      for (const p of [agent, ...others]) await cleanupReplay(p);
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
      await srv[Symbol.asyncDispose]();
    },
  };
}

Deno.test("sweep.sh approve: a 1 that lands in an input line exits 20 and sends no Enter", async () => {
  await using r = await rig(await screen("bash-prompt"));
  await r.agent.onKey("1", await readyTyped("1"));
  const res = await r.sweep(["approve", r.agent.paneId]);
  assert.equal(res.code, 20, res.stdout + res.stderr);
  assert.match(res.stdout, /key-in-input/);
  assert.equal(await r.agent.keys(), "1");
  // The pane is marked: a drive tick does not take the stray 1 for typed input.
  const mark = await r.srv.tmux(
    "show-options",
    "-p",
    "-q",
    "-v",
    "-t",
    r.agent.paneId,
    "@drover-stray-key",
  );
  assert.equal(mark.trim(), "1");
  const tmp = await Deno.makeTempDir({ prefix: "drover-sweep-stray-" });
  try {
    const run = await drover([
      "-L",
      r.srv.name,
      "drive",
      "--session",
      "agents",
      "--once",
      "--json",
      "--state",
      tmp,
    ], { env: { XDG_RUNTIME_DIR: tmp } });
    assert.doesNotMatch(run.stdout, /"event":"input-submitted"/, run.stdout);
    assert.match(run.stdout, /"reason":"key-in-input"/, run.stdout);
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
  await new Promise((res) => setTimeout(res, 300));
  assert.equal(await r.agent.keys(), "1");
});

Deno.test("sweep.sh approve: a synchronized window is refused with exit 19 and gets no key", async () => {
  await using r = await rig(await screen("bash-prompt"));
  await r.agent.onKey("1", await screen("bash-answered"));
  await r.srv.tmux("set-option", "-w", "-t", r.agent.paneId, "synchronize-panes", "on");
  const res = await r.sweep(["approve", r.agent.paneId]);
  assert.equal(res.code, 19, res.stdout + res.stderr);
  assert.match(res.stdout, /synchronized/);
  assert.equal(await r.agent.keys(), "");
  await r.srv.tmux("set-option", "-w", "-t", r.agent.paneId, "synchronize-panes", "off");
  const ok = await r.sweep(["approve", r.agent.paneId]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.equal(await r.agent.keys(), "1");
});
