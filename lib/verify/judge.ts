/**
 * Judging a reached screen against a scenario's expectation, pure: the verdicts `detect()` gave,
 * the profile fields that explain a difference (with the lines that match them), and the gate's
 * answer to an approval step.
 */
import type { ApproveOutcome } from "../approve/approve.ts";
import type { Verdicts } from "../detect/mod.ts";
import { type Evidence, evidenceFor, STATE_FIELDS } from "../profile/evidence.ts";
import type { FieldName } from "../profile/fields.ts";
import type { ResolvedProfile } from "../profile/resolve.ts";
import type { Expect } from "../scenarios/types.ts";
import type { FieldReport, ScenarioResult } from "./result.ts";

/** Which profile fields decide each verdict a table may expect. */
export const VERDICT_FIELDS: Record<string, readonly FieldName[]> = {
  command: ["command_header_markers", "command_box_markers", "command_line_pattern"],
  file_path: ["file_prompt_pattern"],
  input_box: ["input_sigils", "input_line_pattern", "input_placeholder_markers"],
  permission_prompt: [
    "live_prompt_markers",
    "approval_markers",
    "option_line_pattern",
    "command_header_markers",
    "command_box_markers",
    "file_prompt_pattern",
  ],
  live_prompt: ["live_prompt_markers", "option_line_pattern"],
  mid_response: ["mid_response_markers", "mid_response_pattern", "activity_line_pattern"],
  background: ["background_pattern"],
  stream_error: ["stream_error_markers"],
  cli_unavailable: ["cli_unavailable_markers"],
  mode: ["mode_accept_edits_markers", "mode_interactive_markers"],
  broad_grant_option: ["broad_grant_marker", "broad_grant_markers", "option_line_pattern"],
  choice_row: ["choice_row_markers"],
};

export type Judged = Pick<ScenarioResult, "seen" | "problems" | "fields">;

/** Judge a screen against an expectation (pure; exported for tests). */
export function judge(
  expect: Expect,
  v: Verdicts,
  profile: ResolvedProfile,
  plain: string,
): Judged {
  const seen: Record<string, unknown> = {};
  const problems: string[] = [];
  const fields = new Map<FieldName, FieldReport>();
  const add = (field: FieldName, role: FieldReport["role"], matches: Evidence[]) => {
    if (fields.has(field)) return;
    const value = profile.values[field];
    // An unset field (an empty marker list included) decided nothing: nothing to show.
    if (value === null || value === undefined || value === "") return;
    if (Array.isArray(value) && value.length === 0) return;
    fields.set(field, { field, value, role, matches: matches.slice(0, 3) });
  };
  const explain = (expectedFields: readonly FieldName[], seenFields: readonly FieldName[]) => {
    for (const f of expectedFields) {
      const ev = evidenceFor(plain, profile, [f]);
      add(f, ev.length ? "expected-matched" : "expected-missing", ev);
    }
    for (const f of seenFields) {
      const ev = evidenceFor(plain, profile, [f]);
      if (ev.length) add(f, "seen-matched", ev);
    }
  };
  const record = v as unknown as Record<string, unknown>;
  if (expect.state !== undefined) {
    seen.state = v.state;
    if (v.state !== expect.state) {
      problems.push(`state ${v.state}, expected ${expect.state}`);
      explain(STATE_FIELDS[expect.state], STATE_FIELDS[v.state]);
    }
  }
  for (const [k, want] of Object.entries(expect.verdicts ?? {})) {
    const got = record[k];
    seen[k] = got ?? null;
    const ok = want === "*"
      ? !(got === null || got === undefined || got === false || got === "")
      : JSON.stringify(got ?? null) === JSON.stringify(want);
    if (!ok) {
      problems.push(
        `${k} ${short(got ?? null)}, expected ${want === "*" ? "a value" : short(want)}`,
      );
      const fs = VERDICT_FIELDS[k] ?? [];
      explain(fs, []);
    }
  }
  // Fields whose marker went missing first: they are what changed.
  const order = { "expected-missing": 0, "seen-matched": 1, "expected-matched": 2 };
  return {
    seen,
    problems,
    fields: [...fields.values()].sort((a, b) => order[a.role] - order[b.role]),
  };
}

function short(v: unknown): string {
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/**
 * The screen's judgement with the gate's answer added: the approval seen, and a problem unless the
 * gate answered as expected and sent exactly the expected key first.
 */
export function judgeApproval(
  j: Judged,
  want: NonNullable<Expect["approve"]>,
  o: ApproveOutcome | undefined,
): Judged {
  const seen = { ...j.seen, approve: o ? `${o.outcome}${o.key ? ` (key ${o.key})` : ""}` : null };
  if (o && o.outcome === want.outcome && o.key === want.key && o.sent[0] === want.key) {
    return { ...j, seen };
  }
  const problem = o
    ? `approve ${o.outcome}${o.reason ? ` (${o.reason})` : ""}${
      o.key ? ` with key ${o.key}` : ""
    }, expected ${want.outcome} with key ${want.key}: ${o.message}`
    : "approve did not run";
  return { ...j, seen, problems: [...j.problems, problem] };
}
