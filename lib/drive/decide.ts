/**
 * The drive loop's judgement for one pane on one capture: a pure function of the verdicts, the
 * remembered state and the clock. It only says what to do; the runner re-confirms every action on
 * a fresh capture before any key is sent (DESIGN §6) and applies the dedup windows.
 */
import { BOTTOM_REGION } from "../detect/screen.ts";
import { captureLines, contentOf, isBlank } from "../detect/text.ts";
import { classifyCommand, type DangerRule } from "./danger.ts";
import type { EscalationReason, PaneRef } from "./events.ts";
import { limitOver, type LimitStep, limitStep, withoutStaleLimit } from "./limit.ts";
import type { DriveState } from "./state.ts";

/** The detector verdicts the loop reads (a subset of lib/detect's, by the §7 field names). */
export interface DriveVerdicts {
  state: string;
  live_prompt: boolean;
  permission_prompt: boolean;
  mid_response: boolean;
  /** Background work still pending after the turn (lib/detect `background`), or null/absent. */
  background?: string | null;
  input_box: string | null;
  command: string | null;
  file_path: string | null;
  /** The line that says the CLI cannot serve (quota, auth …), or null. */
  cli_unavailable: string | null;
  /**
   * Lines of the screen block the command sits in (command + description), as lib/detect reads
   * it (`command_block`); null when the command is not visible on a line of its own.
   */
  command_block?: number | null;
  /** A usage-limit banner (lib/detect `limit`), or null/absent. */
  limit?: string | null;
  /** When that limit resets (ISO 8601), or null/absent. */
  limit_resets_at?: string | null;
  /** The option of a live usage-limit menu (lib/detect `limit_menu`), or null/absent. */
  limit_menu?: string | null;
  /** An input line is visible (empty or not). */
  input_line?: boolean;
  /** The bottom region's non-blank lines, decoration stripped (to place a banner in the transcript). */
  tail?: string[];
  /** Read with the capture: the pane's window has synchronize-panes on (no key may go there). */
  synchronized?: boolean;
}

/** The bottom region's non-blank lines (as lib/detect counts it), decoration stripped. */
export function tailOf(plain: string): string[] {
  const lines = captureLines(plain).filter((l) => !isBlank(l));
  return lines.slice(-BOTTOM_REGION).map(contentOf);
}

/** Most lines a command's block may have to be approved: the command and a description. */
export const MAX_COMMAND_BLOCK = 2;

// deno-lint-ignore no-explicit-any
type Loose = any;

/** Read lib/detect's verdicts defensively: a missing field is "not seen", never a crash. */
export function toDriveVerdicts(raw: unknown, plain?: string): DriveVerdicts {
  const v = (raw ?? {}) as Loose;
  const str = (x: unknown): string | null => typeof x === "string" && x.trim() !== "" ? x : null;
  let unavailable: string | null = null;
  if (typeof v.cli_unavailable === "string") unavailable = str(v.cli_unavailable);
  else if (v.cli_unavailable === true) unavailable = "(cli unavailable)";
  else if (v.cli_unavailable && typeof v.cli_unavailable === "object") {
    unavailable = str(v.cli_unavailable.line) ?? str(v.cli_unavailable.text) ?? "(cli unavailable)";
  }
  // A usage-limit banner, or the limit menu, is a CLI that cannot serve, whatever the profile's
  // unavailable markers say.
  unavailable ??= str(v.limit) ?? str(v.limit_menu);
  return {
    state: typeof v.state === "string" ? v.state : "unknown",
    live_prompt: v.live_prompt === true,
    permission_prompt: v.permission_prompt === true,
    mid_response: v.mid_response === true,
    background: str(v.background),
    input_box: str(v.input_box),
    command: str(v.command),
    file_path: str(v.file_path),
    cli_unavailable: unavailable,
    limit: str(v.limit),
    limit_resets_at: str(v.limit_resets_at),
    limit_menu: str(v.limit_menu),
    input_line: v.input_line === true,
    // lib/detect's own reading of the command's block; missing means not seen (never approved)
    command_block: typeof v.command_block === "number" ? v.command_block : null,
    ...(plain === undefined ? {} : { tail: tailOf(plain) }),
  };
}

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
    verdict?: string;
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

/** The command is visible on its own line, in a block of at most command + description. */
export function commandStandsAlone(v: DriveVerdicts): boolean {
  return v.command_block !== null && v.command_block !== undefined &&
    v.command_block <= MAX_COMMAND_BLOCK;
}

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

function oneLine(s: string, max = 200): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
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
  if (v.cli_unavailable !== null) {
    if (pane.role === "orchestrator") {
      return { kind: "confirm-unavailable", line: v.cli_unavailable };
    }
    return {
      kind: "escalate",
      reason: "cli-unavailable",
      key: `${pane.id}\u001fcli-unavailable`,
      text: v.cli_unavailable,
      message: `the ${pane.cli} CLI in this pane cannot serve: ${oneLine(v.cli_unavailable)}`,
      ...(v.limit && v.limit_resets_at ? { resets_at: v.limit_resets_at } : {}),
    };
  }
  if (v.live_prompt && v.permission_prompt) {
    const what = v.command ?? v.file_path ?? "";
    const key = `${pane.id}\u001fprompt\u001f${what}`;
    const base = {
      kind: "escalate" as const,
      reason: "permission-prompt" as const,
      key,
      command: v.command,
      file_path: v.file_path,
    };
    const shown = v.command !== null
      ? `"${oneLine(v.command)}"`
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
    // Danger first: a dangerous command is named as such even when more lines follow it.
    const c = classifyCommand(v.command, s.allow);
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
    return { kind: "approve", command: v.command, matched: c.matched };
  }
  if (v.live_prompt) {
    return {
      kind: "escalate",
      reason: "dialog",
      key: `${pane.id}\u001fdialog`,
      message: `a dialog (not a permission prompt) waits for a person`,
    };
  }
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
