/**
 * The unattended drive loop (DESIGN §9): each tick lists the session's panes, captures them all in
 * one batch, judges each with its own CLI's profile (decide.ts), and has act.ts carry out each
 * plan. The loop owns the timing, the order of the panes, the synchronized windows, the event
 * counts, the dedup of escalations and the state file; the acting is act.ts's and act_limit.ts's.
 *
 * All I/O goes through a DriveHost (host.ts) so the loop can run against tmux (host_tmux.ts) or a
 * test fake.
 */
import { DroverError } from "../errors.ts";
import { observe, planPane } from "./decide.ts";
import { type DriveEvent, type EventType, makeEvent, type PaneRef } from "./events.ts";
import type { DriveHost, HostPane } from "./host.ts";
import { act, sendsKeys } from "./act.ts";
import type { ActContext, ActOptions, Escalation } from "./act_context.ts";
import { DRIVE_EXIT, type DriveOutcome } from "./outcome.ts";
import { type DriveState, pruneState, shouldEmit } from "./state.ts";
import { refusedStatePath, saveState } from "./state_file.ts";
import { isDiskFull, NotRegularFile } from "../io/safe_file.ts";

export interface DriveRunOptions extends ActOptions {
  session: string;
  intervalMs: number;
  onEscalate?: string;
  statePath: string;
  /**
   * Checks the other files the run writes (the events file) at the start of every tick, right
   * after the state is written and before any key; throws STATE_UNWRITABLE to stop the run.
   */
  checkFiles?: () => Promise<void>;
  /** Stop after this many ticks (tests and the bench); undefined = until stopped. */
  maxTicks?: number;
}

export class DriveLoop {
  private stopping = false;
  private wake: AbortController | undefined;
  readonly counts: Partial<Record<EventType, number>> = {};

  constructor(
    private readonly host: DriveHost,
    private readonly opts: DriveRunOptions,
    private readonly state: DriveState,
    private readonly emitSink: (e: DriveEvent) => Promise<void> | void,
  ) {
    this.ctx = {
      host,
      opts,
      state,
      emit: (type, message, pane, extra) => this.emit(type, message, pane, extra),
      escalate: (pane, plan, force) => this.escalate(pane, plan, force),
      write: () => this.write(),
      outcome: (reason, exitCode, message) => this.outcome(reason, exitCode, message),
    };
  }

  /** What each pane's action is handed (act.ts). */
  private readonly ctx: ActContext;

  /** Ask the loop to stop after the current tick (signal handlers call this). */
  stop(): void {
    this.stopping = true;
    this.wake?.abort();
  }

  private async emit(
    type: EventType,
    message: string,
    pane?: PaneRef,
    extra: Partial<DriveEvent> = {},
  ): Promise<DriveEvent> {
    const e = makeEvent(this.opts.session, type, message, this.host.now(), pane, extra);
    this.counts[type] = (this.counts[type] ?? 0) + 1;
    await this.emitSink(e);
    return e;
  }

  /** Report an escalation once per dedup window per key, and run --on-escalate for it. */
  private async escalate(
    pane: PaneRef | undefined,
    plan: Escalation,
    force = false,
  ): Promise<boolean> {
    const now = this.host.now();
    if (!force && !shouldEmit(this.state, plan.key, now, this.opts.settings.dedupWindowMs)) {
      return false;
    }
    const extra: Partial<DriveEvent> = { reason: plan.reason };
    if (plan.verdict !== undefined) extra.verdict = plan.verdict;
    if (plan.command !== undefined) extra.command = plan.command;
    if (plan.file_path !== undefined) extra.file_path = plan.file_path;
    if (plan.text !== undefined) extra.text = plan.text;
    if (plan.resets_at !== undefined) extra.resets_at = plan.resets_at;
    const e = await this.emit("escalated", plan.message, pane, extra);
    if (this.opts.onEscalate) {
      const problem = await this.host.hook(this.opts.onEscalate, e);
      if (problem) await this.emit("warning", problem.message, pane, { detail: problem.detail });
    }
    return true;
  }

  private lastSaved = "";

  private async save(livePanes?: Set<string>): Promise<void> {
    const now = this.host.now();
    pruneState(this.state, now, this.opts.settings.dedupWindowMs, livePanes);
    // A quiet tick changes nothing worth a disk write (the loop may tick every few seconds).
    const content = JSON.stringify({ ...this.state, updatedAt: 0 });
    if (content === this.lastSaved) return;
    this.state.updatedAt = now;
    await this.write();
    this.lastSaved = content;
  }

  /**
   * State must persist or drive stops (issue 16): the state is what keeps a tick from repeating
   * the last one's Enter, approval or nudge. It is written at the start of every tick, before any
   * key — so a state file that cannot be written (a directory at its path, a full or read-only
   * disk) stops the run with STATE_UNWRITABLE (exit 74) instead of a warning every tick.
   */
  private async write(): Promise<void> {
    try {
      await saveState(this.opts.statePath, this.state);
    } catch (e) {
      if (e instanceof NotRegularFile) throw refusedStatePath(this.opts.statePath, e);
      throw new DroverError(
        "STATE_UNWRITABLE",
        `cannot write the drive state file ${this.opts.statePath} (${
          isDiskFull(e) ? "the disk or the quota is full: " : ""
        }${
          e instanceof Error ? e.message : String(e)
        }); drive stops before sending any key, since without its state every tick would repeat ` +
          "what the last one did — remove what sits at that path or pass --state DIR",
        { details: { state_file: this.opts.statePath } },
      );
    }
  }

  /** Windows the current tick left alone because they have synchronize-panes on. */
  private synchronizedWindows = new Set<string>();

  /**
   * No broadcast (issue 16): a window with synchronize-panes on gets no key at all — a key to one
   * of its panes is typed into every synchronized pane of it. The rest of the session is driven
   * as usual; the window is reported once per dedup window, and a `--once` run exits 19.
   */
  private async leaveSynchronized(pane: HostPane): Promise<void> {
    const window = pane.window ?? pane.ref.id;
    this.synchronizedWindows.add(window);
    await this.escalate(pane.ref, {
      kind: "escalate",
      reason: "synchronized",
      key: `${window}\u001fsynchronized`,
      message:
        `window ${window} has tmux synchronize-panes on: drive sends no key into its panes until ` +
        `it is off (tmux set-option -w -t ${window} synchronize-panes off)`,
    });
  }

  /** One sweep over every pane. Returns an exit outcome when the loop must end now. */
  async tick(): Promise<DriveOutcome | undefined> {
    this.synchronizedWindows.clear();
    await this.write();
    await this.opts.checkFiles?.();
    const panes = await this.host.panes();
    const seen = await this.host.look(panes);
    // The orchestrator first: if its CLI cannot serve, the run ends before anything else is touched.
    const ordered = [...panes].sort((a, b) =>
      (a.ref.role === "orchestrator" ? 0 : 1) - (b.ref.role === "orchestrator" ? 0 : 1)
    );
    for (const pane of ordered) {
      if (this.stopping) break;
      const v = seen.get(pane.ref.id);
      if (!v) continue; // vanished between listing and capture
      const now = this.host.now();
      observe(this.state, pane.ref, v, now);
      const plan = planPane(pane.ref, v, this.state, now, this.opts.settings);
      if (pane.synchronized || (pane.window && this.synchronizedWindows.has(pane.window))) {
        const keys = sendsKeys(plan);
        if (keys || pane.synchronized) await this.leaveSynchronized(pane);
        if (keys) continue;
      }
      let end: DriveOutcome | undefined;
      try {
        end = await act(this.ctx, pane, plan);
      } catch (e) {
        if (e instanceof DroverError && e.code === "PANES_SYNCHRONIZED") {
          // Turned on since the listing: seen on the fresh capture before the key.
          await this.leaveSynchronized(pane);
          continue;
        }
        // A pane closed mid-action is no reason to stop driving the others.
        if (!(e instanceof DroverError) || e.code !== "TARGET_NOT_FOUND") throw e;
        await this.emit("warning", `pane vanished while acting on it: ${e.message}`, pane.ref);
        continue;
      }
      if (end) {
        await this.save(new Set(panes.map((p) => p.ref.id)));
        return end;
      }
    }
    await this.save(new Set(panes.map((p) => p.ref.id)));
    return undefined;
  }

  private outcome(
    reason: DriveOutcome["reason"],
    exitCode: number,
    message: string,
  ): DriveOutcome {
    return { exitCode, reason, message, ticks: this.ticksDone, counts: this.counts };
  }

  private ticksDone = 0;

  /** Run until --once is done, the loop is stopped, or an exit condition is met. */
  async run(): Promise<DriveOutcome> {
    await this.emit(
      "drive-started",
      `driving session ${this.opts.session} (${
        this.opts.once ? "once" : `every ${this.opts.intervalMs} ms`
      }, approve ${this.opts.settings.approve})`,
      undefined,
      { detail: { approve: this.opts.settings.approve, once: this.opts.once } },
    );
    let result: DriveOutcome | undefined;
    try {
      for (;;) {
        const end = await this.tick();
        this.ticksDone++;
        if (end) {
          result = end;
          break;
        }
        if (this.opts.once) {
          const skipped = [...this.synchronizedWindows];
          result = skipped.length > 0
            ? this.outcome(
              "synchronized",
              DRIVE_EXIT.panesSynchronized,
              `one tick done; left window${skipped.length > 1 ? "s" : ""} ${
                skipped.join(", ")
              } alone: synchronize-panes is on (PANES_SYNCHRONIZED)`,
            )
            : this.outcome("once", DRIVE_EXIT.ok, "one tick done");
          break;
        }
        if (this.opts.maxTicks !== undefined && this.ticksDone >= this.opts.maxTicks) {
          result = this.outcome("max-ticks", DRIVE_EXIT.ok, `${this.ticksDone} ticks done`);
          break;
        }
        if (this.stopping) break;
        await this.interruptibleSleep(this.opts.intervalMs);
        if (this.stopping) break;
      }
    } catch (e) {
      if (
        e instanceof DroverError && (e.code === "SESSION_GONE" || e.code === "STATE_UNWRITABLE")
      ) {
        await this.emit("drive-stopped", e.message, undefined, { detail: { exit: e.exitCode } });
        throw e;
      }
      throw e;
    }
    result ??= this.outcome("stopped", DRIVE_EXIT.ok, "stopped by signal");
    await this.emit("drive-stopped", `${result.message} (exit ${result.exitCode})`, undefined, {
      detail: { exit: result.exitCode, ticks: this.ticksDone, reason: result.reason },
    });
    return result;
  }

  private async interruptibleSleep(ms: number): Promise<void> {
    this.wake = new AbortController();
    try {
      await this.host.sleep(ms, this.wake.signal);
    } finally {
      this.wake = undefined;
    }
  }
}
