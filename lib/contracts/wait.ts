import { z } from "../deps/zod.ts";
import { type DataOf, envelope, PANE_ID } from "./envelope.ts";
import { CLI_SOURCE, PANE_STATE_OR_GONE, READINESS } from "./enums.ts";

export const WAIT = envelope(
  "drover.wait.v1",
  "drover wait",
  z.strictObject({
    pane_id: PANE_ID,
    target: z.string(),
    cli: z.string(),
    cli_source: CLI_SOURCE,
    until: z.enum(["ready", "idle", "prompt", "busy", "changed", "exit"]),
    satisfied: z.literal(true),
    state: PANE_STATE_OR_GONE,
    readiness: READINESS,
    waited_ms: z.number().int().min(0),
    samples: z.number().int().min(1),
  }),
);

export type WaitData = DataOf<typeof WAIT>;
