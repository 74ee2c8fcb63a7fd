/**
 * Issue 16, finding 4 on real tmux: drive state must persist or drive stops. With the state file
 * unwritable (a directory sits at its path, or the state directory is a file), `drive` exits 74
 * STATE_UNWRITABLE naming the path — before any key: the stranded input it would otherwise press
 * Enter for (again on every cron tick, its dedup memory lost) gets nothing.
 */
import assert from "node:assert/strict";
import { drover, droverCommand, type DroverRun } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";
import { sessionKey } from "../../lib/drive/options.ts";

const V = "claude-code/2.1.197";

interface Rig extends AsyncDisposable {
  srv: TestServer;
  orch: ReplayPane;
  agent: ReplayPane;
  tmp: string;
  statePath(stateDir: string): Promise<string>;
  drive(stateDir: string, extra?: string[]): Promise<DroverRun>;
}

async function rig(): Promise<Rig> {
  const srv = await startTestServer({ width: 80, height: 24 });
  const s = (n: string) => loadScreen(`${V}/${n}@80x24`);
  const orch = await startReplay(srv, await s("ready"), { session: "s" });
  const agent = await startReplay(srv, await s("typed-input"), { session: "s", newWindow: true });
  for (const p of [orch, agent]) {
    await srv.tmux("set-option", "-p", "-t", p.paneId, "@drover-cli", "claude");
  }
  const tmp = await Deno.makeTempDir({ prefix: "drover-state-" });
  return {
    srv,
    orch,
    agent,
    tmp,
    async statePath(stateDir) {
      const sock = (await srv.tmux("display-message", "-p", "#{socket_path}")).trim();
      return `${stateDir}/${sessionKey("s", sock)}.state.json`;
    },
    async drive(stateDir, extra = []) {
      const r = await drover(
        ["-L", srv.name, "--json", "drive", "--session", "s", "--state", stateDir, ...extra],
        { env: { XDG_RUNTIME_DIR: tmp } },
      );
      return r;
    },
    async [Symbol.asyncDispose]() {
      for (const p of [orch, agent]) await cleanupReplay(p);
      await srv[Symbol.asyncDispose]();
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    },
  };
}

function errorOf(run: DroverRun) {
  const lines = run.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  return lines.find((e) => e.ok === false)?.error;
}

Deno.test("drive: a directory at the state path → exit 74 STATE_UNWRITABLE naming it, no key sent", async () => {
  await using r = await rig();
  const dir = `${r.tmp}/state`;
  const path = await r.statePath(dir);
  await Deno.mkdir(path, { recursive: true });
  for (const mode of [["--once"], ["--interval", "1s"]]) {
    const run = await r.drive(dir, mode);
    assert.equal(run.code, 74, run.stdout + run.stderr);
    const err = errorOf(run);
    assert.equal(err?.code, "STATE_UNWRITABLE", run.stdout);
    assert.ok(err.message.includes(path), err.message);
    assert.equal(await r.agent.settled(), "");
    assert.equal(await r.orch.settled(), "");
  }
  // Human output names the path too, and no stack trace.
  const human = await drover([
    "-L",
    r.srv.name,
    "drive",
    "--session",
    "s",
    "--state",
    dir,
    "--once",
  ], {
    env: { XDG_RUNTIME_DIR: r.tmp },
  });
  assert.equal(human.code, 74);
  assert.ok(human.stderr.includes(path), human.stderr);
  assert.doesNotMatch(human.stderr, /\n\s+at /);
  assert.equal(await r.agent.settled(), "");
  // Fixed: the same tick runs and presses the one Enter.
  await Deno.remove(path);
  const ok = await r.drive(dir, ["--once"]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.equal(await r.agent.settled(), "\r");
});

Deno.test("drive: a state directory that cannot be created → exit 74, no key sent", async () => {
  await using r = await rig();
  const file = `${r.tmp}/not-a-dir`;
  await Deno.writeTextFile(file, "x");
  const run = await r.drive(`${file}/state`, ["--once"]);
  assert.equal(run.code, 74, run.stdout + run.stderr);
  assert.equal(errorOf(run)?.code, "STATE_UNWRITABLE");
  assert.equal(await r.agent.settled(), "");
});

Deno.test("drive loop: the state turning unwritable between ticks stops the loop with 74 before the next tick's key", async () => {
  await using r = await rig();
  // The agent starts idle (nothing to do), so the first ticks write the state and send nothing.
  await r.agent.show(await loadScreen(`${V}/ready@80x24`));
  const dir = `${r.tmp}/state`;
  const path = await r.statePath(dir);
  const [exe, pre] = droverCommand();
  const child = new Deno.Command(exe, {
    args: [
      ...pre,
      "-L",
      r.srv.name,
      "--json",
      "drive",
      "--session",
      "s",
      "--state",
      dir,
      "--interval",
      "1s",
    ],
    env: { XDG_RUNTIME_DIR: r.tmp, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  try {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      try {
        await Deno.stat(path);
        break;
      } catch {
        await new Promise((res) => setTimeout(res, 50));
      }
    }
    // Now the state is lost (a directory takes its path) and the agent has stranded input.
    for (let i = 0; i < 20; i++) {
      await Deno.remove(path).catch(() => {});
      try {
        await Deno.mkdir(path);
        break;
      } catch {
        // the loop wrote it again meanwhile; retry
      }
    }
    // Stranded input shows up only after a tick that started before the loss has surely ended
    // (a tick writes the state first, then looks): no tick after the loss may press its Enter.
    await new Promise((res) => setTimeout(res, 1500));
    await r.agent.show(await loadScreen(`${V}/typed-input@80x24`)).catch(() => {});
    const out = await child.output();
    const run = {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
    assert.equal(run.code, 74, run.stdout + run.stderr);
    assert.equal(errorOf(run)?.code, "STATE_UNWRITABLE", run.stdout);
    assert.equal(await r.agent.settled(), "");
    assert.equal(await r.orch.settled(), "");
  } finally {
    clearTimeout(timer);
  }
});
