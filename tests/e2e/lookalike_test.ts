/**
 * Issue 16, finding 1 on real tmux: every hand-made look-alike prompt (a complete prompt block
 * printed where none is live) shown by a replay double gets NO key from `drover approve` and none
 * from `drover drive --approve allowlist` with the block's own command allowlisted. And the other
 * side of the rule: every REAL recorded prompt of every CLI and version is still approved with
 * exactly its one key.
 */
import assert from "node:assert/strict";
import { pool } from "../helpers/pool.ts";
import { approveHere, firstOfEachKind } from "../helpers/in_process.ts";
import { drover, type DroverRun, envelope } from "../helpers/drover.ts";
import {
  cleanupReplay,
  loadScreen,
  type ReplayPane,
  type Screen,
  startReplay,
} from "../helpers/replay.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";
import { build, type Built, lookalikes } from "../helpers/lookalikes.ts";
import { RECORDED_CLIS, recordedScreens } from "../helpers/recorded.ts";

// deno-lint-ignore no-explicit-any
type Loose = any;

function events(run: DroverRun): Loose[] {
  return run.stdout.split("\n").filter((l) => l.trim().startsWith("{")).map((l) => JSON.parse(l))
    .filter((e: Loose) => e.schema === "drover.event.v1");
}

interface Rig extends AsyncDisposable {
  srv: TestServer;
  panes: { pane: ReplayPane; label: string }[];
  orch: ReplayPane[];
  runtime: string;
}

/**
 * One session per pane size: window 0 shows the CLI's recorded ready screen (the session's
 * orchestrator, which never gets an approval), one window per screen after it.
 */
async function rig(
  screens: { label: string; cli: string; screen: Screen; orchestrator: Screen; onKey?: Screen }[],
): Promise<Rig> {
  const srv = await startTestServer();
  const panes: Rig["panes"] = [];
  const orch: ReplayPane[] = [];
  const sessions = new Map<string, string>();
  for (const s of screens) {
    const size = `${s.screen.cols}x${s.screen.rows}`;
    let session = sessions.get(size);
    if (session === undefined) {
      session = `s${s.screen.cols}`;
      sessions.set(size, session);
      orch.push(await startReplay(srv, s.orchestrator, { session }));
    }
    const pane = await startReplay(srv, s.screen, { session, newWindow: true });
    await srv.tmux("set-option", "-p", "-t", pane.paneId, "@drover-cli", s.cli);
    if (s.onKey) {
      await pane.onKey("1", s.onKey);
      await pane.onKey("\r", s.onKey);
    }
    panes.push({ pane, label: s.label });
  }
  const runtime = await Deno.makeTempDir({ prefix: "drover-lookalike-" });
  return {
    srv,
    panes,
    orch,
    runtime,
    async [Symbol.asyncDispose]() {
      for (const p of [...orch, ...panes.map((x) => x.pane)]) await cleanupReplay(p);
      await srv[Symbol.asyncDispose]();
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
    },
  };
}

async function readyOf(b: Built): Promise<Screen> {
  return await loadScreen(`${b.screen.dir}/${b.screen.version}/ready@${b.screen.size}`);
}

const BUILT = lookalikes().map(build);

Deno.test("look-alikes on real tmux: approve and drive (allowlisting the block's command) send no key", async () => {
  const screens = [];
  for (const b of BUILT) {
    screens.push({
      label: b.rel,
      cli: b.screen.cli,
      screen: {
        text: b.styled,
        cols: Number(b.screen.size.split("x")[0]),
        rows: Number(b.screen.size.split("x")[1]),
      },
      orchestrator: await readyOf(b),
    });
  }
  await using r = await rig(screens);
  const env = { XDG_RUNTIME_DIR: r.runtime };
  const sent: string[] = [];
  for (const { pane, label } of r.panes) {
    const run = await drover(["-L", r.srv.name, "--json", "approve", pane.paneId], { env });
    const out = envelope(run);
    if (run.code !== 12 || out.data?.reason !== "no-live-prompt") {
      sent.push(`${label}: approve exit ${run.code} ${JSON.stringify(out.data ?? out.error)}`);
    }
  }
  for (const { pane, label } of r.panes) {
    const k = await pane.settled();
    if (k !== "") sent.push(`${label}: approve sent ${JSON.stringify(k)}`);
  }
  // drive, one tick per session, approving the very commands the blocks show.
  const state = `${r.runtime}/state`;
  for (const session of ["s80", "s120"]) {
    const run = await drover([
      "-L",
      r.srv.name,
      "drive",
      "--session",
      session,
      "--state",
      state,
      "--once",
      "--json",
      "--approve",
      "allowlist",
      "--allow",
      "node",
      "--allow",
      "touch",
    ], { env });
    assert.equal(run.code, 0, run.stderr);
    const acted = events(run).filter((e) =>
      ["approved", "approve-refused"].includes(e.event) ||
      (e.event === "escalated" && e.reason === "permission-prompt")
    );
    for (const e of acted) sent.push(`drive ${session}: ${e.event} on ${e.pane} ${e.message}`);
    // The one screen holding typed text gets drive's stranded-input Enter (DESIGN §9), the
    // designed recovery for any typed-but-unsent text; it must be that Enter and nothing else.
    for (const e of events(run).filter((x) => x.event === "input-submitted")) {
      const p = r.panes.find((x) => x.pane.paneId === e.pane);
      if (!p?.label.includes("echo-above-typed-box")) sent.push(`drive: Enter on ${p?.label}`);
    }
  }
  for (const { pane, label } of r.panes) {
    const k = await pane.settled();
    const ok = label.includes("echo-above-typed-box") ? k === "" || k === "\r" : k === "";
    if (!ok) sent.push(`${label}: drive sent ${JSON.stringify(k)}`);
  }
  for (const o of r.orch) assert.equal(await o.settled(), "");
  assert.deepEqual(sent, []);
  assert.ok(r.panes.length >= 6);
});

Deno.test("fixture sweep on real tmux: every recorded prompt of every CLI and version is approved with its one key", async () => {
  // Each prompt needs its version's ready screen at its size; issue 21's multi-line prompt is
  // recorded at 60x20 and 200x50 only, where there is none yet (tests/e2e/approve_test.ts alike).
  const prompts = (await recordedScreens()).filter((s) =>
    s.state === "prompt" && !/\/bash-prompt-multiline@/.test(s.rel)
  );
  const screens = [];
  for (const p of prompts) {
    const ready = await loadScreen(`${p.dir}/${p.version}/ready@${p.size}`);
    screens.push({
      label: p.rel,
      cli: p.cli,
      screen: await loadScreen(p.rel),
      orchestrator: ready,
      // The CLI takes the key and goes back to its ready screen.
      onKey: ready,
    });
  }
  await using r = await rig(screens);
  const env = { XDG_RUNTIME_DIR: r.runtime };
  const wrong: string[] = [];
  const approved = new Set<string>();
  // A real `drover approve` process on the first prompt of each CLI and version, the command's
  // own code in this process on the rest (tests/helpers/in_process.ts): the same gate and keys.
  const jobs = firstOfEachKind(r.panes, ({ label }) => label.split("/").slice(0, 2).join("/"));
  const processes = jobs.filter((j) => j.first).length;
  // Each pane has its own claim: four approvers at a time, each waiting for its own redraw.
  await pool(jobs, 4, async ({ pane, label, first }) => {
    let run: { code: number };
    let out: Loose;
    if (first) {
      const p = await drover(["-L", r.srv.name, "--json", "approve", pane.paneId], { env });
      run = p;
      out = envelope(p);
    } else {
      const here = await approveHere(r.srv.name, pane.paneId);
      run = here;
      out = { data: here.data, error: here.error };
    }
    const keys = await pane.settled();
    const key = out.data?.key === "Enter" ? "\r" : out.data?.key;
    // A prompt whose first choice is "No" (Claude Code 2.1.332 in auto mode) is a real prompt
    // drover must never answer: refused as not-affirmative, nothing sent.
    // Cline's prompt with the highlight moved to "[n] Deny": Enter would deny; refused as
    // no-option-1 (the first choice is not the selected one), nothing sent.
    if (/\/shell-prompt-deny-highlighted@/.test(label)) {
      if (run.code !== 15 || out.data?.reason !== "no-option-1" || keys !== "") {
        wrong.push(`${label}: exit ${run.code} ${out.data?.reason} keys ${JSON.stringify(keys)}`);
      }
      return;
    }
    if (/\/auto-no-first-prompt@/.test(label)) {
      if (run.code !== 18 || out.data?.reason !== "not-affirmative" || keys !== "") {
        wrong.push(`${label}: exit ${run.code} ${out.data?.reason} keys ${JSON.stringify(keys)}`);
      }
      return;
    }
    if (run.code !== 0 || out.data?.outcome !== "approved" || keys !== key) {
      wrong.push(
        `${label}: exit ${run.code} ${out.data?.outcome} ${out.data?.reason} keys ${
          JSON.stringify(keys)
        }`,
      );
    } else approved.add(label.split("/")[0]);
  });
  assert.deepEqual(wrong, []);
  assert.deepEqual([...approved].sort(), Object.keys(RECORDED_CLIS).sort());
  assert.ok(processes >= Object.keys(RECORDED_CLIS).length, `${processes} approve processes`);
  for (const o of r.orch) assert.equal(await o.settled(), "");
});
