/**
 * Creating panes for `drover launch`: new-session / new-window / split-window, always detached
 * (-d) and always reporting the exact ids tmux printed for what it created (-P -F), never the
 * "current" window or pane. Plus the selection snapshot that proves a background launch moved
 * nothing, and the pane option/title setters launch needs.
 */
import { DroverError } from "../errors.ts";
import { nonce } from "./panes.ts";
import { isMissingTarget, tmux, type TmuxServer } from "./run.ts";

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
  /** argv tmux execs directly for the pane (at least 2 elements, so no shell parses it). */
  command: string[];
  cwd?: string;
  /** Launch-scoped environment of the pane's process (tmux -e). */
  env?: Record<string, string>;
  /** Window name for a new window/session (also stops automatic-rename). */
  windowName?: string;
}

const CREATED_FIELDS = [
  "session_id",
  "session_name",
  "window_id",
  "window_index",
  "pane_id",
  "pane_index",
];

function createdFormat(sep: string): string {
  return CREATED_FIELDS.map((f) => `#{${f}}`).join(sep);
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

function commonArgs(spec: CreateSpec): string[] {
  const a: string[] = [];
  if (spec.cwd !== undefined) a.push("-c", spec.cwd);
  for (const [k, v] of Object.entries(spec.env ?? {})) a.push("-e", `${k}=${v}`);
  return a;
}

async function create(server: TmuxServer, args: string[], what: string): Promise<CreatedPane> {
  const sep = `\u001f${nonce()}\u001f`;
  const full = [args[0]!, "-P", "-F", createdFormat(sep), ...args.slice(1)];
  const r = await tmux(server, full, { allowFailure: true });
  if (r.code !== 0) {
    const msg = r.stderr.trim() || `exit code ${r.code}`;
    if (/no server running|error connecting|failed to connect/i.test(msg)) {
      await tmux(server, full); // the primitive maps this to TMUX_UNAVAILABLE
    }
    if (isMissingTarget(msg)) {
      throw new DroverError("TARGET_NOT_FOUND", `cannot create ${what}: ${msg}`);
    }
    throw new DroverError("CREATE_FAILED", `tmux could not create ${what}: ${msg}`, {
      details: { stderr: r.stderr },
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
  const args = ["new-session", "-d", "-s", session, ...commonArgs(spec)];
  if (spec.windowName !== undefined) args.push("-n", spec.windowName);
  return create(server, [...args, "--", ...spec.command], `session "${session}"`);
}

/** A new window (never selected: -d) at the next free index of the session (given by id or =name). */
export function newWindow(
  server: TmuxServer,
  sessionTarget: string,
  spec: CreateSpec,
): Promise<CreatedPane> {
  const args = ["new-window", "-d", "-t", `${sessionTarget}:`, ...commonArgs(spec)];
  if (spec.windowName !== undefined) args.push("-n", spec.windowName);
  return create(server, [...args, "--", ...spec.command], `a window in ${sessionTarget}`);
}

/** Split exactly the anchor pane (by id); never falls back to a window. Never selects (-d). */
export function splitPane(
  server: TmuxServer,
  anchorPaneId: string,
  direction: SplitDirection,
  spec: CreateSpec,
): Promise<CreatedPane> {
  const dir = direction === "right" || direction === "left" ? "-h" : "-v";
  const before = direction === "left" || direction === "up" ? ["-b"] : [];
  const args = ["split-window", "-d", dir, ...before, "-t", anchorPaneId, ...commonArgs(spec)];
  return create(server, [...args, "--", ...spec.command], `a pane beside ${anchorPaneId}`);
}

/** True when a session with exactly this name exists. */
export async function sessionExists(server: TmuxServer, name: string): Promise<boolean> {
  const r = await tmux(server, ["has-session", "-t", `=${name}`], { allowFailure: true });
  if (r.code === 0) return true;
  if (/no server running|error connecting|failed to connect/i.test(r.stderr)) return false;
  return false;
}

/** The session id of a pane (for "inside tmux, launch into my own session"). */
export async function sessionOfPane(server: TmuxServer, paneId: string): Promise<string | null> {
  const r = await tmux(server, ["display-message", "-p", "-t", paneId, "#{session_id}"], {
    allowFailure: true,
  });
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
    "list-panes",
    "-a",
    "-F",
    "#{session_id} #{window_id} #{window_active} #{pane_id} #{pane_active}",
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

export async function setPaneTitle(server: TmuxServer, paneId: string, title: string) {
  await tmux(server, ["select-pane", "-t", paneId, "-T", title]);
}

/** Bring a created window/pane to the front (foreground launch, after creating it detached). */
export async function selectCreated(server: TmuxServer, c: CreatedPane): Promise<void> {
  await tmux(server, ["select-window", "-t", c.window_id]);
  await tmux(server, ["select-pane", "-t", c.pane_id]);
}

/**
 * Paste text into a pane as ONE bracketed paste (when the application asked for bracketed paste;
 * plain otherwise), through a uniquely named buffer that is deleted afterwards. Used by `send` for
 * multi-line text, which typed literally would press Enter at every newline. The text travels on
 * tmux's stdin, so the 16 KiB command cap does not apply.
 */
export async function pasteText(server: TmuxServer, paneId: string, text: string): Promise<void> {
  const buffer = `drover-send-${nonce()}`;
  await tmux(server, ["load-buffer", "-b", buffer, "-"], { stdin: text });
  const r = await tmux(server, ["paste-buffer", "-p", "-d", "-b", buffer, "-t", paneId], {
    allowFailure: true,
  });
  if (r.code !== 0) {
    await tmux(server, ["delete-buffer", "-b", buffer], { allowFailure: true });
    if (isMissingTarget(r.stderr)) {
      throw new DroverError(
        "TARGET_NOT_FOUND",
        `pane ${paneId} no longer exists on this tmux server`,
      );
    }
    throw new DroverError("TMUX_FAILED", `tmux paste-buffer failed: ${r.stderr.trim()}`);
  }
}
