import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";

/** `drover __claim-paths --json` (hidden; for sweep.sh): where a pane's approve claim lives. */
export const CLAIM_PATHS = envelope(
  "drover.claim-paths.v1",
  "drover __claim-paths --json",
  z.looseObject({
    format_version: z.literal(1),
    pane_id: z.string().regex(/^%[0-9]+$/),
    socket_path: z.string(),
    // Absolute, in the order they are taken (lib/approve/claim.ts).
    paths: z.array(z.string().regex(/^\/[^\n]*\.claim$/)).min(1),
  }),
);

export type ClaimPathsData = DataOf<typeof CLAIM_PATHS>;
