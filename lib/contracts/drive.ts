import { z } from "../deps/zod.ts";
import { envelope } from "./envelope.ts";

/** The final result of `drover drive` (its events are drover.event.v1, ./event.ts). */
export const DRIVE = envelope(
  "drover.drive.v1",
  "drover drive",
  z.looseObject({
    session: z.string(),
    outcome: z.string(),
    exit_code: z.number().int(),
    ticks: z.number().int().min(0),
    events: z.record(z.string(), z.number().int()),
    message: z.string(),
  }),
);
