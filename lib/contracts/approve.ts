import { z } from "../deps/zod.ts";
import { envelope, PANE_ID } from "./envelope.ts";
import { OPTION } from "./verdicts.ts";

/** What the gate saw on a capture (before sending, after sending). */
const JUDGED = z.looseObject({
  state: z.string(),
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
    cli_source: z.string(),
    role: z.string(),
    outcome: z.string(),
    reason: z.string().nullable(),
    message: z.string(),
    exit_code: z.number().int(),
    sent: z.array(z.string()),
    key: z.enum(["1", "Enter"]).nullable(),
    form: z.enum(["digit", "choice-row"]).nullable(),
    option: z.string().nullable(),
    dry_run: z.boolean(),
    claim: z.string().nullable(),
    before: JUDGED.nullable(),
    after: JUDGED.nullable(),
  }),
);
