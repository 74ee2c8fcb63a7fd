/**
 * One session of a table: its stand-in and CLI started in a throwaway root, its scenarios played
 * in turn on the one pane, and everything it started ended, also when the run is interrupted.
 * Each scenario gets exactly one result: its own or, from where the session could not go on, what
 * stopped it.
 */
import { type Standin, startStandin } from "../scenarios/standin.ts";
import type { Scenario, Session } from "../scenarios/types.ts";
import { Aborted } from "./aborted.ts";
import { blank, type ScenarioResult, type Screen } from "./result.ts";
import type { Live, RunOptions } from "./run_types.ts";
import { runScenario } from "./scenario.ts";
import { endSession } from "./session_end.ts";
import { type SessionDirs, startCli } from "./session_start.ts";

type Emit = (r: ScenarioResult) => void;

/** What the scenarios a session could not play are reported as. */
type Rest =
  /** Interrupted, stopped at the first drift, or the scenario before did not reach its screen. */
  | { kind: "not-run"; reason: string }
  /** The CLI never showed its ready screen: the CLI's doing, a drift like a scenario's. */
  | { kind: "not-started"; why: string; screen: Screen | null }
  /** Not the CLI's doing (tmux, the file system): reported on the scenarios it cost. */
  | { kind: "failed"; why: string };

/** The scenarios a session left without a result of their own, and what they get instead. */
interface Left {
  scenarios: readonly Scenario[];
  rest: Rest;
}

/** The CLI's pane as the scenarios play on it. */
interface Pane {
  paneId: string;
  standin: Standin;
  project: string;
}

/** What a session holds until it ends: set as the CLI starts, read by the teardown. */
interface Held {
  tmuxSession: string;
  paneId?: string;
  standin?: Standin;
}

/** Run one session; each scenario's result is emitted as soon as it is known. */
export async function runSession(live: Live, session: Session, emit: Emit): Promise<void> {
  if (live.opts.signal.aborted || live.stop.now) {
    for (const s of session.scenarios) emit(restResult(session, s, notRun(live)));
    return;
  }
  const dirs = await makeDirs(live.opts, session);
  const held: Held = { tmuxSession: `${live.target.table.cli}-${session.name}` };
  try {
    const left = await play(live, session, dirs, held, emit);
    for (const s of left.scenarios) emit(restResult(session, s, left.rest));
    if (left.rest.kind === "not-started" && left.scenarios.length) stopOnDrift(live);
  } finally {
    await endSession(live.server, held.tmuxSession, held.paneId, dirs.root);
    await held.standin?.close().catch(() => {});
    if (!live.opts.flatRoot) await Deno.remove(dirs.root, { recursive: true }).catch(() => {});
  }
}

async function makeDirs(opts: RunOptions, session: Session): Promise<SessionDirs> {
  // Short paths: the project folder shows on screen (headers, footers, prompts), and a long one
  // wraps a narrow pane's footer. The lab passes a root of its own fixed-length shape.
  const root = opts.flatRoot ? opts.tmpRoot : `${opts.tmpRoot}/${session.name}`;
  if (!opts.flatRoot) await Deno.mkdir(root);
  return { root, home: `${root}/home`, project: `${root}/project` };
}

/** Start the stand-in and the CLI (recording both in `held`), then play the scenarios. */
async function play(
  live: Live,
  session: Session,
  dirs: SessionDirs,
  held: Held,
  emit: Emit,
): Promise<Left> {
  const all = session.scenarios;
  let pane: Pane;
  try {
    const standin = held.standin = await startStandin(live.target.table.api);
    const started = await startCli(live, session, held.tmuxSession, dirs, standin);
    if (!started.ok) {
      return {
        scenarios: all,
        rest: { kind: "not-started", why: started.why, screen: started.screen },
      };
    }
    held.paneId = started.paneId;
    held.tmuxSession = started.session;
    pane = { paneId: started.paneId, standin, project: dirs.project };
  } catch (e) {
    return { scenarios: all, rest: e instanceof Aborted ? notRun(live) : failed(e) };
  }
  return await playScenarios(live, session, pane, emit);
}

/** The scenarios in turn, each on the screen the one before left, until the run stops. */
async function playScenarios(
  live: Live,
  session: Session,
  pane: Pane,
  emit: Emit,
): Promise<Left> {
  const all = session.scenarios;
  let reached = true;
  for (const [n, s] of all.entries()) {
    if (live.opts.signal.aborted || live.stop.now) {
      return { scenarios: all.slice(n), rest: notRun(live) };
    }
    if (!reached) {
      const reason = `"${all[n - 1].name}" did not reach its screen`;
      emit(restResult(session, s, { kind: "not-run", reason }));
      continue;
    }
    const r = await playOne(live, session, s, pane);
    if (r === null) return { scenarios: all.slice(n), rest: notRun(live) };
    reached = r.screen !== null && r.reason === null;
    emit(r);
    if (r.status === "drift") stopOnDrift(live);
  }
  return { scenarios: [], rest: notRun(live) };
}

/** One scenario's own result, or null when the run was interrupted during it. */
async function playOne(
  live: Live,
  session: Session,
  s: Scenario,
  pane: Pane,
): Promise<ScenarioResult | null> {
  try {
    return await runScenario(live, session, s, pane.paneId, pane.standin, pane.project);
  } catch (e) {
    if (e instanceof Aborted) return null;
    return restResult(session, s, failed(e));
  }
}

/** Without --keep-going, a drift anywhere stops every session of the run. */
function stopOnDrift(live: Live): void {
  if (!live.opts.keepGoing) live.stop.now = true;
}

function notRun(live: Live): Rest {
  const reason = live.opts.signal.aborted
    ? "interrupted"
    : "stopped at the first drift (--keep-going runs everything)";
  return { kind: "not-run", reason };
}

function failed(e: unknown): Rest {
  return { kind: "failed", why: `error: ${e instanceof Error ? e.message : String(e)}` };
}

function restResult(session: Session, s: Scenario, rest: Rest): ScenarioResult {
  const named = { scenario: s.name, session: session.name };
  switch (rest.kind) {
    case "not-run":
      return blank({ ...named, status: "not-run", expect: s.expect, reason: rest.reason });
    case "not-started":
      return blank({
        ...named,
        status: "drift",
        expect: s.expect,
        reason: rest.why,
        screen: rest.screen,
      });
    case "failed":
      return blank({
        ...named,
        status: "drift",
        expect: s.expect,
        reason: rest.why,
        problems: [rest.why],
      });
  }
}
