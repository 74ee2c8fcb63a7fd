/**
 * The `--on-escalate` hook: the user's shell command, run once per escalation with the event on
 * stdin and in the environment. It gets a deadline (`--hook-timeout`, `[drive].hook_timeout`):
 * a hook that hangs would otherwise hold the tick — and with it every other pane — for as long as
 * it likes. At the deadline the hook's whole process tree is ended (SIGTERM, then SIGKILL), since
 * `sh -c 'a; b'` forks children that outlive a killed shell and keep its pipes open.
 */
import { readProcTable } from "../identify/procs.ts";
import { type DriveEvent, eventJson } from "./events.ts";
import { sleep } from "../base/sleep.ts";

export const DEFAULT_HOOK_TIMEOUT_MS = 5_000;
/** How long the hook's processes get between SIGTERM and SIGKILL. */
const GRACE_MS = 500;
/** The most stderr kept for the report (its last line is quoted). */
const STDERR_KEEP = 8 * 1024;

/** Why a hook run deserves a warning event; `detail` goes into the event. */
export interface HookProblem {
  message: string;
  detail: Record<string, unknown>;
}

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT"); // a harmless signal: fails once the process is gone
    return true;
  } catch {
    return false;
  }
}

/** `pid` and every process below it, parents first. */
async function treeOf(pid: number): Promise<number[]> {
  const table = await readProcTable();
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    for (const p of table.values()) if (p.ppid === out[i] && !out.includes(p.pid)) out.push(p.pid);
  }
  return out;
}

/** End a process tree: SIGTERM to all, SIGKILL to what is left after a grace period. */
export async function killTree(pid: number): Promise<number> {
  const pids = await treeOf(pid);
  for (const p of pids) {
    try {
      Deno.kill(p, "SIGTERM");
    } catch {
      // already gone
    }
  }
  await sleep(GRACE_MS);
  for (const p of pids) {
    if (!alive(p)) continue;
    try {
      Deno.kill(p, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  return pids.length;
}

/** The tail of a stream, read until it closes or `stop` resolves. */
async function tail(stream: ReadableStream<Uint8Array>, stop: Promise<void>): Promise<string> {
  const reader = stream.getReader();
  let kept = new Uint8Array(0);
  const done = (async () => {
    while (true) {
      const r = await reader.read();
      if (r.done) return;
      const next = new Uint8Array(kept.length + r.value.length);
      next.set(kept);
      next.set(r.value, kept.length);
      kept = next.length > STDERR_KEEP ? next.slice(next.length - STDERR_KEEP) : next;
    }
  })().catch(() => {});
  await Promise.race([done, stop]);
  await reader.cancel().catch(() => {});
  return new TextDecoder().decode(kept);
}

/** Run the hook for one event; undefined when it exited 0 within its time. */
export async function runHook(
  cmd: string,
  e: DriveEvent,
  timeoutMs: number = DEFAULT_HOOK_TIMEOUT_MS,
): Promise<HookProblem | undefined> {
  const json = eventJson(e);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("sh", {
      args: ["-c", cmd],
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
      env: {
        DROVER_EVENT: json,
        DROVER_SESSION: e.session,
        DROVER_PANE: e.pane ?? "",
        DROVER_TARGET: e.target ?? "",
        DROVER_CLI: e.cli ?? "",
        DROVER_REASON: e.reason ?? "",
        DROVER_VERDICT: e.verdict ?? "",
        DROVER_COMMAND: e.command ?? "",
        DROVER_MESSAGE: e.message,
      },
    }).spawn();
  } catch (err) {
    return {
      message: `--on-escalate command could not start: ${
        err instanceof Error ? err.message : String(err)
      }`,
      detail: { hook: "failed" },
    };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((r) => {
    timer = setTimeout(() => r("timeout"), timeoutMs);
  });
  let stopReading = () => {};
  const stopped = new Promise<void>((r) => (stopReading = r));
  const stderr = tail(child.stderr, stopped);
  // The event on stdin; a hook that never reads it must not block us (the pipe buffer is large
  // enough for one event, and a closed pipe is ignored).
  const fed = (async () => {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(json + "\n")).catch(() => {});
    await w.close().catch(() => {});
  })();
  const first = await Promise.race([child.status, deadline]);
  clearTimeout(timer);
  if (first === "timeout") {
    const killed = await killTree(child.pid);
    // A process that left the tree may still hold stderr: stop reading rather than wait for it.
    await Promise.race([child.status, sleep(GRACE_MS)]);
    stopReading();
    await Promise.all([stderr, fed]);
    await child.status;
    return {
      message: `--on-escalate command did not finish within ${timeoutMs} ms; ended it and ` +
        `${killed - 1} process(es) it started (raise --hook-timeout if it needs longer)`,
      detail: { hook: "timeout", timeout_ms: timeoutMs, processes_ended: killed },
    };
  }
  await Promise.race([stderr, sleep(GRACE_MS)]);
  stopReading();
  const err = (await stderr).trim().split("\n").slice(-1)[0]?.slice(0, 300) ?? "";
  await fed;
  if (first.code !== 0) {
    return {
      message: `--on-escalate command exited ${first.code}${err ? `: ${err}` : ""}`,
      detail: { hook: "failed", exit_code: first.code },
    };
  }
  return undefined;
}
