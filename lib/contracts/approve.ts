import { z } from "../deps/zod.ts";
import { type DataOf, envelope, PANE_ID } from "./envelope.ts";
import {
  APPROVE_FORM,
  APPROVE_KEY,
  APPROVE_OUTCOME,
  CLI_SOURCE,
  PANE_STATE,
  REFUSAL_REASON,
  ROLE,
} from "./enums.ts";
import { OPTION } from "./verdicts.ts";

/**
 * What the gate saw on a capture (before sending, after sending): lib/approve/outcome.ts
 * ScreenSummary, held equal to this in lib/cli/contract_checks.ts.
 */
const JUDGED = z.looseObject({
  state: PANE_STATE,
  live_prompt: z.boolean(),
  permission_prompt: z.boolean(),
  command: z.string().nullable(),
  file_path: z.string().nullable(),
  options: z.array(OPTION),
  broad_grant_option: z.number().int().nullable(),
});

export const APPROVE = envelope(
  "drover.approve.v1",
  "drover approve",
  z.looseObject({
    pane_id: PANE_ID,
    target: z.string(),
    cli: z.string(),
    cli_source: CLI_SOURCE,
    role: ROLE,
    outcome: APPROVE_OUTCOME,
    reason: REFUSAL_REASON.nullable(),
    message: z.string(),
    exit_code: z.number().int(),
    sent: z.array(z.string()),
    key: APPROVE_KEY.nullable(),
    form: APPROVE_FORM.nullable(),
    option: z.string().nullable(),
    dry_run: z.boolean(),
    claim: z.string().nullable(),
    before: JUDGED.nullable(),
    after: JUDGED.nullable(),
  }),
);

export type ApproveData = DataOf<typeof APPROVE>;
