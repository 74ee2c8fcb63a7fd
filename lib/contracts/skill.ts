import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";

/** `drover skill` prints the text; `drover skill --install` reports the file it wrote. */
export const SKILL = envelope(
  "drover.skill.v1",
  "drover skill",
  z.union([
    z.looseObject({ bytes: z.number().int(), skill: z.string() }),
    z.looseObject({ path: z.string(), written: z.boolean(), replaced: z.boolean() }),
  ]),
);

export type SkillData = DataOf<typeof SKILL>;
