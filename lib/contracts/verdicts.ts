/** Pieces of the detector verdicts that several outputs share. */
import { z } from "../deps/zod.ts";

/** A numbered option of a live prompt. */
export const OPTION = z.looseObject({
  number: z.number().int(),
  text: z.string(),
  selected: z.boolean(),
});
