/**
 * Cost of one drive tick over 10 panes (replay doubles showing recorded real Claude Code screens)
 * next to 10 bare `tmux capture-pane` calls — the naive way to look at 10 panes. 2,000 ticks;
 * memory and open file descriptors are printed at the start and the end, so a leak shows.
 *
 *   deno bench -A --v8-flags=--enable-experimental-regexp-engine-on-excessive-backtracks tests/bench/drive_bench.ts
 */
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { TmuxDriveHost } from "../../lib/drive/host_tmux.ts";
import { DriveLoop } from "../../lib/drive/run.ts";
import { freshState } from "../../lib/drive/state.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer } from "../helpers/tmux_server.ts";

const TICKS = 2000;
const BARE_ROUNDS = 100;
const SCREENS = [
  "ready",
  "busy",
  "narration",
  "interrupted",
  "mode-accept-edits",
  "mode-plan",
  "bash-answered",
  "bash-rejected",
  "bash-prompt",
  "bypass-warning",
].map((s) => `claude-code/2.1.197/${s}@120x40`);

function fdCount(): number {
  return [...Deno.readDirSync("/proc/self/fd")].length;
}

function snapshot(label: string): string {
  const m = Deno.memoryUsage();
  const mb = (n: number) => (n / 1048576).toFixed(1);
  return `${label}: rss ${mb(m.rss)} MiB, heap used ${mb(m.heapUsed)} MiB, open fds ${fdCount()}`;
}

const srv = await startTestServer({ width: 120, height: 40 });
const panes: ReplayPane[] = [];
for (const [i, rel] of SCREENS.entries()) {
  panes.push(await startReplay(srv, await loadScreen(rel), { session: "bench", newWindow: i > 0 }));
}
const stateDir = await Deno.makeTempDir({ prefix: "drover-bench-" });
const sock = (await srv.tmux("display-message", "-p", "#{socket_path}")).trim();
const host = new TmuxDriveHost({
  server: { socketName: srv.name },
  config: EMPTY_CONFIG,
  session: "bench",
  claimBases: [stateDir],
  socketPath: sock,
});
let escalations = 0;
const loop = new DriveLoop(
  host,
  {
    session: "bench",
    once: false,
    intervalMs: 1000,
    settings: { approve: "none", allow: [], dedupWindowMs: 300_000 },
    confirmMs: 1000,
    verifyMs: 1000,
    statePath: `${stateDir}/state.json`,
  },
  freshState("bench"),
  (e) => {
    if (e.event === "escalated") escalations++;
  },
);

const start = snapshot("start");
let ticks = 0;
let bareRounds = 0;
const tickTimes: number[] = [];
const bareTimes: number[] = [];

async function bareCaptures(): Promise<void> {
  for (const p of panes) {
    await new Deno.Command("tmux", {
      args: ["-L", srv.name, "capture-pane", "-p", "-J", "-t", p.paneId],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function finish(): Promise<void> {
  const end = snapshot("end");
  const tick = median(tickTimes);
  const bare = median(bareTimes);
  console.log(
    [
      "",
      `drive bench: ${ticks} ticks over ${panes.length} panes (replay doubles, real Claude Code screens)`,
      `  median drive tick        ${
        tick.toFixed(2)
      } ms (list + batched plain/styled capture + detect x10 + state write)`,
      `  median 10 bare captures  ${
        bare.toFixed(2)
      } ms (10 x tmux capture-pane -p -J, ${bareRounds} rounds)`,
      `  ratio tick / bare        ${(tick / bare).toFixed(2)}`,
      `  escalations emitted      ${escalations} (2 prompt/dialog panes, once per 5-minute dedup window)`,
      `  ${start}`,
      `  ${end}`,
      "",
    ].join("\n"),
  );
  for (const p of panes) await cleanupReplay(p);
  await srv[Symbol.asyncDispose]();
  await Deno.remove(stateDir, { recursive: true }).catch(() => {});
}

Deno.bench({
  name: "10 bare tmux capture-pane calls",
  group: "tick over 10 panes",
  baseline: true,
  n: BARE_ROUNDS,
  warmup: 0,
  async fn() {
    if (bareRounds >= BARE_ROUNDS) return; // deno bench may call a few extra times
    const t0 = performance.now();
    await bareCaptures();
    bareTimes.push(performance.now() - t0);
    bareRounds++;
  },
});

Deno.bench({
  name: "drive tick (10 panes)",
  group: "tick over 10 panes",
  n: TICKS,
  warmup: 0,
  async fn() {
    if (ticks >= TICKS) return; // deno bench may call a few extra times; the server is gone by then
    const t0 = performance.now();
    const end = await loop.tick();
    tickTimes.push(performance.now() - t0);
    if (end) throw new Error(`tick ended the loop: ${end.message}`);
    ticks++;
    if (ticks === TICKS) await finish();
  },
});
