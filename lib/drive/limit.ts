/**
 * Driving through a usage limit (issue 12): the judgement is pure — a function of the pane's
 * verdicts, what the state file remembers about its limit, and the clock.
 *
 * A limit with a readable reset time gets one `limit` event and is remembered. At the first tick
 * after `resets_at + margin` the runner re-captures; if the limit screen is still the live one it
 * types the resume text once, through the nudge's verified send path. One occurrence of a limit
 * gets at most one resume. A limit that comes back after the resume (its banner below the echo of
 * the resume text) is a new occurrence: it waits again, each time twice as long after its reset as
 * the last (capped at 6 h). A limit menu (upgrade / wait / switch model) is never answered. A CLI
 * that goes on by itself (new transcript right below the banner) gets nothing typed.
 */
import { type DriveVerdicts } from "./verdicts.ts";
import type { LimitMemory } from "./state.ts";

/** The longest wait a comeback backs off to. */
export const MAX_BACKOFF_MS = 6 * 60 * 60_000;
/** The smallest step a comeback doubles from (a zero margin still backs off). */
export const MIN_BACKOFF_STEP_MS = 60_000;

/** How long after the reset the resume is due for a limit seen after `resumes` resumes. */
export function waitAfterReset(resumes: number, marginMs: number): number {
  if (resumes <= 0) return Math.min(marginMs, MAX_BACKOFF_MS);
  const step = Math.max(marginMs, MIN_BACKOFF_STEP_MS);
  return Math.min(step * 2 ** Math.min(resumes, 20), MAX_BACKOFF_MS);
}

export function resetsAtMs(v: DriveVerdicts): number | null {
  if (!v.limit || !v.limit_resets_at) return null;
  const t = Date.parse(v.limit_resets_at);
  return Number.isFinite(t) ? t : null;
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * Is the limit on screen newer than the resume we typed? The resume's echo in the transcript sits
 * below the old banner; a limit that came back is drawn below the echo. No echo on screen (it
 * scrolled away) with a banner on screen: the banner is the newer one.
 */
export function limitAfterResume(v: DriveVerdicts, resumeText: string): boolean {
  if (!v.limit) return false;
  const tail = v.tail ?? [];
  const banner = norm(v.limit);
  const echo = norm(resumeText).slice(0, 60);
  let limitAt = -1, echoAt = -1;
  for (let i = 0; i < tail.length; i++) {
    const line = norm(tail[i]);
    if (line === "") continue;
    if (line.length >= 8 && (banner.startsWith(line) || line.startsWith(banner))) limitAt = i;
    else if (echo !== "" && line.includes(echo)) echoAt = i;
  }
  if (limitAt < 0) return true;
  return limitAt > echoAt;
}

/**
 * The transcript right below the banner: its lines (normalised) down to the first rule or blank
 * line, skipping a wrapped banner's own lines. Null when no banner is on screen.
 */
export function linesBelowBanner(v: DriveVerdicts): string[] | null {
  if (!v.limit) return null;
  const tail = v.tail ?? [];
  const banner = norm(v.limit);
  let at = -1;
  for (let i = 0; i < tail.length; i++) {
    const line = norm(tail[i]);
    if (line.length >= 8 && banner.startsWith(line)) at = i;
  }
  if (at < 0) return null;
  const out: string[] = [];
  for (let i = at + 1; i < tail.length; i++) {
    const line = norm(tail[i]);
    if (line === "") break;
    if (line.length >= 8 && banner.includes(line)) continue;
    out.push(line);
  }
  return out;
}

/**
 * Lines below the banner that were not there when the limit was first seen: the CLI went on by
 * itself (its own auto-continue) or a person did. A menu closing only takes lines away.
 */
export function newBelowBanner(v: DriveVerdicts, mem: LimitMemory): string[] {
  if (!mem.below) return [];
  const now = linesBelowBanner(v) ?? [];
  return now.filter((l) => !mem.below!.includes(l));
}

/** The limit screen is still the live one: banner shown, nothing live, not busy, empty input. */
export function readyForResume(v: DriveVerdicts): boolean {
  return !!v.limit && !v.live_prompt && !v.mid_response && v.input_line === true &&
    (v.input_box?.trim() ?? "") === "";
}

export type LimitStep =
  /** First sighting of this occurrence (`comeback`: after a resume). Remember it, report it. */
  | { kind: "limit"; memory: LimitMemory; comeback: boolean }
  /** Remembered and not due yet. */
  | { kind: "limit-wait"; memory: LimitMemory }
  /** Due: re-capture, then type the resume text once. */
  | { kind: "resume"; memory: LimitMemory }
  /** The banner of an occurrence already resumed, still on screen: not a limit any more. */
  | { kind: "limit-stale"; memory: LimitMemory }
  /** The CLI went on by itself before the resume was due: remember it as over, type nothing. */
  | { kind: "limit-moved-on"; memory: LimitMemory };

/** What the transcript below the banner looks like now, once the CLI is not mid-turn. */
function withBelow(m: LimitMemory, v: DriveVerdicts): LimitMemory {
  if (m.below !== undefined || v.mid_response) return m;
  const below = linesBelowBanner(v);
  return below === null ? m : { ...m, below };
}

/**
 * What a pane's limit means on this tick, or null when limits do not apply (no banner, or a banner
 * with no readable reset and nothing remembered: that is handled as an unavailable CLI, as
 * before). Whether resume is configured at all is the caller's check.
 */
export function limitStep(
  v: DriveVerdicts,
  mem: LimitMemory | undefined,
  now: number,
  marginMs: number,
): LimitStep | null {
  const resetsAt = resetsAtMs(v);
  const banner = v.limit ?? null;
  if (!mem) {
    if (resetsAt === null) return null;
    return {
      kind: "limit",
      comeback: false,
      memory: withBelow({
        text: banner!,
        resetsAt,
        dueAt: resetsAt + waitAfterReset(0, marginMs),
        resumes: 0,
        seenAt: now,
      }, v),
    };
  }
  if (banner === null) return null;
  if (mem.resumedAt === undefined) {
    if (banner !== mem.text) {
      // Other words (a person sent something and met the limit again): that reset counts. One that
      // cannot be read (or lies in the past) is escalated like any unreadable reset, never
      // resumed on the old one's time.
      if (resetsAt === null) return null;
      return {
        kind: "limit",
        comeback: false,
        memory: withBelow({
          text: banner,
          resetsAt,
          dueAt: resetsAt + waitAfterReset(mem.resumes, marginMs),
          resumes: mem.resumes,
          seenAt: now,
        }, v),
      };
    }
    // Judged only at the input line: a menu opening over the limit is not the CLI going on.
    const moved = readyForResume(v) ? newBelowBanner(v, mem) : [];
    if (moved.length > 0) {
      return { kind: "limit-moved-on", memory: { ...mem, resumedAt: now, movedOn: moved } };
    }
    const m = withBelow(mem, v);
    return now >= m.dueAt ? { kind: "resume", memory: m } : { kind: "limit-wait", memory: m };
  }
  // Over once already: resumed by drover (its echo sits below the old banner), or the CLI went on
  // by itself (what it wrote then still sits right below the old banner).
  const stale = mem.movedOn
    ? (linesBelowBanner(v) ?? []).some((l) => mem.movedOn!.includes(l))
    : !limitAfterResume(v, mem.resumeText ?? "");
  if (stale) return { kind: "limit-stale", memory: mem };
  // It came back. The same words as before name the reset that has passed (read again, a time
  // alone would roll on to tomorrow's): wait from now. Other words name a reset of their own,
  // which must be readable.
  const same = banner === mem.text;
  if (!same && resetsAt === null) return null;
  const reset = same ? mem.resetsAt : resetsAt!;
  const wait = waitAfterReset(mem.resumes, marginMs);
  return {
    kind: "limit",
    comeback: true,
    memory: withBelow({
      text: banner,
      resetsAt: reset,
      dueAt: Math.max(reset, now) + wait,
      resumes: mem.resumes,
      seenAt: now,
    }, v),
  };
}

/**
 * How a comeback's due time is put in its event: after the reset when that is still ahead, else
 * from now (the reset has passed). Never a time before either.
 */
export function comebackWhen(m: LimitMemory): string {
  const from = Math.max(m.resetsAt, m.seenAt);
  const mins = Math.round((m.dueAt - from) / 60_000);
  const reset = new Date(m.resetsAt).toISOString();
  return m.resetsAt > m.seenAt
    ? `${mins}m after its reset at ${reset}`
    : `${mins}m from now, its reset at ${reset} having passed`;
}

/**
 * A remembered limit is over when its banner is gone: while waiting, the CLI went on by itself (or
 * a person did); after the resume, once no banner has come back for the longest backoff.
 */
export function limitOver(v: DriveVerdicts, mem: LimitMemory, now: number): boolean {
  if (v.limit) return false;
  return mem.resumedAt === undefined || now - mem.resumedAt >= MAX_BACKOFF_MS;
}

/**
 * The verdicts with a stale banner (an occurrence already resumed) no longer read as a limit. The
 * unavailable line goes too when it is that banner or a line the CLI wrote with it (below it when
 * first seen: 2.1.332's "● Usage limit reached · set to continue automatically at …"); another
 * unavailable line (a credit or auth failure since) still counts.
 */
export function withoutStaleLimit(v: DriveVerdicts, mem?: LimitMemory): DriveVerdicts {
  const un = v.cli_unavailable === null ? "" : norm(v.cli_unavailable);
  const same = un !== "" && (
    (!!v.limit && (norm(v.limit).startsWith(un) || un.startsWith(norm(v.limit)))) ||
    (un.length >= 8 && (mem?.below ?? []).some((l) => l.includes(un)))
  );
  return {
    ...v,
    limit: null,
    limit_resets_at: null,
    cli_unavailable: same ? null : v.cli_unavailable,
    state: !same || v.state !== "unavailable"
      ? v.state
      : v.live_prompt
      ? "dialog"
      : v.mid_response
      ? "busy"
      : v.input_line
      ? "idle"
      : "unknown",
  };
}
