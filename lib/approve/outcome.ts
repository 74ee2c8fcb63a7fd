/**
 * What an approval reports (the approve contract's shape, lib/contracts/approve.ts): the outcome
 * object, the summary of one capture in it, and the refusal every step before the key returns.
 * Its own file so the steps before the key (approve.ts) and after it (send.ts) build the same one.
 */
import type { PaneState } from "../detect/mod.ts";
import type { PaneInfo } from "../tmux/panes.ts";
import {
  APPROVE_EXIT,
  type GateVerdicts,
  type PromptVerdicts,
  type RefusalReason,
} from "./gate.ts";

export type JudgedVerdicts = GateVerdicts & {
  state: PaneState;
  /** Text typed into the pane's input line (null: none), to see where a key landed. */
  input_box?: string | null;
};

export type Outcome = "approved" | "would-approve" | "refused" | "unconfirmed" | "key-in-input";

/** What a report says the gate saw on one capture (the approve contract's `before`/`after`). */
export type ScreenSummary = PromptVerdicts & { state: PaneState };

export interface ApproveOutcome {
  outcome: Outcome;
  reason: RefusalReason | null;
  message: string;
  exit_code: number;
  /** Keys actually sent, in order (empty on every refusal and in --dry-run). */
  sent: string[];
  /** The key that would be / was pressed for option 1. */
  key: "1" | "Enter" | null;
  form: "digit" | "choice-row" | null;
  option: string | null;
  dry_run: boolean;
  claim: string | null;
  before: ScreenSummary | null;
  after: (ScreenSummary & { same_prompt: boolean }) | null;
}

export function summary(v: JudgedVerdicts): ScreenSummary {
  return {
    state: v.state,
    live_prompt: v.live_prompt,
    permission_prompt: v.permission_prompt,
    command: v.command,
    file_path: v.file_path,
    options: v.options,
    broad_grant_option: v.broad_grant_option,
  };
}

export function refused(
  reason: RefusalReason,
  message: string,
  base: Partial<ApproveOutcome>,
): ApproveOutcome {
  return {
    outcome: "refused",
    reason,
    message,
    exit_code: APPROVE_EXIT[reason],
    sent: [],
    key: null,
    form: null,
    option: null,
    dry_run: false,
    claim: null,
    before: null,
    after: null,
    ...base,
  };
}

// No broadcast: in a window with synchronize-panes on, the digit would reach every other
// synchronized pane too. Checked on the inventory, on the capture the key is sent on, and after it.
export function syncMessage(pane: PaneInfo, tail = "no keys sent"): string {
  return `window ${pane.windowId} (${pane.sessionName}:${pane.windowIndex}) has tmux ` +
    `synchronize-panes on: a key to ${pane.id} would be typed into every synchronized pane of ` +
    `it; ${tail} (turn it off: tmux set-option -w -t ${pane.windowId} synchronize-panes off)`;
}
