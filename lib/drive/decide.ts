/**
 * The drive loop's judgement for one pane on one capture: a pure function of the verdicts, the
 * remembered state and the clock. It only says what to do; the runner re-confirms every action on
 * a fresh capture before any key is sent (DESIGN §6) and applies the dedup windows.
 */
import { classifyCommand } from "../shell/allowlist.ts";
import type { DangerRule } from "../shell/danger.ts";
import type { EscalationReason, PaneRef, PromptVerdict } from "./events.ts";
import { limitOver, type LimitStep, limitStep, withoutStaleLimit } from "./limit.ts";
import type { DriveState } from "./state.ts";
import { commandStandsAlone, type DriveVerdicts } from "./verdicts.ts";
import { oneLine } from "../base/clip.ts";

export interface DriveSettings {
  approve: "none" | "allowlist";
  allow: readonly string[];
  dedupWindowMs: number;
  nudge?: string;
  nudgeEveryMs?: number;
  /** Typed once into a pane whose usage limit has reset (off when absent). */
  resume?: string;
  /** How long after the printed reset the resume is due (default 2m). */
  resumeMarginMs?: number;
}

/** The default of --resume-margin. */
export const DEFAULT_RESUME_MARGIN_MS = 2 * 60_000;

export type PanePlan =
  | { kind: "nothing"; why: string }
  | { kind: "confirm-unavailable"; line: string }
  | {
    kind: "escalate";
    reason: EscalationReason;
    key: string;
    message: string;
    verdict?: PromptVerdict;
    command?: string | null;
    file_path?: string | null;
    text?: string;
    /** When the limit behind an unavailable CLI resets (ISO 8601), when the screen says. */
    resets_at?: string;
    /** The compiled danger rule the command tripped (verdict "danger:<rule>"). */
    danger?: { rule: DangerRule; detail: string };
    /** The opaque form the command has (verdict "opaque:<form>"). */
    opaque?: { form: string; detail: string };
  }
  | { kind: "approve"; command: string; matched: string[] }
  | { kind: "submit"; text: string }
  | { kind: "nudge"; text: string }
  /** A usage limit with a readable reset, under `resume` (lib/drive/limit.ts). */
  | { kind: "limit"; step: Exclude<LimitStep, { kind: "limit-stale" }> };

/** Typed input waiting to be sent: input in the box, not mid-response, no live prompt. */
export function strandedText(v: DriveVerdicts): string | null {
  if (v.cli_unavailable !== null || v.live_prompt || v.mid_response) return null;
  const t = v.input_box?.trim() ?? "";
  return t === "" ? null : t;
}

/**
 * An orchestrator that may be nudged: idle, empty input box, nothing live, not busy — and no
 * background work pending (shells, agents still running after its turn): it is not free, whatever
 * its state reads.
 */
export function idleForNudge(v: DriveVerdicts): boolean {
  return v.state === "idle" && !v.live_prompt && !v.mid_response && v.cli_unavailable === null &&
    (v.background ?? null) === null && (v.input_box?.trim() ?? "") === "";
}

/** Text still sitting in the input box after a submit (a wrapped box may show only its start). */
export function stillInBox(box: string | null, text: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, " ").trim();
  const b = norm(box ?? "");
  const t = norm(text);
  if (b === "" || t === "") return false;
  return b === t || t.startsWith(b) || b.startsWith(t) || t.includes(b);
}

/** The input box ends in the key an approval sent by mistake (key-in-input). */
export function holdsStrayKey(v: DriveVerdicts, key: string): boolean {
  const box = v.input_box?.trim() ?? "";
  return key !== "" && box.endsWith(key);
}

/** Drover's own key, typed where a prompt seemed to be: an Enter would send it as a message. */
export function strayKeyEscalation(pane: PaneRef, typed: string, key: string): PanePlan {
  return {
    kind: "escalate",
    reason: "key-in-input",
    key: `${pane.id}\u001fkey-in-input\u001f${typed}`,
    text: typed,
    message: `the input box holds "${
      oneLine(typed, 80)
    }", ending in the "${key}" an approval sent (key-in-input): not submitting it — clear the line by hand`,
  };
}

/** Keep the remembered timers in step with what the pane shows now (pure state upkeep). */
export function observe(st: DriveState, pane: PaneRef, v: DriveVerdicts, now: number): void {
  const mem = st.panes[pane.id];
  if (mem?.submitted && strandedText(v) !== mem.submitted.text) delete mem.submitted;
  if (mem?.strayKey && !holdsStrayKey(v, mem.strayKey.text)) delete mem.strayKey;
  if (mem?.limit && limitOver(v, mem.limit, now)) delete mem.limit;
  if (pane.role === "orchestrator") {
    if (idleForNudge(v)) st.orchestrator.idleSince ??= now;
    else delete st.orchestrator.idleSince;
  }
}

/** True when the orchestrator has been idle for a full nudge interval since the later of idle-start and the last nudge. */
export function nudgeDue(st: DriveState, s: DriveSettings, now: number): boolean {
  if (!s.nudge || !s.nudgeEveryMs) return false;
  const idle = st.orchestrator.idleSince;
  if (idle === undefined) return false;
  const from = Math.max(idle, st.orchestrator.lastNudgeAt ?? -Infinity);
  return now - from >= s.nudgeEveryMs;
}

/** What to do about one pane, judged on its sweep capture. */
export function planPane(
  pane: PaneRef,
  seen: DriveVerdicts,
  st: DriveState,
  now: number,
  s: DriveSettings,
): PanePlan {
  let v = seen;
  if (s.resume !== undefined) {
    const mem = st.panes[pane.id]?.limit;
    const step = limitStep(v, mem, now, s.resumeMarginMs ?? DEFAULT_RESUME_MARGIN_MS);
    // The banner of a limit already resumed is transcript now, not a limit.
    if (step?.kind === "limit-stale") v = withoutStaleLimit(v, step.memory);
    else if (step) return { kind: "limit", step };
  }
  const unavailable = unavailablePlan(pane, v);
  if (unavailable) return unavailable;
  if (v.live_prompt && v.permission_prompt) return permissionPlan(pane, v, s);
  if (v.live_prompt) {
    return {
      kind: "escalate",
      reason: "dialog",
      key: `${pane.id}\u001fdialog`,
      message: `a dialog (not a permission prompt) waits for a person`,
    };
  }
  return inputPlan(pane, v, st, now, s);
}

/** A CLI at a limit menu, or one that cannot serve; null when it can. */
function unavailablePlan(pane: PaneRef, v: DriveVerdicts): PanePlan | null {
  if (v.limit_menu && v.cli_unavailable === v.limit_menu && pane.role !== "orchestrator") {
    // The menu alone says the CLI is at a limit (no banner or unavailable line is left above it):
    // the limit-menu escalation, never an answer (a banner above it escalates as cli-unavailable).
    return {
      kind: "escalate",
      reason: "limit-menu",
      key: `${pane.id}\u001flimit-menu`,
      text: v.limit_menu,
      message: `the ${pane.cli} CLI in this pane shows its usage-limit menu ("${
        oneLine(v.limit_menu, 80)
      }"); drover never answers a limit menu: a person chooses (Esc closes it)`,
    };
  }
  if (v.cli_unavailable === null) return null;
  if (pane.role === "orchestrator") {
    return { kind: "confirm-unavailable", line: v.cli_unavailable };
  }
  return {
    kind: "escalate",
    reason: "cli-unavailable",
    key: `${pane.id}\u001fcli-unavailable`,
    text: v.cli_unavailable,
    message: `the ${pane.cli} CLI in this pane cannot serve: ${oneLine(v.cli_unavailable, 200)}`,
    ...(v.limit && v.limit_resets_at ? { resets_at: v.limit_resets_at } : {}),
  };
}

/** What every escalation of one permission prompt carries. */
interface PromptEscalation {
  kind: "escalate";
  reason: "permission-prompt";
  key: string;
  command: string | null;
  file_path: string | null;
}

/** A live permission prompt: approved only for an allowlisted command on an agent pane. */
function permissionPlan(pane: PaneRef, v: DriveVerdicts, s: DriveSettings): PanePlan {
  const what = v.command ?? v.file_path ?? "";
  const key = `${pane.id}\u001fprompt\u001f${what}`;
  const base: PromptEscalation = {
    kind: "escalate",
    reason: "permission-prompt",
    key,
    command: v.command,
    file_path: v.file_path,
  };
  const shown = v.command !== null
    ? `"${oneLine(v.command, 200)}"`
    : v.file_path !== null
    ? `file ${v.file_path}`
    : "(no command shown)";
  if (pane.role === "orchestrator") {
    return {
      ...base,
      verdict: "orchestrator",
      message: `permission prompt for ${shown} on the orchestrator, which is never approved`,
    };
  }
  if (s.approve === "none") {
    return {
      ...base,
      verdict: "approve-none",
      message: `permission prompt for ${shown} waits for a person (--approve none)`,
    };
  }
  if (v.command === null) {
    return {
      ...base,
      verdict: "not-allowlisted",
      message: `permission prompt for ${shown}: only commands can be allowlisted`,
    };
  }
  return commandPlan(v, v.command, base, shown, s.allow);
}

/** A prompt's command held to the danger rules, then the allowlist, then how it stands on screen. */
function commandPlan(
  v: DriveVerdicts,
  command: string,
  base: PromptEscalation,
  shown: string,
  allow: readonly string[],
): PanePlan {
  // Danger first: a dangerous command is named as such even when more lines follow it.
  const c = classifyCommand(command, allow);
  if (c.decision === "danger") {
    return {
      ...base,
      verdict: `danger:${c.rule}`,
      danger: { rule: c.rule, detail: c.detail },
      message: `permission prompt for ${shown} trips the compiled danger rule ${c.rule} (${
        oneLine(c.detail, 80)
      }); never auto-approved`,
    };
  }
  if (c.decision === "opaque") {
    return {
      ...base,
      verdict: `opaque:${c.form}`,
      opaque: { form: c.form, detail: c.detail },
      message:
        `permission prompt for ${shown} runs code drover cannot judge (opaque: ${c.form}); ` +
        "no allowlist prefix approves it, only an entry equal to the whole command",
    };
  }
  if (v.command_block !== undefined && !commandStandsAlone(v)) {
    return {
      ...base,
      verdict: "not-allowlisted",
      message: `permission prompt for ${shown}: the command does not stand alone on screen (${
        v.command_block === null ? "not found on a line of its own" : `${v.command_block} lines`
      }); a multi-line command is never approved on its first line`,
    };
  }
  if (c.decision === "unlisted") {
    return {
      ...base,
      verdict: "not-allowlisted",
      message: `permission prompt for ${shown} is not allowlisted: ${c.reason}`,
    };
  }
  return { kind: "approve", command, matched: c.matched };
}

/** No prompt: input left typed but unsent, the orchestrator's nudge, or nothing. */
function inputPlan(
  pane: PaneRef,
  v: DriveVerdicts,
  st: DriveState,
  now: number,
  s: DriveSettings,
): PanePlan {
  const typed = strandedText(v);
  const stray = st.panes[pane.id]?.strayKey;
  if (typed !== null && stray && holdsStrayKey(v, stray.text)) {
    return strayKeyEscalation(pane, typed, stray.text);
  }
  if (typed !== null) {
    const done = st.panes[pane.id]?.submitted;
    if (done && done.text === typed) {
      return {
        kind: "escalate",
        reason: "input-stuck",
        key: `${pane.id}\u001finput-stuck\u001f${typed}`,
        text: typed,
        message: `typed input "${
          oneLine(typed, 80)
        }" is still unsent after one Enter; not pressing again`,
      };
    }
    return { kind: "submit", text: typed };
  }
  if (pane.role === "orchestrator" && s.nudge && nudgeDue(st, s, now) && idleForNudge(v)) {
    return { kind: "nudge", text: s.nudge };
  }
  return { kind: "nothing", why: v.state };
}
