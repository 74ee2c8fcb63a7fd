/**
 * Issue 16 for sweep.sh's own approve gate on real tmux: the Enter is earned (a "1" that lands in
 * an input line is reported with exit 20, nothing more sent), no key into a synchronized window
 * (exit 19), and session names resolve exactly.
 */
import assert from "node:assert/strict";
import { driveTick, droverCommand, REPO_ROOT } from "../helpers/drover.ts";
import {
  cleanupReplay,
  loadScreen,
  plainFixture,
  type ReplayPane,
  type Screen,
  startReplay,
} from "../helpers/replay.ts";
import { paneOption, startTestServer, type TestServer } from "../helpers/tmux_server.ts";

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
  sweep(
    args: string[],
    env?: Record<string, string>,
  ): Promise<{ code: number; stdout: string; stderr: string }>;
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
    async sweep(args, extra = {}) {
      const out = await new Deno.Command("bash", {
        args: [SWEEP, "-L", srv.name, ...args],
        env: { DROVER: bin, XDG_RUNTIME_DIR: tmp, NO_COLOR: "1", ...extra },
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
  const mark = await paneOption(r.srv, r.agent.paneId, "@drover-stray-key");
  assert.equal(mark, "1");
  const tmp = await Deno.makeTempDir({ prefix: "drover-sweep-stray-" });
  try {
    const run = await driveTick(r.srv.name, "agents", tmp, tmp);
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

/** Hand-made: the recorded prompt with the selection glyph moved from option 1 to option 2. */
async function selectionOnTwo(): Promise<Screen> {
  const s = await screen("bash-prompt");
  const lines = s.text.split("\n");
  const one = lines.findIndex((l) => l.includes("❯") && l.includes("1."));
  assert.ok(one > 0 && lines[one + 1].includes("2."), "fixture options changed");
  lines[one] = lines[one].replace("❯", " ");
  lines[one + 1] = lines[one + 1].replace("   ", " ❯ ");
  assert.ok(lines[one + 1].includes("❯"), "fixture option 2 changed");
  return { ...s, text: lines.join("\n") };
}

/** An unconfirmed approve polls the pane 30 times through the bash gate: on a loaded machine that
 * can take longer than the default watchdog (120 s), which is not what these tests are about. */
const SLOW_OK = { SWEEP_TIME_LIMIT: "900" };

// The one Enter after the digit is earned by the same live prompt showing option 1 selected.
// Mutation caught (verified): sweep.sh reading option 1 as selected whatever its glyph says
// (`OPT1_SEL=1`) — the moved selection below then gets "1 + Enter", confirming option 2.
Deno.test("sweep.sh approve: the Enter after the 1 only while option 1 shows selected", async () => {
  {
    await using r = await rig(await screen("bash-prompt"));
    await r.agent.onKey("1", await screen("bash-prompt"));
    await r.agent.onKey("\r", await screen("bash-answered"));
    const res = await r.sweep(["approve", r.agent.paneId], SLOW_OK);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /with 1 \+ Enter$/m);
    assert.equal(await r.agent.keys(), "1\r");
  }
  {
    await using r = await rig(await screen("bash-prompt"));
    await r.agent.onKey("1", await selectionOnTwo());
    await r.agent.onKey("\r", await screen("bash-answered"));
    const res = await r.sweep(["approve", r.agent.paneId], SLOW_OK);
    assert.equal(res.code, 17, res.stdout + res.stderr);
    assert.match(res.stdout, /^unconfirmed pane %\d+: sent 1;/m);
    assert.equal(await r.agent.keys(), "1");
  }
});

// The key goes out on a fresh capture's word only: approve captures twice (gate, then re-confirm)
// and refuses with 16 when the prompt changed in between. The test puts a tmux wrapper first on
// sweep.sh's PATH (a seam the test injects; sweep.sh reads nothing for it) that, on sweep.sh's
// second capture, has the double draw a different live prompt first.
// Mutation caught (verified): sweep.sh without its re-confirm comparison — it then sends the 1
// the first capture earned to the other prompt.
Deno.test("sweep.sh approve: a prompt that changes between the gate capture and the send gets no key (16)", async () => {
  await using r = await rig(await screen("bash-prompt"));
  const other = await screen("bash-prompt-npm");
  await r.agent.onKey("1", await screen("bash-answered"));
  const tmp = await Deno.makeTempDir({ prefix: "drover-sweep-reconfirm-" });
  try {
    const real = new TextDecoder().decode(
      (await new Deno.Command("bash", { args: ["-c", "command -v tmux"], stdout: "piped" })
        .output()).stdout,
    ).trim();
    assert.ok(real.startsWith("/"), "tmux on PATH");
    await Deno.writeTextFile(`${tmp}/other`, other.text);
    const dir = r.agent.dir;
    await Deno.writeTextFile(
      `${tmp}/tmux`,
      `#!/bin/bash
# sweep.sh's own captures carry its separator (display-message -p drover-sweep-…); count them.
case " $* " in
*" drover-sweep-"*)
  n=$(( $(cat ${q(tmp)}/count 2>/dev/null || echo 0) + 1 ))
  echo "$n" > ${q(tmp)}/count
  if [ "$n" = 2 ]; then
    rm -f ${q(dir)}/switched
    cp ${q(tmp)}/other ${q(dir)}/next
    kill -USR1 "$(cat ${q(dir)}/pid)"
    for _ in $(seq 200); do [ -e ${q(dir)}/switched ] && break; sleep 0.05; done
  fi
  ;;
esac
exec ${q(real)} "$@"
`,
    );
    await Deno.chmod(`${tmp}/tmux`, 0o755);
    const res = await r.sweep(["approve", r.agent.paneId], {
      PATH: `${tmp}:${Deno.env.get("PATH") ?? ""}`,
    });
    assert.equal(res.code, 16, res.stdout + res.stderr);
    assert.match(res.stdout, /prompt-changed/);
    assert.equal(await r.agent.keys(), "");
    assert.equal((await Deno.readTextFile(`${tmp}/count`)).trim(), "2", "two captures, no more");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
