/**
 * Issue 16, finding 5 on real tmux: `send` judges a fresh capture BEFORE it types anything. Busy,
 * retrying an API error, a live permission prompt, a dialog, an unavailable CLI: refused
 * (SEND_REFUSED, exit 8) and the recording replay double received not one byte. Every recorded
 * real screen of those states, of every CLI, is tried.
 */
import assert from "node:assert/strict";
import { drover, envelope } from "../helpers/drover.ts";
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
    for (const { pane, c } of panes) {
      const run = await drover(["-L", srv.name, "--json", "send", pane.paneId, "hello 1"]);
      const env = envelope(run);
      if (run.code !== 8 || env.error?.code !== "SEND_REFUSED") {
        wrong.push(`${c.rel}: exit ${run.code} ${JSON.stringify(env.error ?? env.data)}`);
      } else if (/retry/.test(c.scenario) && env.error.details?.state === "retrying") {
        // Gemini and Qwen retry silently (their screen is plain busy); the others say so.
        namedRetrying.add(c.cli);
      }
    }
    await new Promise((r) => setTimeout(r, 400));
    for (const { pane, c } of panes) {
      const k = await pane.keys();
      if (k !== "") wrong.push(`${c.rel}: received ${JSON.stringify(k)}`);
    }
    assert.deepEqual(wrong, []);
    assert.ok(namedRetrying.has("claude") && namedRetrying.has("codex"), [...namedRetrying].join());
  } finally {
    for (const { pane } of panes) await cleanupReplay(pane);
  }
});
