/**
 * `drover drive --session S …`: the unattended loop of DESIGN §9 (lib/drive). Events stream as
 * they happen — JSON lines with --json, short log lines otherwise — and the run ends with one
 * result (the drover.drive.v1 envelope under --json). Exit codes: see DRIVE_EXIT and the README.
 */
import { loadConfig } from "../config/discover.ts";
import { DroverError } from "../errors.ts";
import {
  appendEvent,
  checkEventsFile,
  type DriveEvent,
  eventJson,
  humanLine,
  makeEvent,
} from "../drive/events.ts";
import { acquireDriveLock, type DriveLock } from "../drive/lock.ts";
import { type DriveOptions, resolveDriveOptions, sessionKey } from "../drive/options.ts";
import { DriveLoop, type DriveRunOptions } from "../drive/run.ts";
import { DRIVE_EXIT, type DriveOutcome } from "../drive/outcome.ts";
import { loadState } from "../drive/state_file.ts";
import { isDiskFull } from "../io/safe_file.ts";
import { asSessionGone, TmuxDriveHost } from "../drive/host_tmux.ts";
import { listPanes, parseTarget } from "../tmux/panes.ts";
import { socketPath } from "../tmux/options.ts";
import { selectServer } from "../tmux/server.ts";
import type { TmuxServer } from "../tmux/run.ts";
import type { Config } from "../config/load.ts";
import type { Invocation } from "./invocation.ts";
import type { DRIVE } from "./command_specs.ts";
import { type CommandResult, type GlobalOptions, writeErr, writeOut } from "./output.ts";
import type { DriveData } from "../contracts/drive.ts";

const STOP_SIGNALS: Deno.Signal[] = ["SIGINT", "SIGTERM"];

export async function action(
  { opts: o, g }: Invocation<typeof DRIVE>,
): Promise<CommandResult<DriveData>> {
  const config = await loadConfig(g.config ? { path: g.config } : {});
  const opts = resolveDriveOptions(o, config.drive);
  if (opts.orchestrator !== undefined) parseTarget(opts.orchestrator);
  const server = selectServer(g);
  const sock = await sessionSocket(server, opts.session);
  await makeStateDir(opts.stateDir);
  // One drive per session whatever the state directory: keyed by the server's socket and the
  // session, held in the per-user runtime directories every drive of this user looks in.
  const key = sessionKey(opts.session, sock);
  const lock = await acquireDriveLock({ key, session: opts.session, stateDir: opts.stateDir });
  try {
    await checkOrchestrator(server, opts);
    return await driveLocked({ config, opts, g, server, sock, key, lock });
  } finally {
    lock.release();
  }
}

/** What a drive holding its session's lock works with. */
interface Locked {
  config: Config;
  opts: DriveOptions;
  g: GlobalOptions;
  server: TmuxServer;
  sock: string;
  key: string;
  lock: DriveLock;
}

async function sessionSocket(server: TmuxServer, session: string): Promise<string> {
  try {
    return await socketPath(server);
  } catch (e) {
    throw asSessionGone(e, session, server);
  }
}

async function makeStateDir(stateDir: string): Promise<void> {
  try {
    await Deno.mkdir(stateDir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new DroverError(
      "STATE_UNWRITABLE",
      `cannot create the drive state directory ${stateDir}: ${
        isDiskFull(e) ? "the disk or the quota is full: " : ""
      }${e instanceof Error ? e.message : String(e)}; nothing was touched (pass --state DIR)`,
    );
  }
}

/**
 * The orchestrator must be a pane of this session: a typo would otherwise leave the real
 * orchestrator open to approvals.
 */
async function checkOrchestrator(server: TmuxServer, opts: DriveOptions): Promise<void> {
  if (opts.orchestrator === undefined) return;
  const t = parseTarget(opts.orchestrator);
  let panes;
  try {
    panes = await listPanes(server, { session: opts.session });
  } catch (e) {
    throw asSessionGone(e, opts.session, server);
  }
  const hit = panes.some((p) =>
    t.kind === "id" ? p.id === t.id : p.sessionName === t.session && p.windowIndex === t.window &&
      p.paneIndex === t.pane
  );
  if (!hit) {
    throw new DroverError(
      "TARGET_NOT_FOUND",
      `orchestrator ${opts.orchestrator} is not a pane of session "${opts.session}" (fix --orchestrator or [drive].orchestrator)`,
    );
  }
}

/** Load the state, report what the start-up found, run the loop and shape its result. */
async function driveLocked(l: Locked): Promise<CommandResult<DriveData>> {
  const { opts } = l;
  // The hidden --now (tests): the clock starts there and runs at the real rate.
  const t0 = Date.now();
  const clock = opts.startAt === undefined ? undefined : () => opts.startAt! + (Date.now() - t0);
  const statePath = `${opts.stateDir}/${l.key}.state.json`;
  const loaded = await loadState(statePath, opts.session);
  const sink = eventSink(opts, l.g.json);
  if (opts.events) await checkEventsFile(opts.events);
  if (l.lock.fallback) {
    await sink(makeEvent(opts.session, "warning", l.lock.fallback, clock?.() ?? Date.now()));
  }
  if (loaded.warning) {
    await sink(makeEvent(opts.session, "state-reset", loaded.warning, clock?.() ?? Date.now()));
  }
  const host = new TmuxDriveHost({
    ...(clock === undefined ? {} : { clock }),
    server: l.server,
    config: l.config,
    session: opts.session,
    ...(opts.orchestrator === undefined ? {} : { orchestrator: opts.orchestrator }),
    ...(opts.settleMs === undefined ? {} : { settleMs: opts.settleMs }),
    hookTimeoutMs: opts.hookTimeoutMs,
    socketPath: l.sock,
  });
  const loop = new DriveLoop(host, loopOptions(opts, statePath), loaded.state, sink);
  const out = await runUntilSignalled(loop);
  return driveResult(opts, statePath, out);
}

/**
 * Where each event goes: the --events file, then stdout (JSON lines, or short log lines with
 * warnings on stderr; --once keeps its start and stop lines quiet).
 */
function eventSink(opts: DriveOptions, json: boolean): (e: DriveEvent) => Promise<void> {
  const quiet = new Set(opts.once ? ["drive-started", "drive-stopped"] : []);
  return async (e: DriveEvent) => {
    if (opts.events) {
      try {
        await appendEvent(opts.events, e);
      } catch (err) {
        writeErr(
          `warning: cannot append to ${opts.events}: ${
            err instanceof Error ? err.message : String(err)
          }\n`,
        );
      }
    }
    if (json) writeOut(eventJson(e) + "\n");
    else if (e.event === "warning") writeErr(`warning: ${humanLine(e)}\n`);
    else if (!quiet.has(e.event)) writeOut(humanLine(e) + "\n");
  };
}

function loopOptions(opts: DriveOptions, statePath: string): DriveRunOptions {
  return {
    session: opts.session,
    once: opts.once,
    intervalMs: opts.intervalMs,
    settings: {
      approve: opts.approve,
      allow: opts.allow,
      dedupWindowMs: opts.dedupWindowMs,
      ...(opts.nudge === undefined ? {} : { nudge: opts.nudge }),
      ...(opts.nudgeEveryMs === undefined ? {} : { nudgeEveryMs: opts.nudgeEveryMs }),
      ...(opts.resume === undefined ? {} : { resume: opts.resume }),
      resumeMarginMs: opts.resumeMarginMs,
    },
    confirmMs: opts.confirmMs,
    verifyMs: opts.verifyMs,
    ...(opts.onEscalate === undefined ? {} : { onEscalate: opts.onEscalate }),
    statePath,
    ...(opts.events === undefined ? {} : { checkFiles: () => checkEventsFile(opts.events!) }),
  };
}

/** Run the loop with SIGINT and SIGTERM asking it to stop after the current tick. */
async function runUntilSignalled(loop: DriveLoop): Promise<DriveOutcome> {
  const onSignal = () => loop.stop();
  try {
    for (const s of STOP_SIGNALS) Deno.addSignalListener(s, onSignal);
    return await loop.run();
  } finally {
    for (const s of STOP_SIGNALS) {
      try {
        Deno.removeSignalListener(s, onSignal);
      } catch {
        // never added
      }
    }
  }
}

function driveResult(
  opts: DriveOptions,
  statePath: string,
  out: DriveOutcome,
): CommandResult<DriveData> {
  const data: DriveData = {
    session: opts.session,
    outcome: out.reason,
    exit_code: out.exitCode,
    ticks: out.ticks,
    events: out.counts,
    state_file: statePath,
    message: out.message,
  };
  // Waiting out a usage limit is quiet (exit 75 tells cron; the `limit` event said why once).
  const human = out.reason === "orchestrator-limit"
    ? []
    : out.exitCode === DRIVE_EXIT.orchestratorUnavailable
    ? [`drive stopped: ${out.message} (exit 75)`]
    : out.exitCode === DRIVE_EXIT.panesSynchronized
    ? [`drive: ${out.message} (exit 19)`]
    : opts.once
    ? []
    : [
      `drive stopped after ${out.ticks} tick${out.ticks === 1 ? "" : "s"}: ${out.message}`,
    ];
  return { data, human, exitCode: out.exitCode };
}
