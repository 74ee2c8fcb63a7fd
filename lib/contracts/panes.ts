import { z } from "../deps/zod.ts";
import { type DataOf, envelope, PANE_ID } from "./envelope.ts";
import { CLI_SOURCE, MODE, PANE_STATE_OR_GONE, ROLE } from "./enums.ts";

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
      cli_source: CLI_SOURCE,
      cli_evidence: z.string(),
      role: ROLE,
      role_reason: z.string(),
      state: PANE_STATE_OR_GONE,
      mode: MODE,
      cli_version: z.string().nullable().optional().describe(
        "the CLI's version when cheap to know: from the pane's processes (a versioned install " +
          "path, else its npm package.json), else from its screen (the banner); null when unknown",
      ),
      cli_version_source: z.enum(["path", "package", "screen"]).nullable().optional().describe(
        "where cli_version was read; null when unknown",
      ),
      background: z.string().nullable().optional().describe(
        'background work the pane\'s CLI still runs ("1 shell"), its state busy; null when none ' +
          "or the pane is gone",
      ),
    })),
  }),
);

export type PanesData = DataOf<typeof PANES>;
