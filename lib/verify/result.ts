/**
 * What one scenario came to, in the shape `verify` reports it (lib/contracts/verify.ts), and the
 * order results are reported in. Every result is built from {@link blank}, so each has the same keys
 * in the same order (the `--json` output is printed as built).
 */
import type { ApproveOutcome } from "../approve/approve.ts";
import type { Evidence } from "../profile/evidence.ts";
import type { FieldName } from "../profile/fields.ts";
import { type Expect, STANDARD_SCENARIOS } from "../scenarios/types.ts";

export type Status = "hold" | "drift" | "skipped" | "not-run";

/** A profile field involved in a drift, with the lines of the screen that match it. */
export interface FieldReport {
  field: FieldName;
  value: unknown;
  /** Why it is listed: the expected side found nothing, or the seen side matched something. */
  role: "expected-missing" | "expected-matched" | "seen-matched";
  matches: Evidence[];
}

export interface Screen {
  plain: string;
  styled: string;
  title: string;
}

export interface ScenarioResult {
  scenario: string;
  session: string;
  status: Status;
  expect: Expect;
  /** The verdicts seen (the ones the expectation names, plus state). */
  seen: Record<string, unknown> | null;
  /** One line per unmet expectation ("state idle, expected busy"). */
  problems: string[];
  fields: FieldReport[];
  /** Why a scenario was skipped or not run, or what was not reached. */
  reason: string | null;
  /** The CLI's own wording for the state that was not on the screen (a hint, not a failure). */
  wording_missing: string[];
  approve: Pick<ApproveOutcome, "outcome" | "reason" | "key" | "sent" | "message"> | null;
  ms: number;
  screen: Screen | null;
}

/** A result with nothing judged; `result` names the scenario and what is known. */
export function blank(
  result: Partial<ScenarioResult> & { scenario: string; session: string },
): ScenarioResult {
  return {
    status: "not-run" as Status,
    expect: {},
    seen: null,
    problems: [],
    fields: [],
    reason: null,
    wording_missing: [],
    approve: null,
    ms: 0,
    screen: null,
    ...result,
  } as ScenarioResult;
}

/** The gate's answer as a result shows it. */
export function approveView(o: ApproveOutcome): ScenarioResult["approve"] {
  return { outcome: o.outcome, reason: o.reason, key: o.key, sent: o.sent, message: o.message };
}

/** Results in report order: the standard set first (in its order), then a table's extras. */
export function orderResults(results: ScenarioResult[]): ScenarioResult[] {
  const rank = (n: string) => {
    const i = (STANDARD_SCENARIOS as readonly string[]).indexOf(n);
    return i < 0 ? STANDARD_SCENARIOS.length : i;
  };
  return [...results].sort((a, b) => rank(a.scenario) - rank(b.scenario));
}
