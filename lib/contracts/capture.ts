import { z } from "../deps/zod.ts";
import { type DataOf, envelope, PANE_ID } from "./envelope.ts";
import { CLI_SOURCE, PANE_STATE } from "./enums.ts";

export const CAPTURE = envelope(
  "drover.capture.v1",
  "drover capture",
  z.looseObject({
    pane_id: PANE_ID,
    target: z.string(),
    cli: z.string(),
    cli_source: CLI_SOURCE,
    size: z.string(),
    history_lines: z.number().int().min(0),
    plain: z.string(),
    styled: z.string(),
    saved: z.strictObject({ plain: z.string(), styled: z.string(), state: PANE_STATE }).optional()
      .describe("with --save DIR --as STATE: the two files written for `drover profile test`"),
  }),
);

export type CaptureData = DataOf<typeof CAPTURE>;
