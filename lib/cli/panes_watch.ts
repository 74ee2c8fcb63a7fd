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

/** What the board shows between refreshes. */
interface BoardState {
  panes: BoardPane[];
  since: Map<string, Since>;
  events: EventsView | undefined;
  /** The last refresh's failure, until one succeeds. */
  error: string | null;
}

async function pollPanes(o: WatchOptions): Promise<BoardPane[]> {
  const snaps = await snapshotPanes(o.server, o.config, {
    session: o.session,
    cli: o.cli,
    board: true,
  });
  return snaps.map(boardPane);
}

/** The next board state: a failed pane refresh keeps the last panes and says why they are stale. */
async function refreshed(
  o: WatchOptions,
  tail: EventsTail | undefined,
  last: BoardState,
): Promise<BoardState> {
  let next: BoardState;
  try {
    const panes = await pollPanes(o);
    next = { ...last, panes, since: trackStates(last.since, panes, Date.now()), error: null };
  } catch (e) {
    // The next refresh tries again.
    next = { ...last, error: e instanceof Error ? e.message : String(e) };
  }
  if (tail) next.events = await tail.poll();
  return next;
}

function frame(
  o: WatchOptions,
  tail: EventsTail | undefined,
  st: BoardState,
  size: { cols: number; rows: number },
): string[] {
  return renderBoard({
    panes: st.panes,
    since: st.since,
    events: st.events && tail ? { ...st.events, file: tail.path } : undefined,
    now: Date.now(),
    ...size,
    color: o.g.color,
    scope: o.session ? `session ${o.session}` : "all sessions",
    intervalMs: o.intervalMs,
    error: st.error,
  });
}

/**
 * The terminal while the board is up: the stop and resize signals, raw keys, the alternate
 * screen, and the wait between refreshes that a stop or a resize cuts short. `restore` undoes
 * all of it once, whichever way the board ends.
 */
class BoardTerminal {
  stopped = false;
  private resized = false;
  private wake: (() => void) | undefined;
  private restored = false;
  private readonly stdinTty = Deno.stdin.isTerminal();
  private readonly stop = () => {
    this.stopped = true;
    this.wake?.();
  };
  private readonly onResize = () => {
    this.resized = true;
    this.wake?.();
  };

  listen(): void {
    for (const s of STOP_SIGNALS) Deno.addSignalListener(s, this.stop);
    try {
      Deno.addSignalListener("SIGWINCH", this.onResize);
    } catch {
      // no SIGWINCH here: the next refresh picks the new size up
    }
  }

  /**
   * Raw keys (q or Ctrl-C arrive as bytes at once, without Enter and without echo), then the
   * alternate screen.
   */
  enter(): void {
    if (this.stdinTty) {
      Deno.stdin.setRaw(true);
      readKeys(this.stop);
    }
    put(ENTER);
  }

  async nap(ms: number): Promise<void> {
    const woken = new AbortController();
    this.wake = () => woken.abort();
    await sleep(ms, woken.signal);
    this.wake = undefined;
  }

  /** Whether a resize came since the last call. */
  takeResize(): boolean {
    const r = this.resized;
    this.resized = false;
    return r;
  }

  restore(): void {
    if (this.restored) return;
    this.restored = true;
    for (const s of STOP_SIGNALS) Deno.removeSignalListener(s, this.stop);
    try {
      Deno.removeSignalListener("SIGWINCH", this.onResize);
    } catch {
      // not registered (a platform without SIGWINCH)
    }
    put(LEAVE);
    if (this.stdinTty) Deno.stdin.setRaw(false);
  }
}

export async function watch(o: WatchOptions): Promise<CommandResult<{ watched: true }>> {
  const tail = o.events === undefined ? undefined : new EventsTail(o.events);
  // The first refresh runs before the terminal is touched: a bad session or a missing tmux is a
  // plain error on the main screen.
  const panes = await pollPanes(o);
  let st: BoardState = {
    panes,
    events: await tail?.poll(),
    since: trackStates(undefined, panes, Date.now()),
    error: null,
  };
  const term = new BoardTerminal();
  term.listen();
  try {
    term.enter();
    let shown: string[] | null = null;
    let size = terminalSize();
    while (!term.stopped) {
      const lines = frame(o, tail, st, size);
      put(frameUpdate(shown, lines));
      shown = lines;
      await term.nap(o.intervalMs);
      if (term.stopped) break;
      if (term.takeResize()) {
        size = terminalSize();
        shown = null;
        continue;
      }
      const next = terminalSize();
      if (next.cols !== size.cols || next.rows !== size.rows) {
        size = next;
        shown = null;
      }
      st = await refreshed(o, tail, st);
    }
  } finally {
    term.restore();
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
