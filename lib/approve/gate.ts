/**
 * The compiled approval gate (DESIGN §6): given the verdicts of ONE capture, may option 1 be
 * answered, and with which key? Pure; the profile only describes what the screen looks like —
 * nothing here reads a profile field, and no outcome other than "press option 1" exists.
 *
 * Option 1 (or the first un-numbered choice) must be an affirmative one-time choice: it must begin
 * with an affirmative wording, and must not be a rejection ("❯ No" first), a mode switch or a broad
 * grant. The wordings come from `GateWords` (lib/profile/gate_words.ts): the shipped profiles' always count, so a
 * profile can make the gate refuse more, never less.
 */
import type { Verdicts } from "../detect/mod.ts";
import { type GateWords, shippedGateWords } from "../profile/gate_words.ts";

/**
 * The prompt verdicts every approval judges and reports, lib/detect's own fields by their names:
 * approve's `before`/`after` summaries (outcome.ts ScreenSummary) are these plus the state.
 */
export type PromptVerdicts = Pick<
  Verdicts,
  "live_prompt" | "permission_prompt" | "command" | "file_path" | "options" | "broad_grant_option"
>;

/** The verdict fields the gate reads (a subset of lib/detect's Verdicts). */
export interface GateVerdicts extends PromptVerdicts {
  /** Un-numbered choices (a row or a column), when the detector reports them. */
  choice_row?: Verdicts["choice_row"];
  /**
   * A shipped dialog heading shown in the bottom modal (judge.ts, from the capture and the gate
   * wordings, never the pane's profile alone): such a modal is a dialog, whatever it looks like.
   */
  modal_dialog?: string | null;
  /** A usage-limit banner on the screen (lib/detect `limit`), when the detector reports one. */
  limit?: string | null;
}

export type RefusalReason =
  | "orchestrator"
  | "claimed"
  | "no-live-prompt"
  | "dialog"
  | "broad-grant"
  | "no-option-1"
  | "prompt-changed"
  | "not-affirmative"
  | "synchronized"
  | "key-in-input";

/** Exit code of every approve outcome (README table). */
export const APPROVE_EXIT = {
  approved: 0,
  "would-approve": 0,
  orchestrator: 10,
  claimed: 11,
  "no-live-prompt": 12,
  dialog: 13,
  "broad-grant": 14,
  "no-option-1": 15,
  "prompt-changed": 16,
  unconfirmed: 17,
  "not-affirmative": 18,
  synchronized: 19,
  "key-in-input": 20,
} as const;

export type GateResult =
  | { ok: true; form: "digit" | "choice-row"; key: "1" | "Enter"; option: string }
  | { ok: false; reason: RefusalReason; message: string };

/** `text` begins with one of `words` as a whole word ("No" begins "No, exit", not "Not now"). */
export function beginsWith(text: string, words: readonly string[]): boolean {
  const t = text.trim().toLowerCase();
  return words.some((w) =>
    w !== "" && t.startsWith(w) && !/^[\p{L}\p{N}]/u.test(t.slice(w.length))
  );
}

function containsAny(text: string, words: readonly string[]): boolean {
  const t = text.toLowerCase();
  return words.some((w) => w !== "" && t.includes(w));
}

/** Why option 1's wording may not be answered (null: it may). */
function wordingRefusal(
  text: string,
  where: string,
  words: GateWords,
  broadGrantOption: boolean,
): { ok: false; reason: RefusalReason; message: string } | null {
  if (broadGrantOption || containsAny(text, words.broadGrant)) {
    return {
      ok: false,
      reason: "broad-grant",
      message:
        `${where} ("${text}") is a broad grant; pressing it would write a permanent permission rule or switch to a more permissive mode`,
    };
  }
  if (beginsWith(text, words.rejection)) {
    return {
      ok: false,
      reason: "not-affirmative",
      message: `${where} ("${text}") is a rejection, not a one-time yes`,
    };
  }
  if (containsAny(text, words.modeSwitch)) {
    return {
      ok: false,
      reason: "not-affirmative",
      message: `${where} ("${text}") switches the permission mode; that is the operator's choice`,
    };
  }
  if (!beginsWith(text, words.affirmative) || !beginsWith(text, words.affirmativeOwn)) {
    return {
      ok: false,
      reason: "not-affirmative",
      message: `${where} ("${text}") is not a recognised one-time yes`,
    };
  }
  return null;
}

/** Judge one capture's verdicts (`words`: the pane's gate wordings; default the shipped ones). */
export function gate(v: GateVerdicts, words: GateWords = shippedGateWords()): GateResult {
  if (!v.live_prompt) {
    return {
      ok: false,
      reason: "no-live-prompt",
      message:
        "no live prompt on the screen (nothing waiting, an answered or scrolled-away prompt, or prompt words quoted in output)",
    };
  }
  if (v.limit) {
    // Its menu (wait / upgrade / switch model) is a limit, not a prompt, whatever its shape.
    return {
      ok: false,
      reason: "dialog",
      message: `the screen shows a usage limit ("${
        v.limit.slice(0, 120)
      }"); a limit menu is never answered`,
    };
  }
  if (!v.permission_prompt) {
    return {
      ok: false,
      reason: "dialog",
      message:
        "the live modal is a dialog, not a permission prompt (no approval marker, command or file in it); answer it yourself",
    };
  }
  if (v.modal_dialog) {
    return {
      ok: false,
      reason: "dialog",
      message:
        `the live modal shows the dialog "${v.modal_dialog}", not a permission prompt; answer it yourself`,
    };
  }
  const numbered = v.options.filter((o) => o.number > 0);
  if (numbered.length > 0) {
    const one = numbered.find((o) => o.number === 1);
    if (!one) {
      return {
        ok: false,
        reason: "no-option-1",
        message: "the prompt's numbered options have no option 1",
      };
    }
    const refusal = wordingRefusal(one.text, "option 1", words, v.broad_grant_option === 1);
    if (refusal) return refusal;
    return { ok: true, form: "digit", key: "1", option: one.text };
  }
  const row = v.choice_row ?? [];
  if (row.length > 0) {
    const refusal = wordingRefusal(
      row[0].text,
      "the first choice",
      words,
      v.broad_grant_option === 1,
    );
    if (refusal) return refusal;
    if (!row[0].selected) {
      return {
        ok: false,
        reason: "no-option-1",
        message: `the first choice ("${
          row[0].text
        }") is not the selected one; Enter would confirm another choice`,
      };
    }
    return { ok: true, form: "choice-row", key: "Enter", option: row[0].text };
  }
  return {
    ok: false,
    reason: "no-option-1",
    message: "no option 1 found on the prompt (neither a numbered option nor a choice row)",
  };
}

/** What identifies "the same prompt" across captures: its command, file and option texts. */
export function fingerprint(v: GateVerdicts): string {
  return JSON.stringify({
    c: v.command,
    f: v.file_path,
    o: v.options.map((o) => [o.number, o.text.trim()]),
    r: (v.choice_row ?? []).map((c) => c.text.trim()),
  });
}

/** Option 1 is the selected one (numbered ❯ marker, or the first choice of a row). */
export function optionOneSelected(v: GateVerdicts): boolean {
  const one = v.options.find((o) => o.number === 1);
  if (one) return one.selected;
  const row = v.choice_row ?? [];
  return row.length > 0 && row[0].selected;
}
