import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";
import { APPROVE_FORM, APPROVE_KEY, DANGER_RULE, REFUSAL_REASON } from "./enums.ts";

/** `drover __classify --json` (hidden; for sweep.sh): drive's decision on one capture. */
export const CLASSIFY = envelope(
  "drover.classify.v1",
  "drover __classify --json",
  z.looseObject({
    format_version: z.literal(1),
    cli: z.string(),
    // The versioned line printed without --json (contract in lib/drive/classify.ts).
    line: z.string().regex(/^drover-classify\/1(\t[^\t\n]+){6}$/),
    verb: z.enum(["approve", "escalate", "refuse", "no-op"]),
    // By verb (lib/drive/classify.ts): approve allowlisted; escalate danger, opaque,
    // not-allowlisted, cli-unavailable, limit-menu; refuse the gate's reasons; no-op not-live.
    reason: z.enum([
      "allowlisted",
      "danger",
      "opaque",
      "not-allowlisted",
      "cli-unavailable",
      "limit-menu",
      ...REFUSAL_REASON.options,
      "not-live",
    ]),
    option: z.literal(1).optional(),
    key: APPROVE_KEY.optional(),
    form: APPROVE_FORM.optional(),
    choice: z.string().optional(),
    command: z.string().nullable().optional(),
    matched: z.array(z.string()).optional(),
    rule: DANGER_RULE.optional(),
    opaque: z.string().optional(),
    plan: z.enum(["nothing", "submit", "nudge"]).optional(),
    detail: z.string().optional(),
  }),
);

export type ClassifyData = DataOf<typeof CLASSIFY>;
