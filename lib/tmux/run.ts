/**
 * The one primitive that spawns tmux. Every other tmux module builds on `tmux()`; nothing outside
 * lib/tmux may spawn tmux.
 */
import { DroverError, invalidArgument } from "../errors.ts";
import { describeBytes } from "../io/capped.ts";
import type { TmuxArg } from "./arg.ts";
import { clip } from "../base/clip.ts";

/** Which tmux server to talk to: -L name, -S path, else $TMUX's socket, else tmux's default. */
export interface TmuxServer {
  socketName?: string;
  socketPath?: string;
}

export interface TmuxResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TmuxCallOptions {
  /** Bytes for tmux's stdin (e.g. load-buffer -). */
  stdin?: string | Uint8Array;
  /** Return a non-zero result instead of throwing TMUX_FAILED. */
  allowFailure?: boolean;
  /** Per-call timeout in milliseconds (default 10 s). */
  timeoutMs?: number;
  /** Most bytes tmux may print on stdout (default MAX_TMUX_OUTPUT). */
  maxOutput?: number;
}

/**
 * The most one tmux call may print. Captures are screen-sized (plus the scrollback a user asks
 * for), so this is far above any real answer; past it the call is abandoned, not buffered.
 */
export const MAX_TMUX_OUTPUT = 16 * 1024 * 1024;

/** tmux's argv prefix for a server selection. */
export function serverArgs(server: TmuxServer): string[] {
  if (server.socketPath) return ["-S", server.socketPath];
  if (server.socketName) return ["-L", server.socketName];
  return [];
}

export function describeServer(server: TmuxServer): string {
  if (server.socketPath) return `tmux server at ${server.socketPath}`;
  if (server.socketName) return `tmux server "-L ${server.socketName}"`;
  const inside = Deno.env.get("TMUX");
  if (inside) return `tmux server of $TMUX (${inside.split(",")[0]})`;
  return "the default tmux server";
}

const NO_SERVER =
  /no server running|error connecting to|failed to connect to server|server exited/i;

/** Candidate tmux executables: PATH first, then the usual absolute homes (cron has a tiny PATH). */
const TMUX_CANDIDATES = ["tmux", "/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"];
let resolvedTmux: string | undefined;

function tmuxEnv(): Record<string, string> {
  // tmux refuses some commands without a terminal type; cron has none.
  return Deno.env.get("TERM") ? {} : { TERM: "xterm-256color" };
}

async function spawnTmux(
  exe: string,
  args: string[],
  opts: TmuxCallOptions,
  what: string,
): Promise<{ code: number; stdout: Uint8Array; stderr: Uint8Array }> {
  const deadline = AbortSignal.timeout(opts.timeoutMs ?? 10_000);
  const child = new Deno.Command(exe, {
    args,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: tmuxEnv(),
    signal: deadline,
  }).spawn();
  const limit = opts.maxOutput ?? MAX_TMUX_OUTPUT;
  const [stdout, stderr] = await Promise.all([
    collect(child.stdout, limit, () => {
      try {
        child.kill("SIGKILL");
      } catch {
        // it already exited
      }
    }),
    collect(child.stderr, 64 * 1024, () => {}),
    (async () => {
      if (opts.stdin === undefined) return;
      const writer = child.stdin.getWriter();
      const bytes = typeof opts.stdin === "string"
        ? new TextEncoder().encode(opts.stdin)
        : opts.stdin;
      // tmux may exit before reading everything (a failed command): its stdin closes early.
      await writer.write(bytes).catch(() => {});
      await writer.close().catch(() => {});
    })(),
  ]);
  const status = await child.status;
  if (deadline.aborted) throw new DroverError("TMUX_FAILED", `tmux ${what} did not answer in time`);
  if (stdout.over) {
    throw invalidArgument(
      `tmux printed more than ${describeBytes(limit)} for one ${what}; ask for less (e.g. ` +
        "fewer --lines of scrollback)",
      { limit_bytes: limit },
    );
  }
  return { code: status.code, stdout: stdout.bytes, stderr: stderr.bytes };
}

/** A stream's first `limit` bytes, and whether it went past them (the rest is drained). */
async function collect(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  onOver: () => void,
): Promise<{ bytes: Uint8Array; over: boolean }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  for await (const c of stream) {
    if (over) continue;
    if (total + c.length > limit) {
      over = true;
      chunks.push(c.subarray(0, limit - total));
      total = limit;
      onOver();
      continue;
    }
    chunks.push(c);
    total += c.length;
  }
  const bytes = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    bytes.set(c, off);
    off += c.length;
  }
  return { bytes, over };
}

/** Run one tmux command against a server. Throws TMUX_UNAVAILABLE / TMUX_FAILED. */
export async function tmux(
  server: TmuxServer,
  args: readonly TmuxArg[],
  opts: TmuxCallOptions = {},
): Promise<TmuxResult> {
  // -u: without a UTF-8 locale (cron's environment) tmux rewrites control and non-ASCII bytes in
  // format output as "_", which would break the separators of list-panes / batched captures.
  const argv = ["-u", ...serverArgs(server), ...args];
  let out: { code: number; stdout: Uint8Array; stderr: Uint8Array } | undefined;
  const candidates = resolvedTmux ? [resolvedTmux] : TMUX_CANDIDATES;
  for (const exe of candidates) {
    try {
      out = await spawnTmux(exe, argv, opts, args[0] ?? "call");
      resolvedTmux = exe;
      break;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotCapable) continue;
      throw e;
    }
  }
  if (!out) {
    throw new DroverError(
      "TMUX_UNAVAILABLE",
      "tmux is not installed or not on PATH (need tmux >= 3.2; e.g. apt-get install tmux)",
    );
  }
  const dec = new TextDecoder();
  const result = { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  if (result.code !== 0 && !opts.allowFailure) throw tmuxFailure(server, args, result);
  return result;
}

/** The error for a failed tmux call: TMUX_UNAVAILABLE when no server answered, else TMUX_FAILED. */
export function tmuxFailure(
  server: TmuxServer,
  args: readonly string[],
  result: TmuxResult,
): DroverError {
  const msg = result.stderr.trim() || `exit code ${result.code}`;
  if (NO_SERVER.test(msg)) {
    return new DroverError(
      "TMUX_UNAVAILABLE",
      `no tmux server is running for ${describeServer(server)} (${clip(msg, 300)}); start one ` +
        "or pass -L/-S",
    );
  }
  return new DroverError("TMUX_FAILED", `tmux ${args[0]} failed: ${clip(msg, 300)}`, {
    details: { args: args.map((a) => clip(a, 200)), stderr: clip(result.stderr, 2000) },
  });
}

/** True when tmux's stderr says the target pane/window/session does not exist. */
export function isMissingTarget(stderr: string): boolean {
  return /can't find (pane|window|session)|no such (pane|window|session)|session not found/i.test(
    stderr,
  );
}
