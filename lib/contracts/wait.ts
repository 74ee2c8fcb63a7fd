import { z } from "../deps/zod.ts";
import { envelope, PANE_ID } from "./envelope.ts";

export const WAIT = envelope(
  "drover.wait.v1",
  "drover wait",
  z.strictObject({
    pane_id: PANE_ID,
    target: z.string(),
    cli: z.string(),
    cli_source: z.string(),
    until: z.enum(["ready", "idle", "prompt", "busy", "changed", "exit"]),
    satisfied: z.literal(true),
    state: z.enum(["unavailable", "prompt", "dialog", "busy", "shell", "idle", "unknown", "gone"]),
    readiness: z.string(),
    waited_ms: z.number().int().min(0),
    samples: z.number().int().min(1),
  }),
);
