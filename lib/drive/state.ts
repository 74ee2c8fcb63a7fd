/**
 * What the drive loop remembers between ticks (and between cron runs): escalation dedup windows,
 * the orchestrator's idle/nudge timers, which stranded input already got its one Enter, and each
 * pane's usage limit (when it resets, whether its one resume was typed).
 *
 * Written atomically (temp file + rename) so a crash or a concurrent reader never sees half a
 * file; read tolerantly — a damaged file is set aside with a warning and the loop starts fresh,
 * because losing dedup windows once costs at most a repeated escalation. Writing is not optional:
 * a state that cannot be written stops the run before any key (STATE_UNWRITABLE, run.ts), since
 * every later tick would repeat what the state was meant to remember.
 */

import { describeBytes, readFileCapped, TooLarge } from "../io/capped.ts";

export const STATE_VERSION = 1;

/**
 * The largest state file read. Real state is a few KiB (dedup keys, a few input texts); a larger
 * file is damaged or planted, and parsing 50 MB of JSON would cost seconds and a GiB every tick.
 */
export const MAX_STATE_BYTES = 1024 * 1024;

export interface PaneMemory {
  /** The input text we pressed Enter for, and when (at most one Enter per stranded text). */
  submitted?: { text: string; at: number };
  /** A usage limit the pane showed with a readable reset time (drive resume, lib/drive/limit.ts). */
  limit?: LimitMemory;
  /**
   * The key an approval sent that showed up in the input box instead (key-in-input): the gate was
   * wrong, so that text is drover's own stray key and never submitted as stranded input.
   */
  strayKey?: { text: string; at: number };
}

export interface LimitMemory {
  /** The banner of this occurrence, as the detector reported it. */
  text: string;
  /** When the screen said it resets (epoch ms), as read when it was first seen. */
  resetsAt: number;
  /** When the resume is due: the reset plus the margin, doubled for each earlier resume. */
  dueAt: number;
  /** Resumes typed in this pane's run of limits (a limit that comes back keeps counting). */
  resumes: number;
  /** When this occurrence was first seen. */
  seenAt: number;
  /** When its one resume was typed; set once, never a second time for the same occurrence. */
  resumedAt?: number;
  /** The text typed (its echo on screen tells an old banner from a new one). */
  resumeText?: string;
  /** The transcript lines right below the banner when it was first seen (not mid-turn). */
  below?: string[];
  /** Set when the CLI went on by itself: the new lines below the banner that showed it. */
  movedOn?: string[];
}

export interface OrchestratorMemory {
  /** When the orchestrator was first seen idle in the current idle stretch (epoch ms). */
  idleSince?: number;
  /** When the last nudge was typed. */
  lastNudgeAt?: number;
}

export interface DriveState {
  version: typeof STATE_VERSION;
  session: string;
  /** Escalation key → epoch ms it was last reported. */
  dedup: Record<string, number>;
  panes: Record<string, PaneMemory>;
  orchestrator: OrchestratorMemory;
  updatedAt: number;
}

export function freshState(session: string): DriveState {
  return { version: STATE_VERSION, session, dedup: {}, panes: {}, orchestrator: {}, updatedAt: 0 };
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/** Validate parsed JSON into a state, or explain why it is not one. */
export function parseState(text: string, session: string): DriveState | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return `not JSON (${(e instanceof Error ? e.message : String(e)).slice(0, 200)})`;
  }
  if (!isRecord(raw)) return "not a JSON object";
  if (raw.version !== STATE_VERSION) return `unknown state version ${JSON.stringify(raw.version)}`;
  if (raw.session !== session) return `it belongs to session ${JSON.stringify(raw.session)}`;
  const st = freshState(session);
  if (isRecord(raw.dedup)) {
    for (const [k, v] of Object.entries(raw.dedup)) if (finite(v)) st.dedup[k] = v;
  }
  if (isRecord(raw.panes)) {
    for (const [id, m] of Object.entries(raw.panes)) {
      if (!isRecord(m)) continue;
      const mem: PaneMemory = {};
      const s = m.submitted;
      if (isRecord(s) && typeof s.text === "string" && finite(s.at)) {
        mem.submitted = { text: s.text, at: s.at };
      }
      const limit = parseLimit(m.limit);
      if (limit) mem.limit = limit;
      const k = m.strayKey;
      if (isRecord(k) && typeof k.text === "string" && finite(k.at)) {
        mem.strayKey = { text: k.text, at: k.at };
      }
      st.panes[id] = mem;
    }
  }
  if (isRecord(raw.orchestrator)) {
    const o = raw.orchestrator;
    if (finite(o.idleSince)) st.orchestrator.idleSince = o.idleSince;
    if (finite(o.lastNudgeAt)) st.orchestrator.lastNudgeAt = o.lastNudgeAt;
  }
  if (finite(raw.updatedAt)) st.updatedAt = raw.updatedAt;
  return st;
}

function parseLimit(x: unknown): LimitMemory | undefined {
  if (!isRecord(x)) return undefined;
  if (typeof x.text !== "string" || !finite(x.resetsAt) || !finite(x.dueAt)) return undefined;
  if (!finite(x.resumes) || x.resumes < 0 || !finite(x.seenAt)) return undefined;
  const m: LimitMemory = {
    text: x.text.slice(0, 1000),
    resetsAt: x.resetsAt,
    dueAt: x.dueAt,
    resumes: Math.floor(x.resumes),
    seenAt: x.seenAt,
  };
  if (finite(x.resumedAt)) m.resumedAt = x.resumedAt;
  if (typeof x.resumeText === "string") m.resumeText = x.resumeText.slice(0, 1000);
  const lines = (y: unknown) =>
    Array.isArray(y) && y.every((l) => typeof l === "string")
      ? y.slice(0, 32).map((l) => l.slice(0, 1000))
      : undefined;
  const below = lines(x.below), movedOn = lines(x.movedOn);
  if (below) m.below = below;
  if (movedOn) m.movedOn = movedOn;
  return m;
}

export interface LoadedState {
  state: DriveState;
  /** Set when the file existed but could not be used; the loop continues from a fresh state. */
  warning?: string;
}

/** Read the state file; never throws. A damaged file is renamed to <file>.corrupt-<time>. */
export async function loadState(
  path: string,
  session: string,
  now = Date.now(),
): Promise<LoadedState> {
  let parsed: DriveState | string;
  try {
    // Opening a FIFO (or a device) for reading waits for a writer, for ever: such a thing put at
    // this path is set aside unread, like a damaged file.
    const info = await Deno.stat(path).catch((e) => {
      if (e instanceof Deno.errors.NotFound) return null;
      throw e;
    });
    if (info === null) return { state: freshState(session) };
    // A directory stays where it is: the tick's writability check reports it (STATE_UNWRITABLE).
    if (!info.isFile && !info.isDirectory) {
      parsed = "it is not a regular file";
    } else {
      const bytes = await readFileCapped(path, MAX_STATE_BYTES, `state file ${path}`);
      parsed = parseState(new TextDecoder().decode(bytes), session);
    }
  } catch (e) {
    if (e instanceof TooLarge) {
      parsed = `it is larger than ${describeBytes(MAX_STATE_BYTES)}`;
    } else {
      const cause = e instanceof Error ? e.cause : undefined;
      if (cause instanceof Deno.errors.NotFound) return { state: freshState(session) };
      return {
        state: freshState(session),
        warning: `cannot read state file ${path} (${
          e instanceof Error ? e.message : String(e)
        }); starting fresh`,
      };
    }
  }
  if (typeof parsed !== "string") return { state: parsed };
  const aside = `${path}.corrupt-${now}`;
  let kept = "";
  try {
    await Deno.rename(path, aside);
    kept = `; kept as ${aside}`;
  } catch {
    // the next save overwrites it anyway
  }
  return {
    state: freshState(session),
    warning: `state file ${path} is unusable: ${parsed}; starting fresh${kept}`,
  };
}

/** Forget what can no longer matter, so the file does not grow without bound. */
export function pruneState(
  st: DriveState,
  now: number,
  dedupWindowMs: number,
  livePanes?: Set<string>,
): void {
  for (const [k, at] of Object.entries(st.dedup)) {
    if (now - at >= dedupWindowMs || at > now + 60_000) delete st.dedup[k];
  }
  if (livePanes) {
    for (const id of Object.keys(st.panes)) if (!livePanes.has(id)) delete st.panes[id];
  }
  for (const [id, m] of Object.entries(st.panes)) {
    if (!m.submitted && !m.limit && !m.strayKey) delete st.panes[id];
  }
}

/** Write atomically: a temp file in the same directory, flushed, then renamed over the target. */
export async function saveState(path: string, st: DriveState): Promise<void> {
  const tmp = `${path}.tmp-${Deno.pid}`;
  const data = new TextEncoder().encode(JSON.stringify(st) + "\n");
  const f = await Deno.open(tmp, { write: true, create: true, truncate: true, mode: 0o600 });
  try {
    await f.write(data);
    await f.syncData();
  } finally {
    f.close();
  }
  try {
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/**
 * Dedup: true when `key` was not reported within the window (and records it as reported now).
 * A timestamp in the future (clock stepped back) counts as expired rather than silencing forever.
 */
export function shouldEmit(st: DriveState, key: string, now: number, windowMs: number): boolean {
  const last = st.dedup[key];
  if (last !== undefined && now - last < windowMs && last <= now) return false;
  st.dedup[key] = now;
  return true;
}
