/**
 * `drover panes --watch`: the live board. This module owns the terminal (alternate screen, hidden
 * cursor, raw keys) and the refresh loop; what the board shows is lib/board's (pure). Every way out
 * — q, Ctrl-C, SIGINT/SIGTERM/SIGHUP, an error — goes through one restore: colours reset, cursor
 * shown, main screen back, raw mode off.
 */
import { sleep } from "../base/sleep.ts";
import type { Config } from "../config/load.ts";
import { EventsTail, type EventsView } from "../board/events.ts";
import { ENTER, frameUpdate, LEAVE } from "../board/frame.ts";
import { type BoardPane, renderBoard } from "../board/render.ts";
import { type Since, trackStates } from "../board/since.ts";
import type { TmuxServer } from "../tmux/run.ts";
import type { CommandResult, GlobalOptions } from "./output.ts";
import { type PaneSnapshot, snapshotPanes } from "./panes_snapshot.ts";

export interface WatchOptions {
  server: TmuxServer;
  config: Config;
  g: GlobalOptions;
  session?: string;
  cli?: string;
  intervalMs: number;
  events?: string;
}

const STOP_SIGNALS: Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const encoder = new TextEncoder();

/** Write all of `text` to the terminal (a large frame may take more than one write). */
function put(text: string): void {
  const bytes = encoder.encode(text);
  let done = 0;
  while (done < bytes.length) done += Deno.stdout.writeSync(bytes.subarray(done));
}

function boardPane(s: PaneSnapshot): BoardPane {
  const v = s.verdicts;
  const reason = v?.cli_unavailable ?? v?.stream_error ??
    (v?.state === "dialog" ? v.dialog : null) ?? null;
  return {
    id: s.row.id,
    target: s.row.target,
    cli: s.row.cli,
    role: s.row.role,
    state: s.row.state,
    mode: s.row.mode,
    title: s.row.title,
    command: v?.live_prompt ? v.command : null,
    reason,
  };
}

function terminalSize(): { cols: number; rows: number } {
  try {
    const { columns, rows } = Deno.consoleSize();
    return { cols: columns, rows };
  } catch {
    return { cols: 80, rows: 24 };
  }
}

export async function watch(o: WatchOptions): Promise<CommandResult<{ watched: true }>> {
  const intervalMs = o.intervalMs;
  const tail = o.events === undefined ? undefined : new EventsTail(o.events);
  const poll = async () => {
    const snaps = await snapshotPanes(o.server, o.config, {
      session: o.session,
      cli: o.cli,
      board: true,
    });
    return snaps.map(boardPane);
  };
  // The first refresh runs before the terminal is touched: a bad session or a missing tmux is a
  // plain error on the main screen.
  let panes = await poll();
  let events: EventsView | undefined = await tail?.poll();
  let since: Map<string, Since> = trackStates(undefined, panes, Date.now());
  let error: string | null = null;

  let stopped = false;
  let wake: (() => void) | undefined;
  let resized = false;
  const stop = () => {
    stopped = true;
    wake?.();
  };
  const onResize = () => {
    resized = true;
    wake?.();
  };
  const stdinTty = Deno.stdin.isTerminal();
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    for (const s of STOP_SIGNALS) Deno.removeSignalListener(s, stop);
    try {
      Deno.removeSignalListener("SIGWINCH", onResize);
    } catch {
      // not registered (a platform without SIGWINCH)
    }
    put(LEAVE);
    if (stdinTty) Deno.stdin.setRaw(false);
  };

  for (const s of STOP_SIGNALS) Deno.addSignalListener(s, stop);
  try {
    Deno.addSignalListener("SIGWINCH", onResize);
  } catch {
    // no SIGWINCH here: the next refresh picks the new size up
  }
  try {
    // Raw keys: q or Ctrl-C arrive as bytes at once, without Enter and without echo.
    if (stdinTty) {
      Deno.stdin.setRaw(true);
      readKeys(stop);
    }
    put(ENTER);
    let shown: string[] | null = null;
    let size = terminalSize();
    while (!stopped) {
      const now = Date.now();
      const lines = renderBoard({
        panes,
        since,
        events: events && tail ? { ...events, file: tail.path } : undefined,
        now,
        ...size,
        color: o.g.color,
        scope: o.session ? `session ${o.session}` : "all sessions",
        intervalMs,
        error,
      });
      put(frameUpdate(shown, lines));
      shown = lines;
      const woken = new AbortController();
      wake = () => woken.abort();
      await sleep(intervalMs, woken.signal);
      wake = undefined;
      if (stopped) break;
      if (resized) {
        resized = false;
        size = terminalSize();
        shown = null;
        continue;
      }
      const next = terminalSize();
      if (next.cols !== size.cols || next.rows !== size.rows) {
        size = next;
        shown = null;
      }
      try {
        panes = await poll();
        since = trackStates(since, panes, Date.now());
        error = null;
      } catch (e) {
        // Keep the last board and say why it is stale; the next refresh tries again.
        error = e instanceof Error ? e.message : String(e);
      }
      if (tail) events = await tail.poll();
    }
  } finally {
    restore();
  }
  return { data: { watched: true }, human: [] };
}

/** Read keys until q, Q or Ctrl-C (or stdin ends), then call `stop`. */
function readKeys(stop: () => void): void {
  (async () => {
    const buf = new Uint8Array(64);
    while (true) {
      let n: number | null;
      try {
        n = await Deno.stdin.read(buf);
      } catch {
        n = null;
      }
      if (n === null) return stop();
      for (const b of buf.subarray(0, n)) {
        if (b === 0x71 || b === 0x51 || b === 0x03) return stop();
      }
    }
  })();
}
