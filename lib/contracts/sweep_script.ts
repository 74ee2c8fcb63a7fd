import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";

export const SWEEP_SCRIPT = envelope(
  "drover.sweep-script.v1",
  "drover sweep-script",
  z.looseObject({ bytes: z.number().int(), script: z.string() }),
);

export type SweepScriptData = DataOf<typeof SWEEP_SCRIPT>;
