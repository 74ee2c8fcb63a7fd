/**
 * The drive loop's I/O against a real tmux server: pane listing (one call), batched captures (one
 * call per tick for every pane, plain and styled), each pane judged with its own CLI's resolved
 * profile, keys through lib/tmux, approvals through lib/approve's gate.
 */
import { approve } from "../approve/approve.ts";
import { makeGateWords, toJudged } from "../approve/judge.ts";
import { type DetectClock, makeDetector } from "../detect/factory.ts";
import type { Config } from "../config/load.ts";
import { judgedByDefault } from "../profile/resolve.ts";
import { DroverError } from "../errors.ts";
import { type Identified, identifyPane, needsProcessTable } from "../identify/pane_cli.ts";
import { readProcTable } from "../identify/procs.ts";
import { orchestrators } from "../identify/roles.ts";
import { capturePane, capturePanes, type PaneCapture } from "../tmux/capture.ts";
import { listPanes, type PaneInfo } from "../tmux/panes.ts";
import { localTimeZone } from "../limit/local.ts";
import { describeServer, type TmuxServer } from "../tmux/run.ts";
import { sendKeys, typeText } from "../tmux/send.ts";
import { getPaneOption, setPaneOption, STRAY_KEY_OPTION } from "../tmux/options.ts";
import { commandStandsAlone, type DriveVerdicts, toDriveVerdicts } from "./verdicts.ts";
import type { DriveEvent } from "./events.ts";
import { DEFAULT_HOOK_TIMEOUT_MS, type HookProblem, runHook } from "./hook.ts";
import type { ApproveResult, DriveHost, HostPane } from "./host.ts";
import { sleep } from "../base/sleep.ts";

/** Default pause between typing a nudge and pressing Enter (git-paw's submit delay). */
export const DEFAULT_SETTLE_MS = 1500;

export interface TmuxHostOptions {
  server: TmuxServer;
  config: Config;
  session: string;
  /** --orchestrator / [drive].orchestrator. */
  orchestrator?: string;
  /** --settle: overrides every CLI's submit delay. */
  settleMs?: number;
  socketPath: string;
  /** Runtime bases for approve's claims instead of the user's own (lib/approve/claim.ts). */
  claimBases?: string[];
  /** How long lib/approve waits for the CLI to redraw after a key. */
  approveSettleMs?: number;
  /** Deadline of one --on-escalate run (default DEFAULT_HOOK_TIMEOUT_MS). */
  hookTimeoutMs?: number;
  /** The clock (epoch ms); the real one unless a test passes its own (`drive --now`). */
  clock?: () => number;
  /** The local zone for reset times printed without one (default: the machine's). */
  timeZone?: string;
}

/** Map "the session or its server went away" to SESSION_GONE; pass everything else through. */
export function asSessionGone(e: unknown, session: string, server: TmuxServer): unknown {
  if (!(e instanceof DroverError)) return e;
  if (e.code === "TARGET_NOT_FOUND" && /no tmux session named/.test(e.message)) {
    return new DroverError(
      "SESSION_GONE",
      `tmux session "${session}" no longer exists on ${
        describeServer(server)
      }; nothing left to drive`,
      { details: { session } },
    );
  }
  if (e.code === "TMUX_UNAVAILABLE" && /no tmux server is running/.test(e.message)) {
    return new DroverError(
      "SESSION_GONE",
      `the tmux server is gone (${e.message}); session "${session}" cannot be driven`,
      { details: { session } },
    );
  }
  return e;
}

const withNote = (note: string | null) => note === null ? {} : { profileNote: note };

function submitDelay(config: Config, cli: string): number | undefined {
  const v = config.clis[cli]?.extra?.submit_delay_ms;
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}

export class TmuxDriveHost implements DriveHost {
  private readonly ids = new Map<string, { key: string; identified: Identified }>();
  private readonly info = new Map<string, PaneInfo>();

  private readonly clock: DetectClock;

  constructor(private readonly o: TmuxHostOptions) {
    this.clock = { now: o.clock ?? Date.now, timeZone: o.timeZone ?? localTimeZone };
  }

  private gone(e: unknown): never {
    throw asSessionGone(e, this.o.session, this.o.server);
  }

  async panes(): Promise<HostPane[]> {
    let panes: PaneInfo[];
    try {
      panes = await listPanes(this.o.server, { session: this.o.session });
    } catch (e) {
      this.gone(e);
    }
    if (panes.length === 0) this.gone(new DroverError("TARGET_NOT_FOUND", "no tmux session named"));
    // Identification reads the process table: only for panes that are new or changed.
    const keyOf = (p: PaneInfo) => `${p.pid}\u001f${p.currentCommand}\u001f${p.droverCli}`;
    const stale = panes.filter((p) => this.ids.get(p.id)?.key !== keyOf(p));
    if (stale.length > 0) {
      const roots = stale.filter((p) => needsProcessTable(p, this.o.config)).map((p) => p.pid);
      const procs = roots.length > 0 ? await readProcTable(roots) : undefined;
      for (const p of stale) {
        this.ids.set(p.id, {
          key: keyOf(p),
          identified: identifyPane({ pane: p, config: this.o.config, procs }),
        });
      }
    }
    const live = new Set(panes.map((p) => p.id));
    for (const id of [...this.ids.keys()]) if (!live.has(id)) this.ids.delete(id);
    const roles = orchestrators(panes, this.o.orchestrator);
    this.info.clear();
    return panes.map((p) => {
      this.info.set(p.id, p);
      const cli = this.ids.get(p.id)!.identified.cli;
      return {
        ref: {
          id: p.id,
          target: p.target,
          cli,
          role: roles.ids.has(p.id) ? "orchestrator" as const : "agent" as const,
        },
        settleMs: this.o.settleMs ?? submitDelay(this.o.config, cli) ?? DEFAULT_SETTLE_MS,
        window: p.windowId,
        synchronized: p.windowSynchronized,
        ...withNote(judgedByDefault(cli, this.o.config)),
      };
    });
  }

  private judge(pane: HostPane, cap: PaneCapture): DriveVerdicts {
    const title = this.info.get(pane.ref.id)?.title;
    return toDriveVerdicts(
      makeDetector(pane.ref.cli, this.o.config, title, this.clock)(cap),
      cap.plain,
    );
  }

  async look(panes: HostPane[]): Promise<Map<string, DriveVerdicts>> {
    let caps: Map<string, PaneCapture>;
    try {
      caps = await capturePanes(this.o.server, panes.map((p) => p.ref.id), { styled: true });
    } catch (e) {
      this.gone(e);
    }
    const out = new Map<string, DriveVerdicts>();
    for (const p of panes) {
      const c = caps.get(p.ref.id);
      if (c) out.set(p.ref.id, this.judge(p, c));
    }
    return out;
  }

  async lookOne(pane: HostPane): Promise<DriveVerdicts | null> {
    try {
      // The capture every key is sent on also reads synchronize-panes (same tmux call).
      const cap = await capturePane(this.o.server, pane.ref.id, { styled: true, sync: true });
      return { ...this.judge(pane, cap), synchronized: cap.synchronized === true };
    } catch (e) {
      if (e instanceof DroverError && e.code === "TARGET_NOT_FOUND") return null;
      this.gone(e);
    }
  }

  async keys(pane: HostPane, keys: string[]): Promise<void> {
    try {
      await sendKeys(this.o.server, pane.ref.id, keys);
    } catch (e) {
      this.gone(e);
    }
  }

  async strayKey(pane: HostPane, clear = false): Promise<string | undefined> {
    try {
      if (clear) {
        await setPaneOption(this.o.server, pane.ref.id, STRAY_KEY_OPTION, "");
        return undefined;
      }
      return await getPaneOption(this.o.server, pane.ref.id, STRAY_KEY_OPTION);
    } catch (e) {
      if (e instanceof DroverError && e.code === "TARGET_NOT_FOUND") return undefined;
      this.gone(e);
    }
  }

  async typeLiteral(pane: HostPane, text: string): Promise<void> {
    try {
      await typeText(this.o.server, pane.ref.id, text);
    } catch (e) {
      this.gone(e);
    }
  }

  async approve(
    pane: HostPane,
    accept: (v: { command: string | null }) => boolean,
  ): Promise<ApproveResult> {
    const info = this.info.get(pane.ref.id);
    if (!info) {
      return { outcome: "refused", reason: "no-live-prompt", message: "pane not listed", sent: [] };
    }
    const detector = makeDetector(pane.ref.cli, this.o.config, info.title, this.clock);
    const words = makeGateWords(pane.ref.cli, this.o.config);
    let rejected = false;
    // Every capture the gate judges is re-checked against the allowlist decision made on the
    // sweep capture: a different (or no longer allowlisted) command reads as "no live prompt".
    const judge = (cap: PaneCapture) => {
      const raw = detector(cap);
      const j = toJudged(raw, cap, words);
      const standsAlone = commandStandsAlone(toDriveVerdicts(raw));
      if (j.live_prompt && (!accept(j) || !standsAlone)) {
        rejected = true;
        return { ...j, live_prompt: false, permission_prompt: false };
      }
      return j;
    };
    try {
      const r = await approve({
        server: this.o.server,
        pane: info,
        orchestrator: { is: pane.ref.role === "orchestrator", why: "drive orchestrator" },
        judge,
        words,
        profileNote: judgedByDefault(pane.ref.cli, this.o.config),
        dryRun: false,
        socketPath: this.o.socketPath,
        ...(this.o.claimBases === undefined ? {} : { runtimeBases: this.o.claimBases }),
        ...(this.o.approveSettleMs === undefined ? {} : { settleMs: this.o.approveSettleMs }),
      });
      if (rejected && r.outcome === "refused") {
        return {
          outcome: "refused",
          reason: "prompt-changed",
          message: "the prompt's command changed before the key was sent; no keys sent",
          sent: r.sent,
        };
      }
      return { outcome: r.outcome, reason: r.reason, message: r.message, sent: r.sent };
    } catch (e) {
      if (e instanceof DroverError && e.code === "TARGET_NOT_FOUND") {
        return { outcome: "refused", reason: "no-live-prompt", message: e.message, sent: [] };
      }
      this.gone(e);
    }
  }

  hook(cmd: string, e: DriveEvent): Promise<HookProblem | undefined> {
    return runHook(cmd, e, this.o.hookTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleep(ms, signal);
  }

  now(): number {
    return this.clock.now();
  }
}
