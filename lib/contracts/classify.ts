import { z } from "../deps/zod.ts";
import { envelope } from "./envelope.ts";

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
    reason: z.string(),
    option: z.literal(1).optional(),
    key: z.enum(["1", "Enter"]).optional(),
    form: z.enum(["digit", "choice-row"]).optional(),
    choice: z.string().optional(),
    command: z.string().nullable().optional(),
    matched: z.array(z.string()).optional(),
    rule: z.string().optional(),
    opaque: z.string().optional(),
    plan: z.enum(["nothing", "submit", "nudge"]).optional(),
    detail: z.string().optional(),
  }),
);
