import { z } from "../deps/zod.ts";
import { envelope, PANE_ID } from "./envelope.ts";

export const CAPTURE = envelope(
  "drover.capture.v1",
  "drover capture",
  z.looseObject({
    pane_id: PANE_ID,
    target: z.string(),
    cli: z.string(),
    cli_source: z.string(),
    size: z.string(),
    history_lines: z.number().int().min(0),
    plain: z.string(),
    styled: z.string(),
  }),
);
