import { z } from "../deps/zod.ts";
import { type DataOf, envelope, PANE_ID } from "./envelope.ts";
import { CLI_SOURCE, PANE_STATE_OR_GONE } from "./enums.ts";

export const SEND = envelope(
  "drover.send.v1",
  "drover send",
  z.strictObject({
    pane_id: PANE_ID,
    target: z.string(),
    cli: z.string(),
    cli_source: CLI_SOURCE,
    input: z.strictObject({
      source: z.enum(["argv", "stdin"]),
      characters: z.number().int(),
      bytes: z.number().int(),
      method: z.enum(["keys", "paste"]),
    }),
    enter_presses: z.number().int().min(1).max(2),
    verified: z.literal(true),
    state_before: PANE_STATE_OR_GONE,
    state_after: PANE_STATE_OR_GONE,
  }),
);

export type SendData = DataOf<typeof SEND>;
