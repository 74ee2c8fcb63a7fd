/**
 * drover's commands run in this process: the same command code a `drover approve` or `drover send`
 * process runs (lib/cli/<command>.ts `action`, on the same real tmux server, pressing the same
 * keys), without starting a process for it. A test that puts a whole corpus of screens in front
 * of a command runs most of them here and keeps real processes for one screen of each kind: the
 * process layer (argv, printing, exit) is the same for every screen, the judgement is not.
 *
 * What comes back is what the process would have said: the `--json` envelope's data, or its
 * error, and the exit code.
 */
import { DroverError } from "../../lib/errors.ts";
import type { GlobalOptions } from "../../lib/cli/output.ts";
import type { ApproveData } from "../../lib/contracts/approve.ts";

export interface InProcessRun<T> {
  code: number;
  data?: T;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

/** Run a command body as dispatch does: its result's exit code, or a DroverError's. */
async function runHere<T>(body: () => Promise<{ data: T; exitCode?: number }>): Promise<
  InProcessRun<T>
> {
  try {
    const r = await body();
    return { code: r.exitCode ?? 0, data: r.data };
  } catch (e) {
    if (!(e instanceof DroverError)) throw e;
    return { code: e.exitCode, error: { code: e.code, message: e.message, details: e.details } };
  }
}

const globals = (socketName: string): GlobalOptions => ({ socketName, json: true, color: false });

/** `drover -L <socketName> --json approve <target>`, in this process. */
export async function approveHere(
  socketName: string,
  target: string,
): Promise<InProcessRun<ApproveData>> {
  const { action } = await import("../../lib/cli/approve.ts");
  return await runHere(() => action({ args: { target }, opts: {}, g: globals(socketName) }));
}

/** `drover -L <socketName> --json send <target> <text...>`, in this process. */
export async function sendHere(
  socketName: string,
  target: string,
  text: string[],
): Promise<InProcessRun<unknown>> {
  const { action } = await import("../../lib/cli/send.ts");
  return await runHere(() => action({ args: { target, text }, opts: {}, g: globals(socketName) }));
}

/**
 * Each item with `first`: whether it is the first of its kind (`kindOf`), the ones a test runs
 * through a real drover process while the rest run here.
 */
export function firstOfEachKind<T>(
  items: T[],
  kindOf: (t: T) => string,
): (T & { first: boolean })[] {
  const seen = new Set<string>();
  return items.map((t) => {
    const kind = kindOf(t);
    const first = !seen.has(kind);
    seen.add(kind);
    return { ...t, first };
  });
}
