import { z } from "../deps/zod.ts";
import { type DataOf, envelope, PANE_ID } from "./envelope.ts";

export const READ = envelope(
  "drover.read.v1",
  "drover read",
  z.strictObject({
    pane_id: PANE_ID,
    target: z.string(),
    mode: z.enum(["snapshot", "last"]),
    last: z.number().int().nullable(),
    line_count: z.number().int().min(0),
    text: z.string(),
    stabilized: z.boolean().nullable(),
    waited_ms: z.number().int().nullable(),
    samples: z.number().int().nullable(),
  }),
);

export type ReadData = DataOf<typeof READ>;
