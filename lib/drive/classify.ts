/**
 * One capture → the decision `drive --approve allowlist` takes on it, for an agent pane: the drive
 * plan (decide.ts: compiled danger rules, then the allowlist) and, where the plan is to approve,
 * the §6 gate's answer on the same capture (option 1 and its key, or the gate's refusal).
 * `drover __classify` prints it as one versioned line, so `sweep.sh classify` judges exactly as
 * drive does and keeps no rule of its own.
 *
 * Line contract (format version 1), read with `IFS=$'\t' read -r`, never `eval`:
 *   drover-classify/1<TAB>VERB<TAB>REASON<TAB>OPTION<TAB>KEY<TAB>RULE<TAB>DETAIL
 *   VERB    approve | escalate | refuse | no-op
 *   REASON  approve:  allowlisted
 *           escalate: danger | opaque | not-allowlisted | cli-unavailable | limit-menu
 *           refuse:   dialog | broad-grant | no-option-1 | not-affirmative | … (the gate's reasons)
 *           no-op:    not-live
 *   OPTION  the option answered (1), else "-"
 *   KEY     the key approve sends for it ("1" or "Enter"), else "-"
 *   RULE    the danger rule (escalate/danger), the opaque form (escalate/opaque: "node -e",
 *           "git -c", "npx" …), else "-"
 *   DETAIL  one line of text: the allowlist entries matched (joined by ", "), the danger's words,
 *           why it is not allowlisted, the refusal message, or the drive plan for a screen with no
 *           live prompt (nothing | submit | nudge)
 * Every field is non-empty ("-" stands for none; tab-separated fields must not collapse) and free
 * of tabs and newlines. A reader refuses any other format version, and words a REASON it does not
 * know as "VERB (REASON)" (so `opaque`, added within format 1, reads "escalate (opaque)" there).
 */
import { gate, type RefusalReason } from "../approve/gate.ts";
import { toJudged } from "../approve/judge.ts";
import type { Verdicts } from "../detect/mod.ts";
import type { DangerRule } from "../shell/danger.ts";
import { planPane } from "./decide.ts";
import { toDriveVerdicts } from "./verdicts.ts";
import { freshState } from "./state.ts";
import { replaceControlRuns } from "../base/control.ts";

export const CLASSIFY_FORMAT = 1;
export const CLASSIFY_TAG = `drover-classify/${CLASSIFY_FORMAT}`;

export type Classification =
  | {
    verb: "approve";
    reason: "allowlisted";
    option: 1;
    key: "1" | "Enter";
    form: "digit" | "choice-row";
    /** Option 1's text as the screen shows it. */
    choice: string;
    command: string;
    matched: string[];
  }
  | { verb: "escalate"; reason: "danger"; rule: DangerRule; detail: string; command: string }
  | {
    verb: "escalate";
    reason: "opaque";
    /** The opaque form ("node -e"), lib/shell/opaque.ts. */
    opaque: string;
    detail: string;
    command: string;
  }
  | { verb: "escalate"; reason: "not-allowlisted"; detail: string; command: string | null }
  | { verb: "escalate"; reason: "cli-unavailable"; detail: string }
  /** A usage-limit menu with nothing else saying the CLI is at a limit (added within format 1). */
  | { verb: "escalate"; reason: "limit-menu"; detail: string }
  | { verb: "refuse"; reason: RefusalReason; detail: string }
  | { verb: "no-op"; reason: "not-live"; plan: "nothing" | "submit" | "nudge"; detail: string };

/** Judge one capture (its detector verdicts and plain text) as drive would for an agent pane. */
export function classifyCapture(
  raw: Verdicts,
  plain: string,
  allow: readonly string[],
): Classification {
  const v = toDriveVerdicts(raw, plain);
  const pane = { id: "%0", target: "-", cli: "-", role: "agent" as const };
  const plan = planPane(pane, v, freshState("-"), 0, {
    approve: "allowlist",
    allow,
    dedupWindowMs: 0,
  });
  switch (plan.kind) {
    case "approve": {
      // drive hands the pane to lib/approve, whose gate judges this same capture first.
      const g = gate(toJudged(raw));
      if (!g.ok) return { verb: "refuse", reason: g.reason, detail: g.message };
      return {
        verb: "approve",
        reason: "allowlisted",
        option: 1,
        key: g.key,
        form: g.form,
        choice: g.option,
        command: plan.command,
        matched: [...new Set(plan.matched)],
      };
    }
    case "escalate":
      if (plan.reason === "cli-unavailable" || plan.reason === "limit-menu") {
        return { verb: "escalate", reason: plan.reason, detail: plan.text ?? plan.message };
      }
      if (plan.reason === "dialog") {
        const g = gate(toJudged(raw));
        return { verb: "refuse", reason: "dialog", detail: g.ok ? plan.message : g.message };
      }
      if (plan.opaque) {
        const { form: opaque, detail } = plan.opaque;
        return { verb: "escalate", reason: "opaque", opaque, detail, command: plan.command ?? "" };
      }
      if (plan.danger) {
        const { rule, detail } = plan.danger;
        return { verb: "escalate", reason: "danger", rule, detail, command: plan.command ?? "" };
      }
      return {
        verb: "escalate",
        reason: "not-allowlisted",
        detail: plan.message,
        command: plan.command ?? null,
      };
    case "confirm-unavailable": // orchestrator panes only; classify judges an agent pane
      return { verb: "escalate", reason: "cli-unavailable", detail: plan.line };
    case "limit": // only under drive --resume, which classify does not judge
      return { verb: "escalate", reason: "cli-unavailable", detail: plan.step.memory.text };
    default:
      return {
        verb: "no-op",
        reason: "not-live",
        plan: plan.kind,
        detail: plan.kind,
      };
  }
}

/** A field of the line: one line of text, no tabs, never empty. */
function field(s: string | null | undefined, max = 240): string {
  const t = replaceControlRuns(s ?? "", " ").replace(/ {2,}/g, " ").trim();
  if (t === "") return "-";
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
}

/** The one versioned line `drover __classify` prints (contract above). */
export function classifyLine(c: Classification): string {
  const option = c.verb === "approve" ? String(c.option) : "-";
  const key = c.verb === "approve" ? c.key : "-";
  const rule = c.verb !== "escalate"
    ? "-"
    : c.reason === "danger"
    ? c.rule
    : c.reason === "opaque"
    ? c.opaque
    : "-";
  const detail = c.verb === "approve" ? c.matched.join(", ") : c.detail;
  return [CLASSIFY_TAG, c.verb, c.reason, option, key, field(rule), field(detail)].join("\t");
}
