/**
 * Creating panes for `drover launch`: new-session / new-window / split-window, always detached
 * (-d) and always reporting the exact ids tmux printed for what it created (-P -F), never the
 * "current" window or pane. Plus the selection snapshot that proves a background launch moved
 * nothing, and the pane option/title setters launch needs.
 */
import { DroverError } from "../errors.ts";
import { data, fmt, paneId, text, type TmuxArg, word } from "./arg.ts";
import { nonce, sessionTarget } from "./panes.ts";
import { isMissingTarget, tmux, tmuxFailure, type TmuxServer } from "./run.ts";
import { clip } from "../base/clip.ts";

export interface CreatedPane {
  session_id: string;
  session_name: string;
  window_id: string;
  window_index: number;
  pane_id: string;
  pane_index: number;
}

export type SplitDirection = "right" | "left" | "up" | "down";

export interface CreateSpec {
  /**
   * argv tmux execs directly for the pane (at least 2 elements, so no shell parses it; tmux does
   * not expand formats in it).
   */
  command: string[];
  cwd?: string;
  /** Launch-scoped environment of the pane's process (tmux -e). */
  env?: Record<string, string>;
  /** Window name for a new window/session (also stops automatic-rename). */
  windowName?: string;
}

/** What createdFormat() prints, in order (the format itself is a literal so nothing is escaped). */
const CREATED_FIELDS = [
  "session_id",
  "session_name",
  "window_id",
  "window_index",
  "pane_id",
  "pane_index",
];

function createdFormat(sep: string): TmuxArg {
  return fmt`#{session_id}${sep}#{session_name}${sep}#{window_id}${sep}#{window_index}${sep}#{pane_id}${sep}#{pane_index}`;
}

function parseCreated(stdout: string, sep: string): CreatedPane {
  const line = stdout.replace(/\n$/, "");
  const f = line.split(sep);
  if (f.length !== CREATED_FIELDS.length || !/^%[0-9]+$/.test(f[4] ?? "")) {
    throw new DroverError(
      "CREATE_FAILED",
      `tmux created something but did not report its ids (got ${JSON.stringify(line)}); check ` +
        "`tmux list-panes -a` and close any stray pane",
    );
  }
  return {
    session_id: f[0]!,
    session_name: f[1]!,
    window_id: f[2]!,
    window_index: Number(f[3]),
    pane_id: f[4]!,
    pane_index: Number(f[5]),
  };
}

/** -c (a format position: its `#`s are doubled) and -e (verbatim). */
function commonArgs(spec: CreateSpec): TmuxArg[] {
  const a: TmuxArg[] = [];
  if (spec.cwd !== undefined) a.push(word("-c"), text(spec.cwd));
  for (const [k, v] of Object.entries(spec.env ?? {})) a.push(word("-e"), data(`${k}=${v}`));
  return a;
}

function commandArgs(spec: CreateSpec): TmuxArg[] {
  return [word("--"), ...spec.command.map(data)];
}

async function create(
  server: TmuxServer,
  cmd: TmuxArg,
  args: TmuxArg[],
  what: string,
): Promise<CreatedPane> {
  const sep = `\u001f${nonce()}\u001f`;
  const full = [cmd, word("-P"), word("-F"), createdFormat(sep), ...args];
  const r = await tmux(server, full, { allowFailure: true });
  if (r.code !== 0) {
    const msg = clip(r.stderr.trim() || `exit code ${r.code}`, 300);
    const failure = tmuxFailure(server, full, r);
    if (failure.code === "TMUX_UNAVAILABLE") throw failure;
    if (isMissingTarget(msg)) {
      throw new DroverError("TARGET_NOT_FOUND", `cannot create ${what}: ${msg}`);
    }
    throw new DroverError("CREATE_FAILED", `tmux could not create ${what}: ${msg}`, {
      details: { stderr: clip(r.stderr, 2000) },
    });
  }
  return parseCreated(r.stdout, sep);
}

/** A new detached session whose first window runs the command. */
export function newSession(
  server: TmuxServer,
  session: string,
  spec: CreateSpec,
): Promise<CreatedPane> {
  const args = [word("-d"), word("-s"), text(session), ...commonArgs(spec)];
  if (spec.windowName !== undefined) args.push(word("-n"), text(spec.windowName));
  return create(
    server,
    word("new-session"),
    [...args, ...commandArgs(spec)],
    `session "${clip(session, 80)}"`,
  );
}

/** A new window (never selected: -d) at the next free index of the session (given by id or =name). */
export function newWindow(
  server: TmuxServer,
  sessionTarget: string,
  spec: CreateSpec,
): Promise<CreatedPane> {
  const args = [word("-d"), word("-t"), data(`${sessionTarget}:`), ...commonArgs(spec)];
  if (spec.windowName !== undefined) args.push(word("-n"), text(spec.windowName));
  return create(
    server,
    word("new-window"),
    [...args, ...commandArgs(spec)],
    `a window in ${sessionTarget}`,
  );
}

/** Split exactly the anchor pane (by id); never falls back to a window. Never selects (-d). */
export function splitPane(
  server: TmuxServer,
  anchorPaneId: string,
  direction: SplitDirection,
  spec: CreateSpec,
): Promise<CreatedPane> {
  const dir = direction === "right" || direction === "left" ? word("-h") : word("-v");
  const before = direction === "left" || direction === "up" ? [word("-b")] : [];
  const args = [word("-d"), dir, ...before, word("-t"), paneId(anchorPaneId), ...commonArgs(spec)];
  return create(
    server,
    word("split-window"),
    [...args, ...commandArgs(spec)],
    `a pane beside ${anchorPaneId}`,
  );
}

/** True when a session with exactly this name exists. */
export async function sessionExists(server: TmuxServer, name: string): Promise<boolean> {
  // Targets are not format-expanded: the name is matched as it is stored, exactly (`=NAME:`).
  const r = await tmux(server, [word("has-session"), word("-t"), sessionTarget(name)], {
    allowFailure: true,
  });
  if (r.code === 0) return true;
  if (/no server running|error connecting|failed to connect/i.test(r.stderr)) return false;
  return false;
}

/** The session id of a pane (for "inside tmux, launch into my own session"). */
export async function sessionOfPane(server: TmuxServer, pane: string): Promise<string | null> {
  const r = await tmux(
    server,
    [word("display-message"), word("-p"), word("-t"), paneId(pane), fmt`#{session_id}`],
    { allowFailure: true },
  );
  const id = r.stdout.trim();
  return r.code === 0 && /^\$[0-9]+$/.test(id) ? id : null;
}

/** Which window each session shows and which pane each window has active. */
export interface Selection {
  /** session id → active window id */
  windows: Record<string, string>;
  /** window id → active pane id */
  panes: Record<string, string>;
}

export async function selectionSnapshot(server: TmuxServer): Promise<Selection> {
  const r = await tmux(server, [
    word("list-panes"),
    word("-a"),
    word("-F"),
    fmt`#{session_id} #{window_id} #{window_active} #{pane_id} #{pane_active}`,
  ], { allowFailure: true });
  const sel: Selection = { windows: {}, panes: {} };
  if (r.code !== 0) return sel; // no server yet: nothing selected
  for (const line of r.stdout.split("\n")) {
    const [s, w, wa, p, pa] = line.split(" ");
    if (!s || !w || !p) continue;
    if (wa === "1") sel.windows[s] = w;
    if (pa === "1") sel.panes[w] = p;
  }
  return sel;
}

/** True when every session and window that existed before still has the same selection. */
export function selectionPreserved(before: Selection, after: Selection): boolean {
  for (const [s, w] of Object.entries(before.windows)) {
    if (after.windows[s] !== undefined && after.windows[s] !== w) return false;
  }
  for (const [w, p] of Object.entries(before.panes)) {
    if (after.panes[w] !== undefined && after.panes[w] !== p) return false;
  }
  return true;
}

/** select-pane -T expands formats: the title's `#`s are doubled so it comes out as written. */
export async function setPaneTitle(server: TmuxServer, pane: string, title: string) {
  await tmux(server, [word("select-pane"), word("-t"), paneId(pane), word("-T"), text(title)]);
}

/** Bring a created window/pane to the front (foreground launch, after creating it detached). */
export async function selectCreated(server: TmuxServer, c: CreatedPane): Promise<void> {
  await tmux(server, [word("select-window"), word("-t"), data(c.window_id)]);
  await tmux(server, [word("select-pane"), word("-t"), paneId(c.pane_id)]);
}
