/**
 * Drive events: one JSON object per line (`drover.event.v1`) for machines, one short line for
 * people. lib/drive only builds them; lib/cli decides where they are printed, and the events file
 * is appended here (it is the loop's own output, like the state file).
 */
import { safeJson } from "../base/json.ts";
import { DroverError } from "../errors.ts";
import { appendRegular, NotRegularFile, openRegular } from "../io/safe_file.ts";
import { replaceControls } from "../base/control.ts";
import type { RefusalReason } from "../approve/gate.ts";
import type { Outcome } from "../approve/approve.ts";
import type { DangerRule } from "../shell/danger.ts";

export const EVENT_SCHEMA = "drover.event.v1";

export type EventType =
  | "drive-started"
  | "drive-stopped"
  | "approved"
  | "approve-refused"
  | "escalated"
  | "input-submitted"
  | "nudge-sent"
  | "orchestrator-unavailable"
  | "limit"
  | "resumed"
  | "state-reset"
  | "warning";

/** Why an escalation was raised. */
export type EscalationReason =
  | "cli-unavailable"
  | "orchestrator-unavailable"
  | "permission-prompt"
  | "dialog"
  | "input-stuck"
  | "key-in-input"
  | "nudge-wedged"
  | "limit-menu"
  | "resume-wedged"
  | "synchronized";

/**
 * Why a prompt was not approved: "approve-none", "orchestrator", "not-allowlisted",
 * "danger:<rule>", "opaque:<form>" (code that runs code, e.g. "opaque:node -e"), or
 * "gate:<reason>" (the approve gate's refusal, or its outcome where it gave no reason).
 */
export type PromptVerdict =
  | "approve-none"
  | "orchestrator"
  | "not-allowlisted"
  | `danger:${DangerRule}`
  | `opaque:${string}`
  | `gate:${RefusalReason | Exclude<Outcome, "approved">}`;

export interface DriveEvent {
  schema: typeof EVENT_SCHEMA;
  ts: string;
  session: string;
  event: EventType;
  pane?: string;
  target?: string;
  cli?: string;
  role?: "orchestrator" | "agent";
  reason?: EscalationReason;
  verdict?: PromptVerdict;
  command?: string | null;
  file_path?: string | null;
  /** The text typed or found (nudge, stranded input, unavailable line, limit banner). */
  text?: string;
  /** When a usage limit resets (ISO 8601), as the screen said: `limit` events, unavailable ones. */
  resets_at?: string;
  /** One readable sentence; the human log line is built from it. */
  message: string;
  detail?: Record<string, unknown>;
}

export interface PaneRef {
  id: string;
  target: string;
  cli: string;
  role: "orchestrator" | "agent";
}

export function makeEvent(
  session: string,
  event: EventType,
  message: string,
  now: number,
  pane?: PaneRef,
  extra: Partial<DriveEvent> = {},
): DriveEvent {
  const e: DriveEvent = {
    schema: EVENT_SCHEMA,
    ts: new Date(now).toISOString(),
    session,
    event,
    message,
  };
  if (pane) {
    e.pane = pane.id;
    e.target = pane.target;
    e.cli = pane.cli;
    e.role = pane.role;
  }
  return { ...e, ...extra };
}

/** Escape control characters so a screen's text cannot drive the reader's terminal. */
function printable(text: string): string {
  return replaceControls(text, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** `2026-11-30T14:00:00Z agents escalated %3 agents:0.1 (claude): …` */
export function humanLine(e: DriveEvent): string {
  const ts = e.ts.replace(/\.\d{3}Z$/, "Z");
  const where = e.pane ? ` ${e.pane} ${e.target ?? ""}${e.cli ? ` (${e.cli})` : ""}` : "";
  return `${ts} ${e.session} ${e.event}${where}: ${printable(e.message)}`;
}

/** JSON with every control character escaped (DEL, C1 and U+2028/9 included). */
export function eventJson(e: DriveEvent): string {
  return safeJson(e);
}

/**
 * Append one event line to a file (created 0600, parent directories made), never through a
 * symlink: anything but a regular file at the path throws NotRegularFile (lib/io/safe_file.ts).
 */
export async function appendEvent(path: string, e: DriveEvent): Promise<void> {
  await makeParent(path);
  await appendRegular(path, new TextEncoder().encode(eventJson(e) + "\n"));
}

async function makeParent(path: string): Promise<void> {
  const dir = path.replace(/\/[^/]*$/, "");
  if (dir && dir !== path) await Deno.mkdir(dir, { recursive: true }).catch(() => {});
}

/**
 * The events file can take the next line: checked before every tick's keys. Something other than
 * a regular file at the path is STATE_UNWRITABLE (exit 74), nothing written; any other trouble is
 * left to the append, which warns (an event lost is no reason to leave the agents alone).
 */
export async function checkEventsFile(path: string): Promise<void> {
  await makeParent(path);
  try {
    (await openRegular(path, { create: true, append: true })).close();
  } catch (e) {
    if (e instanceof NotRegularFile) {
      throw new DroverError(
        "STATE_UNWRITABLE",
        `${e.what} stands where the events file ${path} belongs; refused, nothing was ` +
          "written (remove it, or pass another --events FILE)",
        { details: { events_file: path }, cause: e },
      );
    }
  }
}
