/**
 * The unattended drive loop (DESIGN §9): each tick lists the session's panes, captures them all in
 * one batch, judges each with its own CLI's profile (decide.ts), and acts — every action
 * re-confirmed on a fresh capture first, approvals only through lib/approve's §6 gate.
 *
 * All I/O goes through a DriveHost so the loop can run against tmux (host_tmux.ts) or a test fake.
 */
import { DroverError } from "../errors.ts";
import {
  type DriveSettings,
  holdsStrayKey,
  observe,
  type PanePlan,
  planPane,
  strandedText,
  strayKeyEscalation,
} from "./decide.ts";
import { type DriveVerdicts } from "./verdicts.ts";
import { classifyCommand } from "../shell/allowlist.ts";
import { type DriveEvent, type EventType, makeEvent, type PaneRef } from "./events.ts";
import type { HookProblem } from "./hook.ts";
import { comebackWhen, newBelowBanner, readyForResume } from "./limit.ts";
import { type NudgePort, nudgeText, sendNudge, wedgedHow } from "./nudge.ts";
import { type DriveState, type LimitMemory, pruneState, shouldEmit } from "./state.ts";
import { refusedStatePath, saveState } from "./state_file.ts";
import { isDiskFull, NotRegularFile } from "../io/safe_file.ts";
import { oneLine } from "../base/clip.ts";

/** Exit codes of `drover drive` (README table). */
export const DRIVE_EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  tmuxUnavailable: 3,
  sessionGone: 69,
  driveLocked: 73,
  stateUnwritable: 74,
  orchestratorUnavailable: 75,
  /** `--once`: a window was left alone because it has synchronize-panes on. */
  panesSynchronized: 19,
} as const;

export interface HostPane {
  ref: PaneRef;
  /** Settle delay between typing and Enter for this pane's CLI. */
  settleMs: number;
  /** The pane's window id ("@3"). */
  window?: string;
  /** Some pane of its window has synchronize-panes on (listed at the start of the tick). */
  synchronized?: boolean;
  /**
   * Set when no profile describes the pane's CLI (lib/profile/resolve.ts `judgedByDefault`): the
   * sentence its dialog and prompt escalations carry.
   */
  profileNote?: string;
}

export interface ApproveResult {
  outcome: "approved" | "would-approve" | "refused" | "unconfirmed" | "key-in-input";
  reason: string | null;
  message: string;
  sent: string[];
}

export interface DriveHost {
  /** The session's panes with CLI and role. Throws SESSION_GONE when the session or server is gone. */
  panes(): Promise<HostPane[]>;
  /** Judged captures of many panes in one go; a vanished pane is missing from the map. */
  look(panes: HostPane[]): Promise<Map<string, DriveVerdicts>>;
  /** One fresh judged capture; null when the pane vanished. */
  lookOne(pane: HostPane): Promise<DriveVerdicts | null>;
  keys(pane: HostPane, keys: string[]): Promise<void>;
  typeLiteral(pane: HostPane, text: string): Promise<void>;
  /**
   * The key an approver (any: drover approve, sweep.sh, drive) left in the pane's input box by
   * mistake (key-in-input), from the pane's own marker; undefined when none. `clear` drops it.
   */
  strayKey?(pane: HostPane, clear?: boolean): Promise<string | undefined>;
  /**
   * The §6 gate. `accept` re-checks each capture the gate judges: a capture it rejects must be
   * treated as "no live prompt" so nothing is sent.
   */
  approve(
    pane: HostPane,
    accept: (v: { command: string | null }) => boolean,
  ): Promise<ApproveResult>;
  /** Run --on-escalate; resolves to what went wrong (failed, timed out), if anything. */
  hook(cmd: string, e: DriveEvent): Promise<HookProblem | undefined>;
  /** Wait; resolves early (and clears its timer) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  now(): number;
}

export interface DriveRunOptions {
  session: string;
  once: boolean;
  intervalMs: number;
  settings: DriveSettings;
  /** Delay before the second capture that confirms an orchestrator's unavailability. */
  confirmMs: number;
  /** Delay between Enter and the capture that verifies a nudge left the input box. */
  verifyMs: number;
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

export interface DriveOutcome {
  exitCode: number;
  ticks: number;
  reason:
    | "once"
    | "stopped"
    | "max-ticks"
    | "orchestrator-unavailable"
    | "orchestrator-limit"
    | "session-gone"
    | "synchronized";
  message: string;
  counts: Partial<Record<EventType, number>>;
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
  ) {}

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
    plan: Extract<PanePlan, { kind: "escalate" }>,
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
      // Only plans that send keys are held back; escalations and the unavailability check send none.
      const sendsKeys = plan.kind === "submit" || plan.kind === "approve" ||
        plan.kind === "nudge" ||
        (plan.kind === "limit" && plan.step.kind === "resume");
      if (pane.synchronized || (pane.window && this.synchronizedWindows.has(pane.window))) {
        if (sendsKeys || pane.synchronized) await this.leaveSynchronized(pane);
        if (sendsKeys) continue;
      }
      let end: DriveOutcome | undefined;
      try {
        end = await this.act(pane, plan);
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

  private async act(pane: HostPane, plan: PanePlan): Promise<DriveOutcome | undefined> {
    const ref = pane.ref;
    switch (plan.kind) {
      case "nothing":
        return undefined;
      case "escalate":
        await this.escalate(ref, noted(plan, pane));
        return undefined;
      case "confirm-unavailable": {
        await this.host.sleep(this.opts.confirmMs);
        const again = await this.host.lookOne(pane);
        if (!again || again.cli_unavailable === null) return undefined;
        const message =
          `the orchestrator's ${ref.cli} CLI cannot serve (seen on two captures): ${again.cli_unavailable.trim()}`;
        const resets = again.limit && again.limit_resets_at
          ? { resets_at: again.limit_resets_at }
          : {};
        await this.emit("orchestrator-unavailable", message, ref, {
          text: again.cli_unavailable,
          ...resets,
        });
        await this.escalate(ref, {
          kind: "escalate",
          reason: "orchestrator-unavailable",
          key: `${ref.id}\u001forchestrator-unavailable`,
          text: again.cli_unavailable,
          message,
          ...resets,
        }, true);
        return this.outcome(
          "orchestrator-unavailable",
          DRIVE_EXIT.orchestratorUnavailable,
          message,
        );
      }
      case "submit": {
        const fresh = await this.host.lookOne(pane);
        if (fresh?.synchronized) throw synchronizedNow(pane);
        if (!fresh || strandedText(fresh) !== plan.text) return undefined;
        // A stray key another approver left (the pane's marker) is never submitted either.
        const stray = await this.host.strayKey?.(pane);
        if (stray !== undefined && holdsStrayKey(fresh, stray)) {
          (this.state.panes[ref.id] ??= {}).strayKey = { text: stray, at: this.host.now() };
          const e = strayKeyEscalation(ref, plan.text, stray);
          if (e.kind === "escalate") await this.escalate(ref, e);
          return undefined;
        }
        if (stray !== undefined) await this.host.strayKey?.(pane, true);
        await this.host.keys(pane, ["Enter"]);
        (this.state.panes[ref.id] ??= {}).submitted = { text: plan.text, at: this.host.now() };
        await this.emit(
          "input-submitted",
          `pressed Enter once for typed-but-unsent input "${oneLine(plan.text, 120)}"`,
          ref,
          { text: plan.text },
        );
        return undefined;
      }
      case "approve": {
        const allow = this.opts.settings.allow;
        const expected = plan.command;
        const r = await this.host.approve(
          pane,
          (v) => v.command === expected && classifyCommand(v.command, allow).decision === "allow",
        );
        if (r.reason === "synchronized") throw synchronizedNow(pane);
        if (r.reason === "key-in-input" && r.sent.length > 0) {
          // Remembered across ticks: the stray key is never pressed Enter on as stranded input.
          (this.state.panes[ref.id] ??= {}).strayKey = { text: r.sent[0], at: this.host.now() };
        }
        if (r.outcome === "approved") {
          await this.emit(
            "approved",
            `approved "${oneLine(plan.command, 120)}" (allowlist: ${
              plan.matched.join(", ")
            }) with ${r.sent.join(" + ")}`,
            ref,
            { command: plan.command, detail: { matched: plan.matched, sent: r.sent } },
          );
          return undefined;
        }
        const transient = r.reason === "prompt-changed" || r.reason === "no-live-prompt" ||
          r.reason === "claimed";
        await this.emit(
          "approve-refused",
          `did not approve "${oneLine(plan.command, 120)}": ${r.message}`,
          ref,
          {
            command: plan.command,
            verdict: `gate:${r.reason ?? r.outcome}`,
            detail: { outcome: r.outcome, sent: r.sent },
          },
        );
        if (!transient) {
          await this.escalate(ref, {
            kind: "escalate",
            reason: "permission-prompt",
            key: `${ref.id}\u001fprompt\u001f${plan.command}`,
            verdict: `gate:${r.reason ?? r.outcome}`,
            command: plan.command,
            message: `permission prompt for "${
              oneLine(plan.command, 120)
            }" needs a person: ${r.message}`,
          });
        }
        return undefined;
      }
      case "limit":
        return await this.limit(pane, plan.step);
      case "nudge": {
        const result = await sendNudge(
          this.sendPort(pane),
          plan.text,
          { settleMs: pane.settleMs, verifyMs: this.opts.verifyMs },
        );
        if (result.outcome === "skipped") return undefined;
        const now = this.host.now();
        this.state.orchestrator.lastNudgeAt = now;
        if (result.outcome === "delivered") {
          await this.emit(
            "nudge-sent",
            `nudged the orchestrator${
              result.recoveries
                ? ` after ${result.recoveries} recover${result.recoveries > 1 ? "ies" : "y"}`
                : ""
            }: "${oneLine(plan.text, 120)}"`,
            ref,
            { text: plan.text, detail: { recoveries: result.recoveries } },
          );
          return undefined;
        }
        // Wedged: the text sits in the box; stranded-input recovery must not press Enter on it again.
        (this.state.panes[ref.id] ??= {}).submitted = {
          text: (result.box ?? plan.text).trim(),
          at: now,
        };
        await this.escalate(ref, {
          kind: "escalate",
          reason: "nudge-wedged",
          key: `${ref.id}\u001fnudge-wedged`,
          text: plan.text,
          message: `nudge-wedged: the nudge stayed in the input box ${wedgedHow(result)}`,
        });
        return undefined;
      }
    }
  }

  /** A usage limit under `resume` (lib/drive/limit.ts): report it once, wait, resume it once. */
  private async limit(
    pane: HostPane,
    step: Extract<PanePlan, { kind: "limit" }>["step"],
  ): Promise<DriveOutcome | undefined> {
    const ref = pane.ref;
    const mem = (this.state.panes[ref.id] ??= {});
    if (step.kind === "limit") {
      mem.limit = step.memory;
      const m = step.memory;
      const resetsAt = new Date(m.resetsAt).toISOString();
      const dueAt = new Date(m.dueAt).toISOString();
      const message = step.comeback
        ? `the usage limit came back after the resume: ${
          oneLine(m.text, 120)
        }; resuming again at ${dueAt} (${comebackWhen(m)}; backing off)`
        : `usage limit until ${resetsAt}: ${
          oneLine(m.text, 120)
        }; typing the resume text at ${dueAt}`;
      await this.emit("limit", message, ref, {
        text: m.text,
        resets_at: resetsAt,
        detail: { due_at: dueAt, resumes: m.resumes, comeback: step.comeback },
      });
      return this.waiting(ref, m);
    }
    mem.limit = step.memory;
    // The CLI went on by itself (its own auto-continue, or a person): over, nothing to type.
    if (step.kind === "limit-moved-on") return undefined;
    if (step.kind === "limit-wait") return this.waiting(ref, step.memory);
    return await this.resume(pane, step.memory);
  }

  /** While a limit waits, the orchestrator's --once run ends with 75 and prints nothing. */
  private waiting(ref: PaneRef, m: LimitMemory): DriveOutcome | undefined {
    if (ref.role !== "orchestrator" || !this.opts.once) return undefined;
    return this.outcome(
      "orchestrator-limit",
      DRIVE_EXIT.orchestratorUnavailable,
      `the orchestrator's ${ref.cli} CLI is at its usage limit until ${
        new Date(m.resetsAt).toISOString()
      }; the resume is due at ${new Date(m.dueAt).toISOString()}`,
    );
  }

  /** The verified send path's view of one pane (the nudge's, and the resume's). */
  private sendPort(pane: HostPane): NudgePort {
    return {
      look: async () => {
        const v = await this.host.lookOne(pane);
        if (!v) throw new DroverError("TARGET_NOT_FOUND", `pane ${pane.ref.id} vanished`);
        // Every key of the send follows a look: none goes into a synchronized window.
        if (v.synchronized) throw synchronizedNow(pane);
        return v;
      },
      typeLiteral: (t) => this.host.typeLiteral(pane, t),
      keys: (k) => this.host.keys(pane, k),
      sleep: (ms) => this.host.sleep(ms),
    };
  }

  private async resume(pane: HostPane, m: LimitMemory): Promise<DriveOutcome | undefined> {
    const ref = pane.ref;
    const mem = (this.state.panes[ref.id] ??= {});
    const fresh = await this.host.lookOne(pane);
    if (!fresh) return undefined;
    if (!fresh.limit) {
      // The CLI went on by itself (its own auto-continue) or a person did: nothing to resume.
      delete mem.limit;
      return undefined;
    }
    if (fresh.live_prompt || !fresh.input_line) {
      // A limit menu (wait / upgrade / switch model) over the input line: a limit, not a prompt,
      // never answered. (Gemini CLI's "Keep trying / Stop" box is not even a live prompt to the
      // detector; it hides the input line all the same.)
      await this.escalate(ref, {
        kind: "escalate",
        reason: "limit-menu",
        key: `${ref.id}\u001flimit-menu`,
        text: m.text,
        resets_at: new Date(m.resetsAt).toISOString(),
        message: fresh.live_prompt
          ? "the usage limit has reset but a menu covers the input line; drover never answers " +
            "a limit menu: close it (Esc) and the next tick types the resume text"
          : "the usage limit has reset but no input line is on screen (a dialog drawn in its " +
            "place); drover never answers one: close it and the next tick types the resume text",
      });
      return this.waiting(ref, m);
    }
    const moved = readyForResume(fresh) ? newBelowBanner(fresh, m) : [];
    if (moved.length > 0) {
      // The CLI went on by itself (its own auto-continue) or a person did: nothing to type.
      mem.limit = { ...m, resumedAt: this.host.now(), movedOn: moved };
      return undefined;
    }
    const text = this.opts.settings.resume ?? "";
    // One resume per occurrence, whatever comes of it: remembered on disk before the first key, so
    // not even a crash between the keys and the end of the tick can make it two.
    mem.limit = {
      ...m,
      resumedAt: this.host.now(),
      resumes: m.resumes + 1,
      resumeText: nudgeText(text),
    };
    await this.write();
    const result = await sendNudge(
      this.sendPort(pane),
      text,
      { settleMs: pane.settleMs, verifyMs: this.opts.verifyMs },
      {
        test: readyForResume,
        why: (v) => `the limit screen is not ready for input (${v.state})`,
      },
    );
    if (result.outcome === "skipped") {
      // Nothing was typed (the screen changed before the first key): still waiting.
      mem.limit = m;
      return this.waiting(ref, m);
    }
    const now = this.host.now();
    if (result.outcome === "delivered") {
      await this.emit(
        "resumed",
        `the usage limit reset at ${new Date(m.resetsAt).toISOString()}; typed "${
          oneLine(text, 120)
        }"${
          result.recoveries
            ? ` after ${result.recoveries} recover${result.recoveries > 1 ? "ies" : "y"}`
            : ""
        }`,
        ref,
        {
          text,
          resets_at: new Date(m.resetsAt).toISOString(),
          detail: { recoveries: result.recoveries, resumes: m.resumes + 1 },
        },
      );
      return undefined;
    }
    mem.submitted = { text: (result.box ?? text).trim(), at: now };
    await this.escalate(ref, {
      kind: "escalate",
      reason: "resume-wedged",
      key: `${ref.id}\u001fresume-wedged`,
      text,
      message: `resume-wedged: the resume text stayed in the input box ${
        wedgedHow(result)
      }; not typing it again`,
    });
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

/** A dialog or prompt judged on a screen no profile describes says who judged it. */
function noted(
  plan: Extract<PanePlan, { kind: "escalate" }>,
  pane: HostPane,
): Extract<PanePlan, { kind: "escalate" }> {
  if (!pane.profileNote || (plan.reason !== "dialog" && plan.reason !== "permission-prompt")) {
    return plan;
  }
  return { ...plan, message: `${plan.message}. ${pane.profileNote}` };
}

function synchronizedNow(pane: HostPane): DroverError {
  return new DroverError(
    "PANES_SYNCHRONIZED",
    `window ${pane.window ?? "?"} of ${pane.ref.id} has synchronize-panes on`,
  );
}
