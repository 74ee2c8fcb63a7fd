import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";
import { FIELD_KIND } from "./profile.ts";

export const PROMPT_PROFILE = envelope(
  "drover.prompt-profile.v1",
  "drover __prompt-profile --format json",
  z.looseObject({
    format_version: z.number().int().optional(),
    cli: z.string(),
    rows: z.array(z.looseObject({
      name: z.string(),
      // "constant": a detector constant exported beside the fields (lib/sweep/export.ts).
      kind: z.enum([...FIELD_KIND.options, "constant"]),
      ere: z.string(),
    }))
      .optional(),
  }),
);

export type PromptProfileData = DataOf<typeof PROMPT_PROFILE>;
