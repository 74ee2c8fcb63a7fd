/**
 * Issue 16 as one matrix on real tmux: every screen that must get no key is put in front of every
 * command that can send one — `drover approve`, `sweep.sh approve`, `drover send` and `drover
 * drive --approve allowlist` (allowlisting the very commands the screens show). The screens:
 * every hand-made look-alike prompt (a prompt block printed where none is live), every recorded
 * dialog of every CLI and version (Claude Code 2.1.332's auto-mode notice, its "make auto mode your
 * default" question and its bypass warning among them), the recorded prompts whose first choice is
 * a rejection (2.1.332's un-numbered "❯ No / Yes") and the usage-limit menus. Each replay double
 * logs every byte it gets; the logs must stay empty.
 *
 * Two keys are by design, and checked to be exactly that: drive's stranded-input Enter on the
 * look-alike whose input box holds typed text (DESIGN §9), and nothing else. `send` is not tried
 * on a look-alike above an empty idle input box: typing there is what `send` is for (the screen
 * is judged idle, never a prompt — the look-alike unit tests pin that verdict).
 */
import assert from "node:assert/strict";
import { pool } from "../helpers/pool.ts";
import { approveHere, firstOfEachKind, sendHere } from "../helpers/in_process.ts";
import { sweepDrover } from "../helpers/sweep_drover.ts";
import { drover, type DroverRun, envelope, REPO_ROOT } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, type ReplayPane, type Screen } from "../helpers/replay.ts";
import { startReplay } from "../helpers/replay.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";
import { build, lookalikes } from "../helpers/lookalikes.ts";
import { recordedScreens } from "../helpers/recorded.ts";

// deno-lint-ignore no-explicit-any
type Loose = any;

interface Case {
  label: string;
  cli: string;
  screen: Screen;
  /** The exits `drover approve` may refuse with here. */
  approveExits: number[];
  /** `send` is tried (see the module comment for the one kind that is not). */
  send: boolean;
  /** The one key drive may press here by design (stranded input), else none. */
  driveMay?: string;
}

/** Claude Code 2.1.332's new screens: each must be in the matrix, at both sizes. */
const NEW_2_1_332 = [
  "auto-cant-check",
  "auto-mode-question",
  "auto-no-first-prompt",
  "bypass-warning",
];

async function cases(): Promise<Case[]> {
  const out: Case[] = [];
  for (const b of lookalikes().map(build)) {
    const [cols, rows] = b.screen.size.split("x").map(Number);
    const typed = b.screen.name === "echo-above-typed-box";
    out.push({
      label: `look-alike ${b.rel}`,
      cli: b.screen.cli,
      screen: { text: b.styled, cols, rows },
      approveExits: [12],
      send: typed || !/-idle-(box|input)$/.test(b.screen.name),
      driveMay: typed ? "\r" : undefined,
    });
  }
  for (const s of await recordedScreens()) {
    const isNew = s.version === "2.1.332" && NEW_2_1_332.includes(s.scenario);
    const wanted = s.state === "dialog" || /-limit-options$/.test(s.scenario) ||
      s.scenario === "auto-no-first-prompt";
    if (!wanted || (s.size !== "80x24" && !isNew)) continue;
    out.push({
      label: `recorded ${s.rel} (${s.state})`,
      cli: s.cli,
      screen: await loadScreen(s.rel),
      // 13 dialog, 18 not-affirmative, 12 for a dialog no live marker anchors (nothing to answer).
      approveExits: s.state === "prompt" ? [18] : [12, 13],
      send: true,
    });
  }
  return out;
}

function events(run: DroverRun): Loose[] {
  return run.stdout.split("\n").filter((l) => l.trim().startsWith("{")).map((l) => JSON.parse(l))
    .filter((e: Loose) => e.schema === "drover.event.v1");
}

Deno.test("no key where it does not belong: look-alikes, dialogs, No-first prompts and limit menus get nothing from approve, sweep.sh approve, send or drive", async () => {
  const all = await cases();
  for (const n of NEW_2_1_332) {
    for (const size of ["80x24", "120x40"]) {
      assert.ok(
        all.some((c) => c.label.includes(`2.1.332/${n}@${size}`)),
        `${n}@${size} missing from the matrix`,
      );
    }
  }
  await using srv: TestServer = await startTestServer();
  const tmp = await Deno.makeTempDir({ prefix: "drover-nokey-" });
  const panes: { pane: ReplayPane; c: Case }[] = [];
  const orch: ReplayPane[] = [];
  try {
    const sessions = new Set<string>();
    for (const c of all) {
      const session = `s${c.screen.cols}`;
      if (!sessions.has(session)) {
        sessions.add(session);
        const ready = await loadScreen(
          `claude-code/2.1.197/ready@${c.screen.cols}x${c.screen.rows}`,
        );
        const o = await startReplay(srv, ready, { session });
        await srv.tmux("set-option", "-p", "-t", o.paneId, "@drover-cli", "claude");
        orch.push(o);
      }
      const pane = await startReplay(srv, c.screen, { session, newWindow: true });
      await srv.tmux("set-option", "-p", "-t", pane.paneId, "@drover-cli", c.cli);
      panes.push({ pane, c });
    }
    const env = { XDG_RUNTIME_DIR: tmp };
    // sweep.sh reads each CLI's __prompt-profile rows once (tests/helpers/sweep_drover.ts); its
    // other calls (panes, __claim-paths) go to the real drover.
    const sweepBin = await sweepDrover(tmp);

    const wrong: string[] = [];
    let approves = 0, sweeps = 0, sends = 0, processes = 0;
    // A real drover process for approve and send on the first screen of each CLI and kind, the
    // commands' own code in this process on the rest (tests/helpers/in_process.ts).
    const jobs = firstOfEachKind(
      panes,
      ({ c }) => `${c.cli} ${c.label.split(" ")[0]} ${c.approveExits.join(",")}`,
    );
    await pool(jobs, 3, async ({ pane, c, first }) => {
      let a: { code: number };
      let out: Loose;
      if (first) {
        processes++;
        const p = await drover(["-L", srv.name, "--json", "approve", pane.paneId], { env });
        a = p;
        out = envelope(p);
      } else {
        const here = await approveHere(srv.name, pane.paneId);
        a = here;
        out = { data: here.data, error: here.error };
      }
      approves++;
      if (!c.approveExits.includes(a.code) || (out.data?.sent ?? []).length !== 0) {
        wrong.push(`${c.label}: approve exit ${a.code} ${JSON.stringify(out.data ?? out.error)}`);
      }
      const s = await new Deno.Command("bash", {
        args: [`${REPO_ROOT}sweep/sweep.sh`, "-L", srv.name, "approve", pane.paneId],
        env: { DROVER: sweepBin, XDG_RUNTIME_DIR: tmp, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      sweeps++;
      // The bash gate keeps the same rules and exit codes as the binary.
      if (s.code !== a.code) {
        wrong.push(
          `${c.label}: sweep.sh approve exit ${s.code} (drover ${a.code}) ${
            new TextDecoder().decode(s.stdout)
          }`,
        );
      }
      if (c.send) {
        const r = first
          ? await drover(["-L", srv.name, "--json", "send", pane.paneId, "1"], { env })
            .then((p) => ({ code: p.code, error: envelope(p).error, said: p.stdout.trim() }))
          : await sendHere(srv.name, pane.paneId, ["1"])
            .then((h) => ({ code: h.code, error: h.error, said: JSON.stringify(h) }));
        sends++;
        if (r.code !== 8 || r.error?.code !== "SEND_REFUSED") {
          wrong.push(`${c.label}: send exit ${r.code} ${r.said}`);
        }
      }
    });
    for (const { pane, c } of panes) {
      const k = await pane.settled();
      if (k !== "") wrong.push(`${c.label}: got ${JSON.stringify(k)} from approve/sweep.sh/send`);
    }
    for (const o of orch) assert.equal(await o.settled(), "");

    // drive, one tick per session, allowlisting the commands the screens show.
    for (const session of sessions) {
      const run = await drover([
        "-L",
        srv.name,
        "drive",
        "--session",
        session,
        "--state",
        `${tmp}/state`,
        "--once",
        "--json",
        "--approve",
        "allowlist",
        "--allow",
        "node",
        "--allow",
        "touch",
        "--allow",
        "npm",
      ], { env });
      if (run.code !== 0) wrong.push(`drive ${session}: exit ${run.code} ${run.stderr}`);
      for (const e of events(run)) {
        if (e.event === "approved" || e.event === "nudged") {
          wrong.push(`drive ${session}: ${e.event} on ${e.pane} ${e.message}`);
        }
      }
    }
    for (const { pane, c } of panes) {
      const k = await pane.settled();
      if (k !== (c.driveMay ?? "")) wrong.push(`${c.label}: drive sent ${JSON.stringify(k)}`);
    }
    for (const o of orch) assert.equal(await o.settled(), "");
    assert.deepEqual(wrong, []);
    assert.ok(panes.length >= 40 && sends >= 30, `${panes.length} screens, ${sends} sends`);
    assert.ok(processes >= 10, `only ${processes} screens met real drover processes`);
    console.log(
      `${panes.length} screens: ${approves} approve, ${sweeps} sweep.sh approve, ${sends} send (${processes} screens by real processes, the rest in this process), ${sessions.size} drive ticks — no key`,
    );
  } finally {
    for (const p of [...orch, ...panes.map((x) => x.pane)]) await cleanupReplay(p);
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
});
