/**
 * One approver per pane whatever the approvers' environments (issue 27 follow-up), on real tmux
 * with recorded Claude Code 2.1.332 screens replayed and every key the panes receive logged:
 * - `drover approve` run as cron runs it (`env -i`), `sweep.sh approve` and a second `drover
 *   approve` with XDG_RUNTIME_DIR set, started together on one live prompt: exactly one sends `1`.
 *   The claim lived in $XDG_RUNTIME_DIR/drover/claims when that was set, else /tmp/drover-UID/claims,
 *   so the three took three different claims and all of them answered the prompt.
 * - a symlink at the claim path: both approvers refuse with 74, send nothing, leave the link and
 *   its target as they were and never print what the target holds (before: a stale link was
 *   "stolen" and the prompt answered; a fresh one was reported with the target's text as holder).
 * - sweep.sh approve on a machine without /tmp/drover-UID makes it 0700 whatever the umask (it was
 *   `mkdir -p -m 700 DIR/claims`, which gives the parents the umask's mode).
 */
import assert from "node:assert/strict";
import { cronBox } from "../helpers/cron.ts";
import { drover, droverCommand, envelope, REPO_ROOT } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import type { TestServer } from "../helpers/tmux_server.ts";
import { strictSkips } from "../helpers/tools.ts";
import { claimName } from "../../lib/approve/claim.ts";

const SWEEP = `${REPO_ROOT}sweep/sweep.sh`;
const V = "claude-code/2.1.332";
const screen = (name: string) => loadScreen(`${V}/${name}@120x40`);
const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
const dec = new TextDecoder();
const UID = Deno.uid() ?? 0;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(cmd: string, args: string[], env: Record<string, string>): Promise<Run> {
  const out = await new Deno.Command(cmd, {
    args,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A drover executable for sweep.sh: DROVER_BIN, else a wrapper around `deno run main.ts`. */
async function droverExe(dir: string): Promise<string> {
  const [exe, pre] = droverCommand();
  const path = `${dir}/drover`;
  await Deno.writeTextFile(path, `#!/bin/sh\nexec ${[exe, ...pre].map(q).join(" ")} "$@"\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

/** What a shell user's environment has: PATH, HOME, DENO_DIR for a source checkout. */
function shellEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  for (const k of ["HOME", "DENO_DIR"]) {
    const v = Deno.env.get(k);
    if (v) env[k] = v;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

/**
 * The keys a double got, all of them: every caller's approvers have exited, so the double's
 * sentinel proves nothing they sent is still on its way.
 */
const settledKeys = (p: ReplayPane): Promise<string> => p.settled();

interface Rig extends AsyncDisposable {
  server: TestServer;
  socket: string;
  orch: ReplayPane;
  agent: ReplayPane;
  tmp: string;
  /** The claim path every approver must use (docs/cron.md), under /tmp/drover-UID. */
  claimPath: string;
}

/** Session "agents" on `server`: the orchestrator (ready) and an agent showing a live prompt. */
async function rig(
  server: TestServer,
  onDispose: () => Promise<void>,
  prompt = "bash-prompt",
): Promise<Rig> {
  const orch = await startReplay(server, await screen("ready"), { session: "agents" });
  const agent = await startReplay(server, await screen(prompt), {
    session: "agents",
    newWindow: true,
  });
  for (const p of [orch, agent]) {
    await server.tmux("set-option", "-p", "-t", p.paneId, "@drover-cli", "claude");
  }
  const socket = (await server.tmux("display-message", "-p", "#{socket_path}")).trim();
  const tmp = await Deno.makeTempDir({ prefix: "drover-claim-" });
  const claimPath = `/tmp/drover-${UID}/claims/${claimName(socket, agent.paneId)}`;
  return {
    server,
    socket,
    orch,
    agent,
    tmp,
    claimPath,
    async [Symbol.asyncDispose]() {
      for (const p of [orch, agent]) await cleanupReplay(p);
      await Deno.remove(claimPath).catch(() => {});
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
      await onDispose();
    },
  };
}

Deno.test("three approvers at once — drover approve under env -i, sweep.sh approve, drover approve with XDG_RUNTIME_DIR — exactly one sends 1", async () => {
  await using box = await cronBox();
  await using r = await rig(box.server, () => Promise.resolve());
  // A CLI slow to take the digit (hand-made behaviour on the recorded screens): the prompt stays
  // after "1" and goes on Enter. So whoever sends a "1" while another approver is between its
  // gate and its Enter answers the same prompt a second time — unless the claim keeps it out.
  const prompt = await screen("bash-prompt");
  await r.agent.onKey("\r", await screen("bash-answered"));
  const sweepDrover = await droverExe(r.tmp);
  for (let round = 1; round <= 2; round++) {
    if (round > 1) await r.agent.show(prompt);
    const before = (await r.agent.keys()).length;
    const runs = await Promise.all([
      box.run(`"$DROVER" --json approve agents:1.0`),
      run("bash", [SWEEP, "-S", r.socket, "approve", "agents:1.0"], {
        ...shellEnv({ DROVER: sweepDrover, XDG_RUNTIME_DIR: `${r.tmp}/xdg-sweep` }),
      }),
      drover(["-S", r.socket, "--json", "approve", "agents:1.0"], {
        env: shellEnv({ XDG_RUNTIME_DIR: `${r.tmp}/xdg-shell` }),
        clearEnv: true,
      }),
    ]);
    const all = runs.map((x, i) => `#${i} exit ${x.code}: ${x.stdout}${x.stderr}`).join("\n");
    const keys = (await settledKeys(r.agent)).slice(before);
    assert.equal(keys, "1\r", `round ${round}: exactly one 1 (and its one Enter)\n${all}`);
    const codes = runs.map((x) => x.code);
    assert.equal(codes.filter((c) => c === 0).length, 1, all);
    assert.ok(codes.every((c) => c === 0 || c === 11 || c === 12), all);
    for (const x of runs.filter((x) => x.code === 11)) {
      assert.match(x.stdout, new RegExp(r.claimPath.replaceAll(".", "\\.")), "names the claim");
    }
  }
  assert.equal(await r.orch.keys(), "");
  await assert.rejects(() => Deno.lstat(r.claimPath), Deno.errors.NotFound, "released");
});

Deno.test("a symlink at the claim path: drover approve and sweep.sh approve exit 74, send nothing, leave it and its target untouched", async () => {
  await using box = await cronBox();
  await using r = await rig(box.server, () => Promise.resolve());
  const target = `${r.tmp}/precious`;
  await Deno.writeTextFile(target, "PRECIOUS line one\n");
  await Deno.mkdir(`/tmp/drover-${UID}/claims`, { recursive: true, mode: 0o700 });
  await Deno.symlink(target, r.claimPath);
  // Older than the claim TTL (the link and its target): the old code stole it as a stale claim.
  const old = new Date(Date.now() - 3_600_000);
  await Deno.utime(target, old, old);
  const aged = await run(
    "touch",
    ["-h", "-d", `@${Math.floor(old.getTime() / 1000)}`, r.claimPath],
    {
      PATH: "/usr/bin:/bin",
    },
  );
  assert.equal(aged.code, 0, aged.stderr);
  const link = await Deno.lstat(r.claimPath);

  const cron = await box.run(`"$DROVER" --json approve agents:1.0`);
  assert.equal(cron.code, 74, cron.stdout + cron.stderr);
  const err = envelope(cron).error;
  assert.equal(err.code, "STATE_UNWRITABLE");
  assert.match(err.message, /a symbolic link stands where the pane's approve claim file/);
  assert.match(err.message, /nothing was sent/);

  const sweep = await run("bash", [SWEEP, "-S", r.socket, "approve", "agents:1.0"], {
    ...shellEnv({ DROVER: await droverExe(r.tmp), XDG_RUNTIME_DIR: `${r.tmp}/xdg` }),
  });
  assert.equal(sweep.code, 74, sweep.stdout + sweep.stderr);
  assert.match(sweep.stdout, /^refused pane %\d+ \(claim-path\): a symbolic link stands where/m);
  assert.match(sweep.stdout, /no keys sent/);

  for (const x of [cron, sweep]) assert.doesNotMatch(x.stdout + x.stderr, /PRECIOUS/);
  assert.equal(await settledKeys(r.agent), "");
  const now = await Deno.lstat(r.claimPath);
  assert.ok(now.isSymlink && now.ino === link.ino, "the link is left where it is");
  assert.equal(await Deno.readLink(r.claimPath), target);
  assert.equal(await Deno.readTextFile(target), "PRECIOUS line one\n");
  assert.equal((await Deno.stat(target)).mtime?.getTime(), old.getTime());
});

// drive approves through the same claim: a symlink there stops the tick with 74 before the key.
Deno.test("drive --approve allowlist: a symlink at the pane's claim path → 74 before any key, the link left", async () => {
  await using box = await cronBox();
  await using r = await rig(box.server, () => Promise.resolve(), "bash-prompt-npm");
  const target = `${r.tmp}/precious`;
  await Deno.writeTextFile(target, "PRECIOUS\n");
  await Deno.mkdir(`/tmp/drover-${UID}/claims`, { recursive: true, mode: 0o700 });
  await Deno.symlink(target, r.claimPath);
  const tick = await box.run(
    `"$DROVER" --json drive --session agents --once --approve allowlist --allow 'npm run build'`,
  );
  assert.equal(tick.code, 74, tick.stdout + tick.stderr);
  const result = tick.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
    .find((e) => e.ok === false);
  assert.equal(result?.error?.code, "STATE_UNWRITABLE", tick.stdout);
  assert.match(result.error.message, /a symbolic link stands where the pane's approve claim file/);
  assert.equal(await settledKeys(r.agent), "");
  assert.equal(await r.orch.keys(), "");
  assert.ok((await Deno.lstat(r.claimPath)).isSymlink);
  assert.equal(await Deno.readTextFile(target), "PRECIOUS\n");
});

/** Why a private mount namespace with a fresh /tmp cannot be made here, or null when it can. */
async function namespaceUnavailable(): Promise<string | null> {
  if (Deno.uid() !== 0) return "mounting a tmpfs on /tmp needs root";
  try {
    const r = await run("unshare", ["-m", "sh", "-c", "mount -t tmpfs tmpfs /tmp"], {
      PATH: "/usr/bin:/bin:/usr/sbin:/sbin",
    });
    return r.code === 0 ? null : `unshare -m + mount -t tmpfs failed: ${r.stderr.trim()}`;
  } catch (e) {
    return `unshare: ${e}`;
  }
}

/** A tmux server on a socket outside /tmp (which the namespace below replaces). */
async function serverAt(socket: string): Promise<TestServer> {
  const tmux = async (...args: string[]) => {
    const r = await run("tmux", ["-u", "-S", socket, "-f", "/dev/null", ...args], {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      TERM: "xterm-256color",
    });
    if (r.code !== 0) throw new Error(`tmux ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  await tmux("new-session", "-d", "-s", "holder", "sleep 100000");
  return {
    name: socket,
    tmux,
    waitFor: () => Promise.reject(new Error("unused")),
    async [Symbol.asyncDispose]() {
      await tmux("kill-server").catch(() => "");
    },
  };
}

Deno.test("sweep.sh makes a missing /tmp/drover-UID 0700 whatever the umask (approve, detect-stuck; a fresh /tmp)", async () => {
  const why = await namespaceUnavailable();
  if (why !== null) {
    if (strictSkips()) throw new Error(`${why}; DROVER_STRICT_SKIPS=1 forbids skipping it`);
    console.error(`skipped: fresh-/tmp sweep.sh test: ${why}`);
    return;
  }
  // Everything the script needs from outside its fresh /tmp lives in /var/tmp.
  const outside = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "drover-claim-ns-" });
  const server = await serverAt(`${outside}/tmux.sock`);
  await using r = await rig(server, async () => {
    await server[Symbol.asyncDispose]();
    await Deno.remove(outside, { recursive: true }).catch(() => {});
  });
  await r.agent.onKey("1", await screen("bash-answered"));
  const env = shellEnv({
    DROVER: await droverExe(outside),
    PATH: `${Deno.env.get("PATH")}:/usr/sbin:/sbin`,
  });
  const base = `/tmp/drover-${UID}`;
  // A checkout under /tmp (a CI clone made by mktemp) would vanish under the fresh /tmp: it is
  // bound aside first and back at its own path after the mount.
  const checkout = REPO_ROOT.replace(/\/$/, "");
  const keep = checkout.startsWith("/tmp/")
    ? `mkdir -p ${q(`${outside}/checkout`)} && mount --bind ${q(checkout)} ${
      q(`${outside}/checkout`)
    } || exit 91; `
    : "";
  const back = keep
    ? `mkdir -p ${q(checkout)} && mount --bind ${q(`${outside}/checkout`)} ${
      q(checkout)
    } || exit 91; `
    : "";
  // In a private mount namespace: a new, empty /tmp, a umask that would make 0777 directories.
  const inFreshTmp = (command: string, sub: string) =>
    run("unshare", [
      "-m",
      "sh",
      "-c",
      keep + `mount -t tmpfs -o mode=1777 tmpfs /tmp || exit 90; ` + back + `umask 000; ` +
      `bash ${q(SWEEP)} -S ${q(r.socket)} ${command}; rc=$?; ` +
      `stat -c 'mode %a %n' ${base} ${base}/${sub}; exit $rc`,
    ], env);

  const approve = await inFreshTmp("approve agents:1.0", "claims");
  assert.equal(approve.code, 0, approve.stdout + approve.stderr);
  assert.match(approve.stdout, /^approved pane %\d+/m);
  assert.equal(await settledKeys(r.agent), "1");
  // The stuck state (where XDG_RUNTIME_DIR is unset, as under cron) sits under the same base: a
  // live prompt's first sighting is recorded there.
  await r.agent.show(await screen("bash-prompt"));
  const stuck = await inFreshTmp("--session agents detect-stuck", "sweep");
  assert.equal(stuck.code, 0, stuck.stdout + stuck.stderr);
  for (const [x, sub] of [[approve, "claims"], [stuck, "sweep"]] as const) {
    assert.match(x.stdout, new RegExp(`^mode 700 ${base}$`, "m"), x.stdout);
    assert.match(x.stdout, new RegExp(`^mode 700 ${base}/${sub}$`, "m"), x.stdout);
  }
});
