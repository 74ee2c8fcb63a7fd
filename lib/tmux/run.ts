/**
 * The one primitive that spawns tmux. Every other tmux module builds on `tmux()`; nothing outside
 * lib/tmux may spawn tmux.
 */
import { DroverError } from "../errors.ts";

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
}

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
): Promise<Deno.CommandOutput> {
  const cmd = new Deno.Command(exe, {
    args,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: tmuxEnv(),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  if (opts.stdin === undefined) return await cmd.output();
  const child = cmd.spawn();
  const writer = child.stdin.getWriter();
  const bytes = typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : opts.stdin;
  await writer.write(bytes);
  await writer.close();
  return await child.output();
}

/** Run one tmux command against a server. Throws TMUX_UNAVAILABLE / TMUX_FAILED. */
export async function tmux(
  server: TmuxServer,
  args: string[],
  opts: TmuxCallOptions = {},
): Promise<TmuxResult> {
  // -u: without a UTF-8 locale (cron's environment) tmux rewrites control and non-ASCII bytes in
  // format output as "_", which would break the separators of list-panes / batched captures.
  const argv = ["-u", ...serverArgs(server), ...args];
  let out: Deno.CommandOutput | undefined;
  const candidates = resolvedTmux ? [resolvedTmux] : TMUX_CANDIDATES;
  for (const exe of candidates) {
    try {
      out = await spawnTmux(exe, argv, opts);
      resolvedTmux = exe;
      break;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotCapable) continue;
      if (e instanceof DOMException && (e.name === "TimeoutError" || e.name === "AbortError")) {
        throw new DroverError("TMUX_FAILED", `tmux ${args[0]} did not answer in time`);
      }
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
  if (result.code !== 0 && !opts.allowFailure) {
    const msg = result.stderr.trim() || `exit code ${result.code}`;
    if (NO_SERVER.test(msg)) {
      throw new DroverError(
        "TMUX_UNAVAILABLE",
        `no tmux server is running for ${describeServer(server)} (${msg}); start one or pass -L/-S`,
      );
    }
    throw new DroverError("TMUX_FAILED", `tmux ${args[0]} failed: ${msg}`, {
      details: { args, stderr: result.stderr },
    });
  }
  return result;
}

/** True when tmux's stderr says the target pane/window/session does not exist. */
export function isMissingTarget(stderr: string): boolean {
  return /can't find (pane|window|session)|no such (pane|window|session)|session not found/i.test(
    stderr,
  );
}
