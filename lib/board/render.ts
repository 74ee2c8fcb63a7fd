/**
 * The live board as screen lines: pure, rows in, text out. Every line fits in `cols - 1` columns
 * (writing the last column of the last row would make some terminals scroll), and colour is SGR
 * only, on the state cell, the header and the dim detail lines.
 */
import { type EventsView, MAX_EVENT_LINE } from "./events.ts";
import { age, type Since } from "./since.ts";
import { cell, cellText, fit, width } from "./text.ts";

export interface BoardPane {
  id: string;
  target: string;
  cli: string;
  role: "orchestrator" | "agent";
  state: string;
  mode: string;
  title: string;
  /** The command of a live permission prompt. */
  command: string | null;
  /** Why the pane's CLI cannot serve (limit, quota, auth) or the stream error it shows. */
  reason: string | null;
}

export interface BoardInput {
  panes: readonly BoardPane[];
  since: ReadonlyMap<string, Since>;
  /** Present when the board follows an events file. */
  events?: EventsView & { file: string };
  now: number;
  cols: number;
  rows: number;
  color: boolean;
  /** What is shown: "session agents", "all sessions". */
  scope: string;
  intervalMs: number;
  /** The last refresh's failure, shown until a refresh succeeds. */
  error: string | null;
}

const STATE_SGR: Record<string, string> = {
  prompt: "1;33",
  dialog: "1;35",
  unavailable: "1;31",
  busy: "36",
  idle: "32",
  shell: "2",
  unknown: "2",
  gone: "2;31",
};

function sgr(on: boolean, code: string | undefined, text: string): string {
  return on && code ? `\x1b[${code}m${text}\x1b[0m` : text;
}

/** Coloured pieces joined and cut to `max` columns as a whole (colour codes take no columns). */
function joinFit(pieces: [text: string, code?: string][], max: number, color: boolean): string {
  let out = "";
  let left = max;
  for (const [text, code] of pieces) {
    if (left <= 0) break;
    const t = width(text) > left ? fit(text, left) : text;
    out += sgr(color, code, t);
    left -= width(t);
  }
  return out;
}

/** Local wall-clock time "HH:MM:SS"; "--:--:--" for a time that is not one (a bad `ts`). */
export function clock(ms: number): string {
  if (!Number.isFinite(ms)) return "--:--:--";
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0"))
    .join(":");
}

function interval(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** What the DETAIL column says about a pane. */
function detail(p: BoardPane): { text: string; dim: boolean } {
  // A multi-line command stays one line, its breaks marked, so nothing of it is hidden.
  if (p.state === "prompt" && p.command) {
    return { text: `$ ${p.command.replace(/\r?\n/g, " ↵ ")}`, dim: false };
  }
  if (p.reason) return { text: p.reason, dim: false };
  return { text: p.title, dim: true };
}

export function renderBoard(b: BoardInput): string[] {
  const max = Math.max(1, b.cols - 1);
  const targetW = Math.min(
    20,
    Math.max(6, ...b.panes.map((p) => cellText(p.target).length)),
  );
  const lines = [headerLine(b, max), columnNames(targetW, max, b.color)];

  // Room for panes: everything but the header, column names and the status line.
  const room = Math.max(0, b.rows - 3);
  const perPane = b.events ? 2 : 1;
  let shown = b.panes.length;
  if (shown * perPane > room) shown = Math.max(0, Math.floor((room - 1) / perPane));
  for (const p of b.panes.slice(0, shown)) lines.push(...paneLines(b, p, targetW, max));
  if (shown < b.panes.length) {
    lines.push(
      fit(`… ${b.panes.length - shown} more panes (a taller terminal, or --session)`, max),
    );
  }
  if (b.panes.length === 0) lines.push(fit("no panes", max));

  const status = statusLine(b, max);
  while (lines.length < b.rows - 1) lines.push("");
  if (b.rows > lines.length) lines.push(status);
  return lines.slice(0, b.rows);
}

/** Scope, pane count, refresh interval and the time, with the key hint at the right when it fits. */
function headerLine(b: BoardInput, max: number): string {
  const count = `${b.panes.length} pane${b.panes.length === 1 ? "" : "s"}`;
  const left = `drover panes · ${b.scope} · ${count} · every ${interval(b.intervalMs)} · ` +
    clock(b.now);
  const right = "q quit";
  const head = left.length + 2 + right.length <= max
    ? left + " ".repeat(max - left.length - right.length) + right
    : left;
  return sgr(b.color, "1", fit(cellText(head), max));
}

function columnNames(targetW: number, max: number, color: boolean): string {
  const cols: [string, number][] = [
    ["PANE", 6],
    ["TARGET", targetW + 1],
    ["CLI", 9],
    ["ROLE", 6],
    ["STATE", 12],
    ["FOR", 8],
    ["MODE", 12],
  ];
  const names = fit(cols.map(([h, w]) => cell(h, w)).join("") + "DETAIL", max);
  return sgr(color, "4", names + " ".repeat(Math.max(0, max - width(names))));
}

/** A pane's row, and under it its last drive event when the board follows an events file. */
function paneLines(b: BoardInput, p: BoardPane, targetW: number, max: number): string[] {
  const s = b.since.get(p.id);
  const forText = s ? `${s.atLeast ? "≥" : ""}${age(b.now - s.since)}` : "";
  const d = detail(p);
  const row = joinFit(
    [
      [cell(cellText(p.id), 6)],
      [cell(cellText(p.target), targetW + 1)],
      [cell(cellText(p.cli), 9)],
      [cell(p.role === "orchestrator" ? "orch" : "agent", 6)],
      [cell(cellText(p.state), 12), STATE_SGR[p.state]],
      [cell(forText, 8) + cell(cellText(p.mode), 12)],
      [cellText(d.text), d.dim ? "2" : undefined],
    ],
    max,
    b.color,
  );
  if (!b.events) return [row];
  const e = b.events.byPane.get(p.id);
  const text = e
    ? `  ↳ ${clock(Date.parse(e.ts))} ${cellText(e.event)}: ${cellText(e.message)}`
    : "  ↳ no drive event yet";
  return [row, sgr(b.color, "2", fit(text, max))];
}

/** The status line at the bottom: a refresh error first, else where events come from. */
function statusLine(b: BoardInput, max: number): string {
  const c = b.color;
  if (b.error) return sgr(c, "1;31", fit(`refresh failed: ${cellText(b.error)}`, max));
  if (!b.events) return "";
  const latest = b.events.latest;
  const at = latest ? Date.parse(latest.ts) : NaN;
  const skipped = b.events.skipped
    ? ` · ${b.events.skipped} line${b.events.skipped === 1 ? "" : "s"} over ${
      MAX_EVENT_LINE / 1024
    } KiB skipped`
    : "";
  const file = cellText(b.events.file);
  const text = b.events.note
    ? `events: ${file}: ${cellText(b.events.note)}`
    : latest
    ? `events: ${file} · last ${clock(at)} ${cellText(latest.event)}${
      Number.isFinite(at) ? ` (${age(b.now - at)} ago)` : ""
    }${skipped}`
    : `events: ${file}: none yet${skipped}`;
  return sgr(c, "2", fit(text, max));
}
