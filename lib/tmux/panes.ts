/**
 * Pane inventory: every fact drover needs about the panes of a server (or one session) from ONE
 * list-panes call, and exact target resolution on top of it.
 */
import { DroverError, invalidArgument } from "../errors.ts";
import { data, fmt, word } from "./arg.ts";
import { isMissingTarget, tmux, type TmuxServer } from "./run.ts";
import { clip } from "../base/clip.ts";

export interface PaneInfo {
  /** tmux pane id, e.g. "%12": stable for the pane's life, used for every later command. */
  id: string;
  sessionName: string;
  sessionId: string;
  windowIndex: number;
  windowId: string;
  windowName: string;
  paneIndex: number;
  title: string;
  currentCommand: string;
  currentPath: string;
  pid: number;
  width: number;
  height: number;
  active: boolean;
  windowActive: boolean;
  dead: boolean;
  /** The @drover-cli pane option ("" when unset). */
  droverCli: string;
  /** tmux's synchronize-panes for this pane (its own or its window's): keys to it are broadcast. */
  synchronized: boolean;
  /**
   * Some pane of this pane's window has synchronize-panes on. drover sends no key into such a
   * window (issue 16): a key to a synchronized pane reaches every other synchronized pane.
   */
  windowSynchronized: boolean;
  /** "session:window.pane" */
  target: string;
}

/** What listPanes' format prints, in order (the format itself is a literal in listPanes). */
const FIELDS = [
  "pane_id",
  "session_name",
  "session_id",
  "window_index",
  "window_id",
  "window_name",
  "pane_index",
  "pane_title",
  "pane_current_command",
  "pane_current_path",
  "pane_pid",
  "pane_width",
  "pane_height",
  "pane_active",
  "window_active",
  "pane_dead",
  "@drover-cli",
  "synchronize-panes",
] as const;

/**
 * A separator no screen can forge: random per call, so a pane title that happens to contain a
 * fixed delimiter cannot shift the fields of the row.
 */
export function nonce(): string {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

function parseRows(stdout: string, sep: string, end: string): PaneInfo[] {
  const rows: PaneInfo[] = [];
  // Each row ends with its own end marker, so a newline inside a title cannot split a row.
  for (const chunk of stdout.split(end + "\n")) {
    const text = chunk.replace(/^\n+/, "");
    if (text.trim() === "") continue;
    const f = text.split(sep);
    if (f.length !== FIELDS.length) continue;
    const [
      id,
      sessionName,
      sessionId,
      windowIndex,
      windowId,
      windowName,
      paneIndex,
      title,
      currentCommand,
      currentPath,
      pid,
      width,
      height,
      active,
      windowActive,
      dead,
      droverCli,
      sync,
    ] = f;
    rows.push({
      id,
      sessionName,
      sessionId,
      windowIndex: Number(windowIndex),
      windowId,
      windowName,
      paneIndex: Number(paneIndex),
      title,
      currentCommand,
      currentPath,
      pid: Number(pid),
      width: Number(width),
      height: Number(height),
      active: active === "1",
      windowActive: windowActive === "1",
      dead: dead === "1",
      droverCli,
      synchronized: sync === "1",
      windowSynchronized: false,
      target: `${sessionName}:${windowIndex}.${paneIndex}`,
    });
  }
  // list-panes lists whole windows (-a, -s), so every pane of a row's window is in `rows`.
  const synced = new Set(rows.filter((r) => r.synchronized).map((r) => r.windowId));
  for (const r of rows) r.windowSynchronized = synced.has(r.windowId);
  return rows;
}

/**
 * A session given by name as an exact tmux target: `=NAME:`. tmux resolves a bare `NAME` by
 * prefix ("d" finds "drv"), and `list-panes -t =NAME` reads it as a WINDOW target first (a window
 * named "d" in any session wins); the trailing colon makes it a session, the `=` an exact name.
 */
export function sessionTarget(name: string) {
  return data(`=${name}:`);
}

export interface ListOptions {
  /** Only the panes of this session (exact name match); default: every pane of the server. */
  session?: string;
}

/** Every pane of the server (or of one session) in one tmux call, sorted by session/window/pane. */
export async function listPanes(server: TmuxServer, opts: ListOptions = {}): Promise<PaneInfo[]> {
  const sep = `\u001f${nonce()}\u001f`;
  const end = `\u001e${nonce()}`;
  const format =
    fmt`#{pane_id}${sep}#{session_name}${sep}#{session_id}${sep}#{window_index}${sep}#{window_id}${sep}#{window_name}${sep}#{pane_index}${sep}#{pane_title}${sep}#{pane_current_command}${sep}#{pane_current_path}${sep}#{pane_pid}${sep}#{pane_width}${sep}#{pane_height}${sep}#{pane_active}${sep}#{window_active}${sep}#{pane_dead}${sep}#{@drover-cli}${sep}#{synchronize-panes}${end}`;
  const args = opts.session === undefined
    ? [word("list-panes"), word("-a"), word("-F"), format]
    : [word("list-panes"), word("-s"), word("-t"), sessionTarget(opts.session), word("-F"), format];
  const r = await tmux(server, args, { allowFailure: true });
  if (r.code !== 0) {
    const msg = r.stderr.trim();
    if (opts.session !== undefined && isMissingTarget(msg)) {
      throw new DroverError(
        "TARGET_NOT_FOUND",
        `no tmux session named "${clip(opts.session, 80)}" (see \`tmux list-sessions\`)`,
      );
    }
    // Re-run through the primitive so the usual TMUX_UNAVAILABLE / TMUX_FAILED mapping applies.
    await tmux(server, args);
  }
  // Same-session rows skip localeCompare: its first call builds an ICU collator (~10 ms).
  return parseRows(r.stdout, sep, end).sort((a, b) =>
    (a.sessionName === b.sessionName ? 0 : a.sessionName.localeCompare(b.sessionName)) ||
    a.windowIndex - b.windowIndex || a.paneIndex - b.paneIndex
  );
}

export type ParsedTarget =
  | { kind: "id"; id: string }
  | { kind: "path"; session: string; window: number; pane: number };

/** `%12` or `session:window.pane`; anything else is a usage error naming both forms. */
export function parseTarget(target: string): ParsedTarget {
  const t = target.trim();
  if (/^%[0-9]+$/.test(t)) return { kind: "id", id: t };
  const m = /^(.+):([0-9]+)\.([0-9]+)$/.exec(t);
  if (m && m[1] !== "") {
    return { kind: "path", session: m[1], window: Number(m[2]), pane: Number(m[3]) };
  }
  throw invalidArgument(
    `invalid target "${
      clip(target, 80)
    }": use a tmux pane id (%12) or session:window.pane (agents:0.1)`,
  );
}

/**
 * Resolve a target to exactly one pane. Matching is exact: tmux's own target lookup accepts
 * prefixes and patterns, which could land a keystroke in a pane nobody named.
 */
export async function resolveTarget(server: TmuxServer, target: string): Promise<PaneInfo> {
  const parsed = parseTarget(target);
  const panes = parsed.kind === "path"
    ? await listPanes(server, { session: parsed.session }).catch((e) => {
      if (e instanceof DroverError && e.code === "TARGET_NOT_FOUND") {
        throw new DroverError(
          "TARGET_NOT_FOUND",
          `target ${clip(target, 80)} not found: no session "${
            clip(parsed.session, 80)
          }" on this tmux server`,
        );
      }
      throw e;
    })
    : await listPanes(server);
  const hit = panes.find((p) =>
    parsed.kind === "id"
      ? p.id === parsed.id
      : p.sessionName === parsed.session && p.windowIndex === parsed.window &&
        p.paneIndex === parsed.pane
  );
  if (!hit) {
    throw new DroverError(
      "TARGET_NOT_FOUND",
      `target ${target} not found on this tmux server (list panes with \`drover panes\`)`,
    );
  }
  return hit;
}

/**
 * The session's default orchestrator: pane 0 of window 0, or — when base-index/pane-base-index
 * move the numbering — the first pane of the first window, so a renumbered session still has one.
 */
export function firstPaneOf(panes: PaneInfo[], session: string): PaneInfo | undefined {
  let best: PaneInfo | undefined;
  for (const p of panes) {
    if (p.sessionName !== session) continue;
    if (
      !best || p.windowIndex < best.windowIndex ||
      (p.windowIndex === best.windowIndex && p.paneIndex < best.paneIndex)
    ) best = p;
  }
  return best;
}
