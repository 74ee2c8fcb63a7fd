/**
 * Issue 27, items 2 and 3, on real tmux with real Claude Code 2.1.332 screens replayed and every
 * key the panes receive logged:
 * - two drives on one session with different state directories (cron under `env -i` next to a
 *   shell with XDG_STATE_HOME set) press Enter once: one acts, the other exits 73;
 * - a symlink where a lock, the state or the events file belongs leaves its target untouched and
 *   exits 74 before any key;
 * - a full filesystem under the state directory exits 74 before any key (a real tmpfs, filled,
 *   in a private mount namespace);
 * - a state file whose fields have the wrong types loads with a `state-reset` warning.
 */
import assert from "node:assert/strict";
import { cronBox } from "../helpers/cron.ts";
import { drover, droverCommand, type DroverRun } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";
import { strictSkips } from "../helpers/tools.ts";
import { sessionKey } from "../../lib/drive/options.ts";

const V = "claude-code/2.1.332";
const screen = (name: string) => loadScreen(`${V}/${name}@80x24`);

// deno-lint-ignore no-explicit-any
type Loose = any;

function jsonLines(run: DroverRun): Loose[] {
  return run.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
}

const errorOf = (run: DroverRun) => jsonLines(run).find((e) => e.ok === false)?.error;

/**
 * The keys a double got while a drive loop is still running (keys come one byte at a time): a
 * sentinel proves nothing against a sender that has not finished, so this one waits for `want`
 * keys and then a quiet half second.
 */
async function settledKeys(p: ReplayPane, want: number, ms = 20_000): Promise<string> {
  const deadline = Date.now() + ms;
  while ((await p.keys()).length < want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 500));
  return await p.keys();
}

Deno.test("drive: cron (env -i) and a shell with XDG_STATE_HOME on one session — one acts, the other exits 73, one Enter", async () => {
  await using box = await cronBox();
  const srv = box.server;
  const orch = await startReplay(srv, await screen("ready"), { session: "agents" });
  const agent = await startReplay(srv, await screen("typed-input"), {
    session: "agents",
    newWindow: true,
  });
  const [exe, pre] = droverCommand();
  // The shell's drive: its own XDG_STATE_HOME (and XDG_RUNTIME_DIR), looping.
  const shellState = `${box.home}/xdg-state`;
  const loop = new Deno.Command(exe, {
    args: [...pre, "--json", "drive", "--session", "agents", "--interval", "1s"],
    env: {
      HOME: box.home,
      XDG_STATE_HOME: shellState,
      XDG_RUNTIME_DIR: `${box.home}/xdg-run`,
      TMUX_TMPDIR: box.tmuxTmp,
      NO_COLOR: "1",
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    // The loop pressed its one Enter and remembers it (in its own state directory).
    assert.equal(await settledKeys(agent, 1), "\r");
    // cron's tick: env -i, the default state directory — another one. It must not act.
    for (let i = 0; i < 2; i++) {
      const cron = await box.run(`"$DROVER" --json drive --session agents --once`);
      assert.equal(cron.code, 73, cron.stdout + cron.stderr);
      const err = errorOf(cron);
      assert.equal(err?.code, "DRIVE_LOCKED");
      assert.match(err.message, new RegExp(`state ${shellState}/drover`), "names the holder");
    }
    assert.equal(await settledKeys(agent, 2, 1500), "\r", "exactly one Enter");
    assert.equal(await orch.keys(), "");
  } finally {
    loop.kill("SIGTERM");
    const out = await loop.output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    for (const p of [orch, agent]) await cleanupReplay(p);
  }
});

Deno.test("drive: two --once ticks started together with different --state press Enter once (codes 0 and 73)", async () => {
  await using srv = await startTestServer({ width: 80, height: 24 });
  const orch = await startReplay(srv, await screen("ready"), { session: "s" });
  const typed = await screen("typed-input");
  const agent = await startReplay(srv, typed, { session: "s", newWindow: true });
  const tmp = await Deno.makeTempDir({ prefix: "drover-2drives-" });
  try {
    for (let round = 1; round <= 3; round++) {
      // The CLI takes the input on Enter: the screen no longer shows it.
      await agent.onKey("\r", await screen("ready"));
      const tick = (state: string) =>
        drover([
          "-L",
          srv.name,
          "--json",
          "drive",
          "--session",
          "s",
          "--once",
          "--state",
          `${tmp}/${state}-${round}`,
        ]);
      const runs = await Promise.all([tick("a"), tick("b")]);
      const codes = runs.map((r) => r.code).sort();
      assert.ok(
        codes.every((c) => c === 0 || c === 73) && codes[0] === 0,
        runs.map((r) => r.stdout + r.stderr).join("\n"),
      );
      for (const r of runs.filter((r) => r.code === 73)) {
        assert.equal(errorOf(r)?.code, "DRIVE_LOCKED");
      }
      assert.equal(await agent.settled(), "\r".repeat(round), `round ${round}`);
      await agent.show(typed);
    }
    assert.equal(await orch.keys(), "");
  } finally {
    for (const p of [orch, agent]) await cleanupReplay(p);
    await Deno.remove(tmp, { recursive: true });
  }
});

interface Rig extends AsyncDisposable {
  srv: TestServer;
  orch: ReplayPane;
  agent: ReplayPane;
  tmp: string;
  key(): Promise<string>;
  drive(args: string[]): Promise<DroverRun>;
}

async function rig(): Promise<Rig> {
  const srv = await startTestServer({ width: 80, height: 24 });
  const orch = await startReplay(srv, await screen("ready"), { session: "s" });
  const agent = await startReplay(srv, await screen("typed-input"), {
    session: "s",
    newWindow: true,
  });
  const tmp = await Deno.makeTempDir({ prefix: "drover-files-e2e-" });
  return {
    srv,
    orch,
    agent,
    tmp,
    async key() {
      const sock = (await srv.tmux("display-message", "-p", "#{socket_path}")).trim();
      return sessionKey("s", sock);
    },
    drive: (args) => drover(["-L", srv.name, "--json", "drive", "--session", "s", ...args]),
    async [Symbol.asyncDispose]() {
      for (const p of [orch, agent]) await cleanupReplay(p);
      await srv[Symbol.asyncDispose]();
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    },
  };
}

/** After a tick that has exited: the doubles' sentinels prove no key is still on its way. */
async function noKeys(r: Rig): Promise<void> {
  assert.equal(await r.agent.settled(), "");
  assert.equal(await r.orch.settled(), "");
}

Deno.test("drive: a symlink at the lock path (a shared --state) → 74, its target untouched, no key", async () => {
  await using r = await rig();
  const shared = `${r.tmp}/shared`;
  await Deno.mkdir(shared);
  const victim = `${r.tmp}/victim`;
  await Deno.writeTextFile(victim, "precious\n");
  const key = await r.key();
  await Deno.symlink(victim, `${shared}/${key}.lock`);
  const run = await r.drive(["--once", "--state", shared]);
  assert.equal(run.code, 74, run.stdout + run.stderr);
  const err = errorOf(run);
  assert.equal(err?.code, "STATE_UNWRITABLE");
  assert.match(err.message, /a symbolic link stands where the drive lock file .* belongs; refused/);
  assert.equal(await Deno.readTextFile(victim), "precious\n", "the target is untouched");
  await noKeys(r);

  // The same in the per-user runtime directory every drive looks in.
  await Deno.remove(`${shared}/${key}.lock`);
  const runtimeLock = `/tmp/drover-${Deno.uid()}/locks/${key}.lock`;
  await Deno.mkdir(`/tmp/drover-${Deno.uid()}/locks`, { recursive: true, mode: 0o700 });
  await Deno.symlink(victim, runtimeLock);
  try {
    const again = await r.drive(["--once", "--state", shared]);
    assert.equal(again.code, 74, again.stdout + again.stderr);
    assert.ok(errorOf(again)?.message.includes(runtimeLock), again.stdout);
    assert.equal(await Deno.readTextFile(victim), "precious\n");
    await noKeys(r);
  } finally {
    await Deno.remove(runtimeLock);
  }
  // Nothing planted: the tick runs and presses its one Enter.
  const ok = await r.drive(["--once", "--state", shared]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.equal(await r.agent.settled(), "\r");
});

Deno.test("drive: a symlink at the state or events path → 74 before any key, its target untouched", async () => {
  await using r = await rig();
  const victim = `${r.tmp}/victim`;
  await Deno.writeTextFile(victim, "precious\n");
  const key = await r.key();
  const state = `${r.tmp}/state`;
  await Deno.mkdir(state);
  await Deno.symlink(victim, `${state}/${key}.state.json`);
  const s = await r.drive(["--once", "--state", state]);
  assert.equal(s.code, 74, s.stdout + s.stderr);
  assert.match(errorOf(s)?.message, /a symbolic link stands where the drive state file .* belongs/);
  assert.ok((await Deno.lstat(`${state}/${key}.state.json`)).isSymlink, "left where it is");
  await Deno.remove(`${state}/${key}.state.json`);

  const events = `${r.tmp}/events.jsonl`;
  await Deno.symlink(victim, events);
  const e = await r.drive(["--once", "--state", state, "--events", events]);
  assert.equal(e.code, 74, e.stdout + e.stderr);
  assert.match(errorOf(e)?.message, /a symbolic link stands where the events file .* belongs/);
  assert.equal(await Deno.readTextFile(victim), "precious\n");
  await noKeys(r);
});

Deno.test("drive: a state file with wrong field types loads with a state-reset warning", async () => {
  await using r = await rig();
  const key = await r.key();
  const state = `${r.tmp}/state`;
  await Deno.mkdir(state);
  await Deno.writeTextFile(
    `${state}/${key}.state.json`,
    JSON.stringify({
      version: 1,
      session: "s",
      dedup: [],
      panes: { [r.agent.paneId]: { submitted: { text: 5, at: 1 } } },
      orchestrator: {},
      updatedAt: 1,
    }),
  );
  const run = await r.drive(["--once", "--state", state]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const reset = jsonLines(run).filter((e) => e.event === "state-reset");
  assert.equal(reset.length, 1, run.stdout);
  assert.match(reset[0].message, /dedup: expected record, received array/);
  assert.match(reset[0].message, /submitted\.text: expected string, received number/);
  assert.equal(await r.agent.settled(), "\r");
});

/** Why a private mount namespace with a tmpfs cannot be made here, or null when it can. */
async function tmpfsUnavailable(): Promise<string | null> {
  if (Deno.uid() !== 0) return "mounting a tmpfs needs root";
  const dir = await Deno.makeTempDir({ prefix: "drover-mnt-probe-" });
  try {
    const r = await new Deno.Command("unshare", {
      args: ["-m", "sh", "-c", `mount -t tmpfs -o size=64k tmpfs '${dir}'`],
      stdout: "null",
      stderr: "piped",
    }).output().catch((e) => ({ code: 127, stderr: new TextEncoder().encode(String(e)) }));
    return r.code === 0
      ? null
      : `unshare -m + mount -t tmpfs failed: ${new TextDecoder().decode(r.stderr).trim()}`;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

Deno.test("drive: a full filesystem under --state → 74 STATE_UNWRITABLE before any key (a real, filled tmpfs)", async () => {
  const why = await tmpfsUnavailable();
  if (why !== null) {
    if (strictSkips()) throw new Error(`${why}; DROVER_STRICT_SKIPS=1 forbids skipping it`);
    console.error(`skipped: full-filesystem drive test: ${why}`);
    return;
  }
  await using r = await rig();
  const [exe, pre] = droverCommand();
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const mnt = `${r.tmp}/mnt`;
  await Deno.mkdir(mnt);
  // Fill the 64 KiB tmpfs to the last byte (full), or to its last 4 KiB page (room for the lock
  // file, none for the state file), then run one tick with the state directory on it.
  const cases: [string, number, RegExp][] = [
    ["full", 65536, /drive lock file .*: the disk or the quota is full/],
    ["one page left", 61440, /drive state file .*the disk or the quota is full/],
  ];
  for (const [name, fill, want] of cases) {
    const script = `mount -t tmpfs -o size=64k tmpfs ${q(mnt)} || exit 90; ` +
      `head -c ${fill} /dev/zero > ${q(`${mnt}/fill`)} 2>/dev/null; ` +
      `mkdir ${q(`${mnt}/state`)} || exit 91; ` +
      `exec ${[exe, ...pre].map(q).join(" ")} -L ${r.srv.name} --json drive --session s ` +
      `--once --state ${q(`${mnt}/state`)}`;
    const out = await new Deno.Command("unshare", {
      args: ["-m", "sh", "-c", script],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const run = {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
    assert.equal(run.code, 74, `${name}: ${run.stdout}${run.stderr}`);
    const err = errorOf(run);
    assert.equal(err?.code, "STATE_UNWRITABLE", name);
    assert.match(err.message, want, name);
    assert.match(err.message, /No space left on device/, name);
    assert.doesNotMatch(run.stderr, /INTERNAL|\n\s+at /, name);
    await noKeys(r);
  }
});
