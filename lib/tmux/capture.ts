/**
 * Pane captures. Many panes (and both the plain and the styled form) are read in ONE tmux
 * invocation: the capture commands are chained with `;` and each is preceded by a separator line
 * printed by display-message, carrying a per-call nonce no screen can forge.
 */
import { DroverError } from "../errors.ts";
import { fmt, num, paneId, SEP, type TmuxArg, word } from "./arg.ts";
import { nonce } from "./panes.ts";
import { isMissingTarget, tmux, type TmuxServer } from "./run.ts";

/** What detectors read: the visible screen (wrapped lines joined) and, when asked, its styled form. */
export interface PaneCapture {
  plain: string;
  styled?: string;
  /**
   * With `sync`: some pane of this pane's window has synchronize-panes on, read in the same tmux
   * call as the screen — a key sent now could be broadcast (issue 16).
   */
  synchronized?: boolean;
}

export interface CaptureOptions {
  /** Also capture the styled form (-e), needed for dim placeholders and selected choices. */
  styled?: boolean;
  /** Lines of scrollback history to include above the visible screen (-S -N). */
  history?: number;
  /** Also read synchronize-panes of the pane's window (the check before any key). */
  sync?: boolean;
}

type Job = { pane: string; kind: "plain" | "styled" | "sync" };

function jobArgs(j: Job, history: number | undefined): TmuxArg[] {
  if (j.kind !== "sync") return captureArgs(j.pane, j.kind === "styled", history);
  // list-panes -t PANE lists every pane of PANE's window: one line per pane, "1" when synchronized.
  return [word("list-panes"), word("-t"), paneId(j.pane), word("-F"), word("#{synchronize-panes}")];
}

function captureArgs(pane: string, styled: boolean, history: number | undefined): TmuxArg[] {
  const args = [word("capture-pane"), word("-p"), word("-J")];
  if (styled) args.push(word("-e"));
  if (history !== undefined && history > 0) args.push(word("-S"), num(-Math.floor(history)));
  args.push(word("-t"), paneId(pane));
  return args;
}

/**
 * Commands per tmux invocation. tmux refuses a command line longer than its message limit
 * ("command too long", about 16 KiB); one job — a capture or a synchronize-panes read, each behind
 * its separator — costs ~75 bytes, so a session of a hundred panes needs more than one call.
 */
export const MAX_JOBS_PER_CALL = 96;

/**
 * Panes one call captures: 96 plain screens (the `panes` table), 48 with their styled form, 32
 * with the synchronize-panes read too (drive's tick).
 */
export function panesPerCall(opts: CaptureOptions): number {
  const jobs = 1 + (opts.styled ? 1 : 0) + (opts.sync ? 1 : 0);
  return Math.floor(MAX_JOBS_PER_CALL / jobs);
}

/**
 * Capture many panes at once (one tmux call per {@link panesPerCall} panes, side by side). Panes that
 * vanished are left out of the result (the caller decides whether that matters); a dead server
 * raises TMUX_UNAVAILABLE.
 */
export async function capturePanes(
  server: TmuxServer,
  paneIds: string[],
  opts: CaptureOptions = {},
): Promise<Map<string, PaneCapture>> {
  const ids = [...new Set(paneIds)];
  // Chunks of even size, all in flight at once: tmux answers them one after the other, but the
  // clients' start-up and the reading of their output overlap.
  const max = panesPerCall(opts);
  const size = Math.ceil(ids.length / Math.max(1, Math.ceil(ids.length / max)));
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += size) chunks.push(ids.slice(i, i + size));
  const parts = await Promise.all(chunks.map((c) => captureChunk(server, c, opts)));
  const out = new Map<string, PaneCapture>();
  for (const part of parts) for (const [id, c] of part) out.set(id, c);
  return out;
}

async function captureChunk(
  server: TmuxServer,
  paneIds: string[],
  opts: CaptureOptions,
): Promise<Map<string, PaneCapture>> {
  const out = new Map<string, PaneCapture>();
  let pending = paneIds;
  // Each round runs the chain until tmux stops at a missing pane; that pane is dropped and the
  // rest retried, so one vanished pane costs one extra call, not one call per pane.
  while (pending.length > 0) {
    const tag = nonce();
    const jobs: Job[] = [];
    for (const pane of pending) {
      jobs.push({ pane, kind: "plain" });
      if (opts.styled) jobs.push({ pane, kind: "styled" });
      if (opts.sync) jobs.push({ pane, kind: "sync" });
    }
    // The chain's `;`s are SEP: no other element can end a command (see arg.ts).
    const args: TmuxArg[] = [];
    jobs.forEach((j, i) => {
      if (i > 0) args.push(SEP);
      args.push(word("display-message"), word("-p"), fmt`\u001edrover-${tag}-${i}\u001e`, SEP);
      args.push(...jobArgs(j, opts.history));
    });
    args.push(SEP, word("display-message"), word("-p"), fmt`\u001edrover-${tag}-end\u001e`);
    const r = await tmux(server, args, { allowFailure: true });
    const parts = r.stdout.split(new RegExp(`\u001edrover-${tag}-(\\d+|end)\u001e\n`));
    // parts: [before, idx0, body0, idx1, body1, ...]
    const done = new Set<number>();
    let finished = false;
    for (let k = 1; k + 1 < parts.length; k += 2) {
      if (parts[k] === "end") {
        finished = true;
        continue;
      }
      const i = Number(parts[k]);
      const next = parts[k + 2];
      // A body is complete only when the next separator followed it; the last started one
      // may have been the command that failed.
      if (next === undefined) continue;
      done.add(i);
      const j = jobs[i];
      const entry = out.get(j.pane) ?? { plain: "" };
      if (j.kind === "styled") entry.styled = parts[k + 1];
      else if (j.kind === "sync") entry.synchronized = /^1$/m.test(parts[k + 1]);
      else entry.plain = parts[k + 1];
      out.set(j.pane, entry);
    }
    if (finished && r.code === 0) break;
    if (r.code === 0) break;
    const msg = r.stderr.trim();
    if (!isMissingTarget(msg)) {
      // Not a vanished pane: let the primitive map it (no server → TMUX_UNAVAILABLE).
      await tmux(server, args);
      break;
    }
    const failedIdx = jobs.findIndex((_, i) => !done.has(i));
    if (failedIdx < 0) break;
    const failedPane = jobs[failedIdx].pane;
    out.delete(failedPane);
    pending = pending.filter((p) => p !== failedPane && !hasAll(out.get(p), opts));
  }
  return out;
}

function hasAll(c: PaneCapture | undefined, opts: CaptureOptions): boolean {
  return c !== undefined && (!opts.styled || c.styled !== undefined) &&
    (!opts.sync || c.synchronized !== undefined);
}

/** Capture one pane; TARGET_NOT_FOUND when it is gone. */
export async function capturePane(
  server: TmuxServer,
  paneId: string,
  opts: CaptureOptions = {},
): Promise<PaneCapture> {
  const m = await capturePanes(server, [paneId], opts);
  const c = m.get(paneId);
  if (!c) {
    throw new DroverError(
      "TARGET_NOT_FOUND",
      `pane ${paneId} no longer exists on this tmux server`,
    );
  }
  return c;
}
