import { z } from "../deps/zod.ts";
import { envelope } from "./envelope.ts";

export const PROMPT_PROFILE = envelope(
  "drover.prompt-profile.v1",
  "drover __prompt-profile --format json",
  z.looseObject({
    format_version: z.number().int().optional(),
    cli: z.string(),
    rows: z.array(z.looseObject({ name: z.string(), kind: z.string(), ere: z.string() }))
      .optional(),
  }),
);
