/**
 * `drover drive` settings: flags override the configuration's [drive] table, which overrides the
 * built-in defaults. Validation errors are usage errors naming the flag or key to fix.
 */
import type { DriveConfig } from "../config/load.ts";
import { invalidArgument } from "../errors.ts";
import { DRIVE_DURATIONS, readDuration } from "../config/duration.ts";

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

export function resolveDriveOptions(
  flags: DriveFlags,
  cfg: DriveConfig,
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): DriveOptions {
  const session = flags.session ?? cfg.session;
  if (!session || session.trim() === "") {
    throw invalidArgument("drive needs a session: pass --session S (or set [drive].session)");
  }
  // A [drive] duration was checked against the same range when the config was loaded.
  const intervalMs = flags.interval !== undefined
    ? readDuration(flags.interval, "--interval", DRIVE_DURATIONS.interval)
    : cfg.intervalMs ?? DEFAULTS.intervalMs;
  const approve = flags.approve ?? cfg.approve ?? "none";
  if (approve !== "none" && approve !== "allowlist") {
    throw invalidArgument(`--approve must be "none" or "allowlist", got "${approve}"`);
  }
  const allow = [...(flags.allow ?? cfg.allow ?? [])].map((a) => a.trim()).filter((a) => a !== "");
  const nudge = flags.nudge ?? cfg.nudge;
  const nudgeEveryText = flags.nudgeEvery;
  let nudgeEveryMs = nudgeEveryText !== undefined
    ? readDuration(nudgeEveryText, "--nudge-every", DRIVE_DURATIONS.nudge_every)
    : cfg.nudgeEveryMs;
  if (nudgeEveryMs !== undefined && (nudge === undefined || nudge.trim() === "")) {
    throw invalidArgument("--nudge-every needs --nudge TEXT (or [drive].nudge)");
  }
  if (nudge !== undefined && nudge.trim() === "") throw invalidArgument("--nudge text is empty");
  if (nudge !== undefined) nudgeEveryMs ??= DEFAULTS.nudgeEveryMs;
  const dedupWindowMs = flags.dedupWindow !== undefined
    ? readDuration(flags.dedupWindow, "--dedup-window", DRIVE_DURATIONS.dedup_window)
    : cfg.dedupWindowMs ?? DEFAULTS.dedupWindowMs;
  const hookTimeoutMs = flags.hookTimeout !== undefined
    ? readDuration(flags.hookTimeout, "--hook-timeout", DRIVE_DURATIONS.hook_timeout)
    : cfg.hookTimeoutMs ?? DEFAULTS.hookTimeoutMs;
  const resume = flags.resume ?? cfg.resume;
  if (resume !== undefined && resume.trim() === "") throw invalidArgument("--resume text is empty");
  const resumeMarginMs = flags.resumeMargin !== undefined
    ? readDuration(flags.resumeMargin, "--resume-margin", DRIVE_DURATIONS.resume_margin)
    : cfg.resumeMarginMs ?? DEFAULTS.resumeMarginMs;
  if (flags.resumeMargin !== undefined && resume === undefined) {
    throw invalidArgument("--resume-margin needs --resume TEXT (or [drive].resume)");
  }
  let startAt: number | undefined;
  if (flags.now !== undefined) {
    startAt = Date.parse(flags.now);
    if (!Number.isFinite(startAt)) {
      throw invalidArgument(`--now: "${flags.now}" is not an ISO 8601 instant`);
    }
  }
  const stateDir = flags.state ?? cfg.state ?? defaultStateDir(env);
  if (!stateDir) {
    throw invalidArgument("no state directory: set HOME or XDG_STATE_HOME, or pass --state DIR");
  }
  const out: DriveOptions = {
    session: session.trim(),
    once: flags.once === true,
    intervalMs,
    approve,
    allow,
    dedupWindowMs,
    hookTimeoutMs,
    stateDir,
    confirmMs: DEFAULTS.confirmMs,
    verifyMs: DEFAULTS.verifyMs,
    resumeMarginMs,
  };
  if (resume !== undefined) out.resume = resume;
  if (startAt !== undefined) out.startAt = startAt;
  const orch = flags.orchestrator ?? cfg.orchestrator;
  if (orch !== undefined) out.orchestrator = orch;
  if (nudge !== undefined) {
    out.nudge = nudge;
    out.nudgeEveryMs = nudgeEveryMs;
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
