/**
 * Run the drover CLI the way a user would: the compiled binary when DROVER_BIN is set, otherwise
 * `deno run main.ts` with the same V8 flags the binary bakes in.
 */
import { V8_FLAGS } from "../../tools/compile.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
export const MAIN = ROOT + "main.ts";
export const REPO_ROOT = ROOT;
/** The V8 flags drover runs with (one definition: tools/compile.ts). */
export { V8_FLAGS };

/**
 * Deno's own cache, pinned for every process the tests start: several tests give drover a fresh
 * HOME or XDG_CACHE_HOME (for drover's caches), which would otherwise move Deno's module cache
 * too and make each such `deno run` fetch every npm dependency again.
 */
if (!Deno.env.get("DROVER_BIN") && !Deno.env.get("DENO_DIR")) {
  const info = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  try {
    const dir = JSON.parse(new TextDecoder().decode(info.stdout)).denoDir;
    if (typeof dir === "string" && dir !== "") Deno.env.set("DENO_DIR", dir);
  } catch {
    // no `deno info`: children use Deno's default, as before
  }
}

export interface DroverRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface DroverRunOptions {
  stdin?: string | Uint8Array;
  env?: Record<string, string>;
  clearEnv?: boolean;
  cwd?: string;
}

/** argv prefix that starts drover: [executable, ...args]. */
export function droverCommand(): [string, string[]] {
  const bin = Deno.env.get("DROVER_BIN");
  if (bin) return [bin, []];
  return [Deno.execPath(), ["run", "-A", "--quiet", V8_FLAGS, MAIN]];
}

export async function drover(args: string[], opts: DroverRunOptions = {}): Promise<DroverRun> {
  const [exe, pre] = droverCommand();
  const cmd = new Deno.Command(exe, {
    args: [...pre, ...args],
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...opts.env },
    clearEnv: opts.clearEnv ?? false,
    cwd: opts.cwd ?? ROOT,
  });
  let out: Deno.CommandOutput;
  if (opts.stdin === undefined) {
    out = await cmd.output();
  } else {
    const child = cmd.spawn();
    const w = child.stdin.getWriter();
    await w.write(
      typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : opts.stdin,
    );
    await w.close();
    out = await child.output();
  }
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * One `drive --once --json` tick over `session` on the test server `server`, with its state in
 * `state` and XDG_RUNTIME_DIR at `runtime` (claims, locks); `extra` adds flags (`--approve`, …).
 */
export function driveTick(
  server: string,
  session: string,
  state: string,
  runtime: string,
  extra: string[] = [],
): Promise<DroverRun> {
  return drover(
    ["-L", server, "drive", "--session", session, "--once", "--json", "--state", state, ...extra],
    { env: { XDG_RUNTIME_DIR: runtime } },
  );
}

/** Parse a --json envelope, failing loudly with the raw output when it is not one. */
// Tests read arbitrary envelope data; the schema tests pin its shape.
// deno-lint-ignore no-explicit-any
type Loose = any;

export function envelope(
  run: DroverRun,
): { ok: boolean; schema: string; data?: Loose; error?: Loose } {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`not a JSON envelope (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}
