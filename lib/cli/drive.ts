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
import { acquireDriveLock } from "../drive/lock.ts";
import { resolveDriveOptions, sessionKey } from "../drive/options.ts";
import { DriveLoop } from "../drive/run.ts";
import { DRIVE_EXIT } from "../drive/outcome.ts";
import { loadState } from "../drive/state_file.ts";
import { isDiskFull } from "../io/safe_file.ts";
import { asSessionGone, TmuxDriveHost } from "../drive/host_tmux.ts";
import { listPanes, parseTarget } from "../tmux/panes.ts";
import { socketPath } from "../tmux/options.ts";
import { selectServer } from "../tmux/server.ts";
import type { Invocation } from "./invocation.ts";
import type { DRIVE } from "./command_specs.ts";
import { type CommandResult, writeErr, writeOut } from "./output.ts";
import type { DriveData } from "../contracts/drive.ts";

export async function action(
  { opts: o, g }: Invocation<typeof DRIVE>,
): Promise<CommandResult<DriveData>> {
  const config = await loadConfig(g.config ? { path: g.config } : {});
  const opts = resolveDriveOptions(o, config.drive);
  if (opts.orchestrator !== undefined) parseTarget(opts.orchestrator);
  const server = selectServer(g);

  let sock: string;
  try {
    sock = await socketPath(server);
  } catch (e) {
    throw asSessionGone(e, opts.session, server);
  }
  try {
    await Deno.mkdir(opts.stateDir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new DroverError(
      "STATE_UNWRITABLE",
      `cannot create the drive state directory ${opts.stateDir}: ${
        isDiskFull(e) ? "the disk or the quota is full: " : ""
      }${e instanceof Error ? e.message : String(e)}; nothing was touched (pass --state DIR)`,
    );
  }
  // One drive per session whatever the state directory: keyed by the server's socket and the
  // session, held in the per-user runtime directories every drive of this user looks in.
  const key = sessionKey(opts.session, sock);
  const lock = await acquireDriveLock({ key, session: opts.session, stateDir: opts.stateDir });

  const stopSignals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  let loop: DriveLoop | undefined;
  const onSignal = () => loop?.stop();
  try {
    // The orchestrator must be a pane of this session: a typo would otherwise leave the real
    // orchestrator open to approvals.
    if (opts.orchestrator !== undefined) {
      const t = parseTarget(opts.orchestrator);
      let panes;
      try {
        panes = await listPanes(server, { session: opts.session });
      } catch (e) {
        throw asSessionGone(e, opts.session, server);
      }
      const hit = panes.some((p) =>
        t.kind === "id"
          ? p.id === t.id
          : p.sessionName === t.session && p.windowIndex === t.window &&
            p.paneIndex === t.pane
      );
      if (!hit) {
        throw new DroverError(
          "TARGET_NOT_FOUND",
          `orchestrator ${opts.orchestrator} is not a pane of session "${opts.session}" (fix --orchestrator or [drive].orchestrator)`,
        );
      }
    }

    // The hidden --now (tests): the clock starts there and runs at the real rate.
    const t0 = Date.now();
    const clock = opts.startAt === undefined ? undefined : () => opts.startAt! + (Date.now() - t0);
    const statePath = `${opts.stateDir}/${key}.state.json`;
    const loaded = await loadState(statePath, opts.session);
    const quiet = new Set(opts.once ? ["drive-started", "drive-stopped"] : []);
    const sink = async (e: DriveEvent) => {
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
      if (g.json) writeOut(eventJson(e) + "\n");
      else if (e.event === "warning") writeErr(`warning: ${humanLine(e)}\n`);
      else if (!quiet.has(e.event)) writeOut(humanLine(e) + "\n");
    };
    if (opts.events) await checkEventsFile(opts.events);
    if (lock.fallback) {
      await sink(makeEvent(opts.session, "warning", lock.fallback, clock?.() ?? Date.now()));
    }
    if (loaded.warning) {
      await sink(makeEvent(opts.session, "state-reset", loaded.warning, clock?.() ?? Date.now()));
    }

    const host = new TmuxDriveHost({
      ...(clock === undefined ? {} : { clock }),
      server,
      config,
      session: opts.session,
      ...(opts.orchestrator === undefined ? {} : { orchestrator: opts.orchestrator }),
      ...(opts.settleMs === undefined ? {} : { settleMs: opts.settleMs }),
      hookTimeoutMs: opts.hookTimeoutMs,
      socketPath: sock,
    });
    loop = new DriveLoop(
      host,
      {
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
      },
      loaded.state,
      sink,
    );
    for (const s of stopSignals) Deno.addSignalListener(s, onSignal);
    const out = await loop.run();
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
  } finally {
    for (const s of stopSignals) {
      try {
        Deno.removeSignalListener(s, onSignal);
      } catch {
        // never added
      }
    }
    lock.release();
  }
}
