/**
 * The closed word sets several outputs share. Each is spelled here, not imported: contracts sit
 * below every folder that prints them. lib/cli/contract_checks.ts holds each one equal, at compile
 * time, to the union the program prints it from, so neither can gain a word the other lacks.
 */
import { z } from "../deps/zod.ts";

/** A pane's §5 state (lib/detect PaneState). */
export const PANE_STATE = z.enum([
  "unavailable",
  "prompt",
  "dialog",
  "busy",
  "shell",
  "idle",
  "unknown",
]);

/** A pane's state where the pane may have gone away while drover looked at it. */
export const PANE_STATE_OR_GONE = z.enum([...PANE_STATE.options, "gone"]);

/** Whether a pane is ready for input (lib/detect Readiness). */
export const READINESS = z.enum(["ready", "dialog", "bare_shell", "indeterminate"]);

/** The permission mode the screen shows (lib/detect Mode). */
export const MODE = z.enum(["accept_edits", "interactive", "plan", "auto", "bypass", "unknown"]);

/** How a pane's CLI was identified (lib/identify CliSource). */
export const CLI_SOURCE = z.enum(["pane-option", "process", "flag", "default_cli", "fallback"]);

/** A pane's role (lib/identify). */
export const ROLE = z.enum(["orchestrator", "agent"]);

/** What `approve` did (lib/approve Outcome). */
export const APPROVE_OUTCOME = z.enum([
  "approved",
  "would-approve",
  "refused",
  "unconfirmed",
  "key-in-input",
]);

/** Why the approve gate refused (lib/approve/gate.ts RefusalReason). */
export const REFUSAL_REASON = z.enum([
  "orchestrator",
  "claimed",
  "no-live-prompt",
  "dialog",
  "broad-grant",
  "no-option-1",
  "prompt-changed",
  "not-affirmative",
  "synchronized",
  "key-in-input",
]);

/** The key approve sends for option 1, and the form of prompt it answers. */
export const APPROVE_KEY = z.enum(["1", "Enter"]);
export const APPROVE_FORM = z.enum(["digit", "choice-row"]);

/** The compiled danger rules (lib/shell/danger.ts DangerRule). */
export const DANGER_RULE = z.enum([
  "privilege-escalation",
  "recursive-delete",
  "git-force-push",
  "git-history-loss",
  "recursive-permission-change",
  "root-permission-change",
  "disk-write",
  "disk-format",
  "device-write",
  "system-write",
  "pipe-to-interpreter",
  "remote-code",
  "system-power",
  "kill-processes",
  "tmux-kill",
  "crontab-remove",
  "fork-bomb",
  "nesting-too-deep",
]);
