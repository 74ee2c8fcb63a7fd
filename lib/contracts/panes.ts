import { z } from "../deps/zod.ts";
import { envelope, PANE_ID } from "./envelope.ts";

export const PANES = envelope(
  "drover.panes.v1",
  "drover panes",
  z.looseObject({
    server: z.string(),
    session: z.string().nullable(),
    panes: z.array(z.looseObject({
      id: PANE_ID,
      target: z.string(),
      session: z.string(),
      window: z.number().int(),
      pane: z.number().int(),
      title: z.string(),
      command: z.string(),
      path: z.string(),
      pid: z.number().int(),
      size: z.string().regex(/^[0-9]+x[0-9]+$/),
      active: z.boolean(),
      cli: z.string(),
      cli_source: z.string(),
      cli_evidence: z.string(),
      role: z.enum(["orchestrator", "agent"]),
      role_reason: z.string(),
      state: z.string(),
      mode: z.string(),
    })),
  }),
);
