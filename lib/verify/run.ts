/**
 * Runs one CLI's scenario table (lib/scenarios) against an installed executable: a private tmux
 * server, one throwaway root (HOME, project, stand-in) per session, sessions side by side
 * (session.ts), each scenario's screen judged by `detect()` with the resolved profile
 * (scenario.ts), exactly as `drive` would see it.
 *
 * Every process it starts is ended when it returns, also when `signal` aborts (Ctrl-C): each
 * session kills its pane's whole process tree, and the server is killed with every tree still on
 * it. Temp roots are removed.
 */
import { reached } from "../scenarios/versions.ts";
import type { Session } from "../scenarios/types.ts";
import { privateServerName, startPrivateServer } from "../tmux/private.ts";
import { Aborted } from "./aborted.ts";
import { blank, orderResults, type ScenarioResult } from "./result.ts";
import type { Live, RunOptions, RunTarget } from "./run_types.ts";
import { runSession } from "./session.ts";
import { shutdown } from "./session_end.ts";

/** Run one table; resolves to one result per scenario (standard set + extras), in report order. */
export async function runTable(target: RunTarget, opts: RunOptions): Promise<ScenarioResult[]> {
  const { table } = target;
  const results: ScenarioResult[] = [];
  const emit = (r: ScenarioResult) => {
    results.push(r);
    opts.onResult?.(r);
  };
  if (!opts.sessions) {
    for (const [name, why] of Object.entries(table.skipped)) {
      emit(blank({ scenario: name, session: "-", status: "skipped", reason: why }));
    }
  }
  const queue: Session[] = [];
  for (const s of table.sessions) {
    if (opts.sessions && !opts.sessions.includes(s.name)) continue;
    if (s.since && !reached(target.version, s.since.version)) {
      const why = `${s.since.why} (needs ${table.cli} ${s.since.version} or later)`;
      for (const sc of s.scenarios) {
        emit(blank({ scenario: sc.name, session: s.name, status: "skipped", reason: why }));
      }
    } else queue.push(s);
  }
  if (queue.length === 0) return orderResults(results);
  const server = opts.server ?? await startPrivateServer(privateServerName("drover-verify"));
  const live: Live = { server, target, opts, stop: { now: false } };
  try {
    const worker = async () => {
      while (queue.length > 0) {
        const s = queue.shift()!;
        await runSession(live, s, emit);
      }
    };
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 5, queue.length)) }, worker),
    );
  } finally {
    if (!opts.server) await shutdown(server);
  }
  if (opts.signal.aborted) throw new Aborted("interrupted");
  return orderResults(results);
}
