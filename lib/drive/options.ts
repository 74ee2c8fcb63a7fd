/**
 * `drover drive` settings: flags override the configuration's [drive] table, which overrides the
 * built-in defaults. Validation errors are usage errors naming the flag or key to fix.
 */
import type { DriveConfig } from "../config/load.ts";
import { invalidArgument } from "../errors.ts";
import { DRIVE_DURATIONS, type DurationRange, readDuration } from "../config/duration.ts";

export const DEFAULTS = {
  intervalMs: 15_000,
  dedupWindowMs: 5 * 60_000,
  nudgeEveryMs: 10 * 60_000,
  confirmMs: 1_000,
  verifyMs: 1_000,
  hookTimeoutMs: 5_000,
  resumeMarginMs: 2 * 60_000,
} as const;

export interface DriveFlags {
  session?: string;
  once?: boolean;
  interval?: string;
  orchestrator?: string;
  approve?: string;
  allow?: string[];
  nudge?: string;
  nudgeEvery?: string;
  dedupWindow?: string;
  events?: string;
  onEscalate?: string;
  hookTimeout?: string;
  state?: string;
  settle?: string;
  resume?: string;
  resumeMargin?: string;
  /** Test seam (hidden flag): the clock starts at this instant (ISO 8601) and runs from there. */
  now?: string;
}

export interface DriveOptions {
  session: string;
  once: boolean;
  intervalMs: number;
  orchestrator?: string;
  approve: "none" | "allowlist";
  allow: string[];
  nudge?: string;
  nudgeEveryMs?: number;
  dedupWindowMs: number;
  events?: string;
  onEscalate?: string;
  /** Deadline of one --on-escalate run. */
  hookTimeoutMs: number;
  stateDir: string;
  settleMs?: number;
  confirmMs: number;
  verifyMs: number;
  /** Typed once into a pane whose usage limit has reset; off when absent. */
  resume?: string;
  resumeMarginMs: number;
  /** Where the clock starts (epoch ms; the hidden --now flag), else the real clock. */
  startAt?: number;
}

/** $XDG_STATE_HOME/drover, else ~/.local/state/drover. */
export function defaultStateDir(env: (k: string) => string | undefined): string | undefined {
  const xdg = env("XDG_STATE_HOME");
  if (xdg && xdg.startsWith("/")) return `${xdg.replace(/\/+$/, "")}/drover`;
  const home = env("HOME");
  if (home) return `${home.replace(/\/+$/, "")}/.local/state/drover`;
  return undefined;
}

/**
 * A duration flag, else the [drive] value, else the built-in default. A [drive] duration was
 * checked against the same range when the config was loaded.
 */
function durationSetting(
  text: string | undefined,
  flag: string,
  range: DurationRange,
  configured: number | undefined,
  fallback: number,
): number {
  return text !== undefined ? readDuration(text, flag, range) : configured ?? fallback;
}

function requireSession(session: string | undefined): string {
  if (!session || session.trim() === "") {
    throw invalidArgument("drive needs a session: pass --session S (or set [drive].session)");
  }
  return session.trim();
}

function checkApprove(approve: string): "none" | "allowlist" {
  if (approve !== "none" && approve !== "allowlist") {
    throw invalidArgument(`--approve must be "none" or "allowlist", got "${approve}"`);
  }
  return approve;
}

/** The nudge text and its period; the period defaults only when there is a text to send. */
function resolveNudge(flags: DriveFlags, cfg: DriveConfig): { nudge?: string; everyMs?: number } {
  const nudge = flags.nudge ?? cfg.nudge;
  const everyMs = flags.nudgeEvery !== undefined
    ? readDuration(flags.nudgeEvery, "--nudge-every", DRIVE_DURATIONS.nudge_every)
    : cfg.nudgeEveryMs;
  if (everyMs !== undefined && (nudge === undefined || nudge.trim() === "")) {
    throw invalidArgument("--nudge-every needs --nudge TEXT (or [drive].nudge)");
  }
  if (nudge !== undefined && nudge.trim() === "") throw invalidArgument("--nudge text is empty");
  return nudge !== undefined ? { nudge, everyMs: everyMs ?? DEFAULTS.nudgeEveryMs } : {};
}

function resolveResume(
  flags: DriveFlags,
  cfg: DriveConfig,
): { resume?: string; marginMs: number } {
  const resume = flags.resume ?? cfg.resume;
  if (resume !== undefined && resume.trim() === "") throw invalidArgument("--resume text is empty");
  const marginMs = durationSetting(
    flags.resumeMargin,
    "--resume-margin",
    DRIVE_DURATIONS.resume_margin,
    cfg.resumeMarginMs,
    DEFAULTS.resumeMarginMs,
  );
  if (flags.resumeMargin !== undefined && resume === undefined) {
    throw invalidArgument("--resume-margin needs --resume TEXT (or [drive].resume)");
  }
  return { resume, marginMs };
}

/** The hidden --now flag as epoch ms. */
function parseNow(now: string | undefined): number | undefined {
  if (now === undefined) return undefined;
  const startAt = Date.parse(now);
  if (!Number.isFinite(startAt)) {
    throw invalidArgument(`--now: "${now}" is not an ISO 8601 instant`);
  }
  return startAt;
}

function resolveStateDir(
  stateDir: string | undefined,
  env: (k: string) => string | undefined,
): string {
  const dir = stateDir ?? defaultStateDir(env);
  if (!dir) {
    throw invalidArgument("no state directory: set HOME or XDG_STATE_HOME, or pass --state DIR");
  }
  return dir;
}

export function resolveDriveOptions(
  flags: DriveFlags,
  cfg: DriveConfig,
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): DriveOptions {
  // Resolved in this order so that of several mistakes the same one is reported first.
  const session = requireSession(flags.session ?? cfg.session);
  const intervalMs = durationSetting(
    flags.interval,
    "--interval",
    DRIVE_DURATIONS.interval,
    cfg.intervalMs,
    DEFAULTS.intervalMs,
  );
  const approve = checkApprove(flags.approve ?? cfg.approve ?? "none");
  const allow = [...(flags.allow ?? cfg.allow ?? [])].map((a) => a.trim()).filter((a) => a !== "");
  const nudge = resolveNudge(flags, cfg);
  const dedupWindowMs = durationSetting(
    flags.dedupWindow,
    "--dedup-window",
    DRIVE_DURATIONS.dedup_window,
    cfg.dedupWindowMs,
    DEFAULTS.dedupWindowMs,
  );
  const hookTimeoutMs = durationSetting(
    flags.hookTimeout,
    "--hook-timeout",
    DRIVE_DURATIONS.hook_timeout,
    cfg.hookTimeoutMs,
    DEFAULTS.hookTimeoutMs,
  );
  const resume = resolveResume(flags, cfg);
  const startAt = parseNow(flags.now);
  const stateDir = resolveStateDir(flags.state ?? cfg.state, env);
  const out: DriveOptions = {
    session,
    once: flags.once === true,
    intervalMs,
    approve,
    allow,
    dedupWindowMs,
    hookTimeoutMs,
    stateDir,
    confirmMs: DEFAULTS.confirmMs,
    verifyMs: DEFAULTS.verifyMs,
    resumeMarginMs: resume.marginMs,
  };
  if (resume.resume !== undefined) out.resume = resume.resume;
  if (startAt !== undefined) out.startAt = startAt;
  const orch = flags.orchestrator ?? cfg.orchestrator;
  if (orch !== undefined) out.orchestrator = orch;
  if (nudge.nudge !== undefined) {
    out.nudge = nudge.nudge;
    out.nudgeEveryMs = nudge.everyMs;
  }
  const events = flags.events ?? cfg.events;
  if (events !== undefined) out.events = events;
  const hook = flags.onEscalate ?? cfg.onEscalate;
  if (hook !== undefined && hook.trim() !== "") out.onEscalate = hook;
  if (flags.settle !== undefined) {
    out.settleMs = readDuration(flags.settle, "--settle");
    // the verify capture follows the same rhythm as the settle when it is shortened for tests
    out.verifyMs = Math.min(DEFAULTS.verifyMs, Math.max(out.settleMs, 100));
  }
  return out;
}

/**
 * A file-name-safe key for one session on one tmux server (lock and state file names). The slug is
 * for people; the hash covers the exact socket path AND session name, so two sessions whose slugs
 * agree ("a b", "a_b") never share a lock or a state file.
 */
export function sessionKey(session: string, socketPath: string): string {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(`${socketPath}\u0000${session}`)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const slug = session.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 64);
  return `drive-${slug}-${h.toString(16).padStart(8, "0")}`;
}
