/**
 * Issue 16, finding 5 on real tmux: `send` judges a fresh capture BEFORE it types anything. Busy,
 * retrying an API error, a live permission prompt, a dialog, an unavailable CLI: refused
 * (SEND_REFUSED, exit 8) and the recording replay double received not one byte. Every recorded
 * real screen of those states, of every CLI, is tried.
 */
import assert from "node:assert/strict";
import { pool } from "../helpers/pool.ts";
import { drover, envelope } from "../helpers/drover.ts";
import { firstOfEachKind, sendHere } from "../helpers/in_process.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer } from "../helpers/tmux_server.ts";
import { type RecordedScreen, recordedScreens } from "../helpers/recorded.ts";

const REFUSE = new Set(["busy", "prompt", "dialog", "unavailable"]);

/** One size per scenario is enough here: the verdicts hold at both (unit-tested). */
async function cases(): Promise<RecordedScreen[]> {
  return (await recordedScreens()).filter((s) => REFUSE.has(s.state) && s.size === "80x24");
}

Deno.test("send refuses busy, retrying, prompt, dialog and unavailable panes of every CLI before typing a byte", async () => {
  const all = await cases();
  assert.ok(all.some((c) => /retry/.test(c.scenario)), "no recorded retrying screen");
  for (const st of REFUSE) assert.ok(all.some((c) => c.state === st), `no recorded ${st} screen`);
  await using srv = await startTestServer({ width: 80, height: 24 });
  const panes: { pane: ReplayPane; c: RecordedScreen }[] = [];
  try {
    for (const c of all) {
      const pane = await startReplay(srv, await loadScreen(c.rel), {
        session: "s",
        newWindow: panes.length > 0,
      });
      await srv.tmux("set-option", "-p", "-t", pane.paneId, "@drover-cli", c.cli);
      panes.push({ pane, c });
    }
    const wrong: string[] = [];
    const namedRetrying = new Set<string>();
    // A real `drover send` process on the first screen of each CLI and state, the command's own
    // code in this process on the rest (tests/helpers/in_process.ts): the same judgement of the
    // same real pane before any byte.
    const jobs = firstOfEachKind(panes, ({ c }) => `${c.cli} ${c.state}`);
    const processes = jobs.filter((j) => j.first).length;
    // Four panes at a time: each send judges only its own pane.
    await pool(jobs, 4, async ({ pane, c, first }) => {
      let code: number;
      let error: { code: string; details?: Record<string, unknown> } | undefined;
      let said: string;
      if (first) {
        const run = await drover(["-L", srv.name, "--json", "send", pane.paneId, "hello 1"]);
        const env = envelope(run);
        code = run.code;
        error = env.error;
        said = JSON.stringify(env.error ?? env.data);
      } else {
        const here = await sendHere(srv.name, pane.paneId, ["hello 1"]);
        code = here.code;
        error = here.error;
        said = JSON.stringify(here.error ?? here.data);
      }
      if (code !== 8 || error?.code !== "SEND_REFUSED") {
        wrong.push(`${c.rel}: exit ${code} ${said}`);
      } else if (/retry/.test(c.scenario) && error.details?.state === "retrying") {
        // Gemini and Qwen retry silently (their screen is plain busy); the others say so.
        namedRetrying.add(c.cli);
      }
    });
    // Every sender has finished: once a double reads its sentinel, a stray byte would be there.
    for (const { pane, c } of panes) {
      const k = await pane.settled();
      if (k !== "") wrong.push(`${c.rel}: received ${JSON.stringify(k)}`);
    }
    assert.ok(processes >= 7, `only ${processes} screens met a real drover send`);
    assert.deepEqual(wrong, []);
    assert.ok(namedRetrying.has("claude") && namedRetrying.has("codex"), [...namedRetrying].join());
  } finally {
    for (const { pane } of panes) await cleanupReplay(pane);
  }
});
