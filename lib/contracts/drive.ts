import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";
import { EVENT_TYPE } from "./event.ts";

/** The final result of `drover drive` (its events are drover.event.v1, ./event.ts). */
export const DRIVE = envelope(
  "drover.drive.v1",
  "drover drive",
  z.looseObject({
    session: z.string(),
    // Why the run ended (lib/drive/run.ts DriveOutcome); max-ticks only where a test bounds it.
    outcome: z.enum([
      "once",
      "stopped",
      "max-ticks",
      "orchestrator-unavailable",
      "orchestrator-limit",
      "session-gone",
      "synchronized",
    ]),
    exit_code: z.number().int(),
    ticks: z.number().int().min(0),
    events: z.partialRecord(EVENT_TYPE, z.number().int()),
    state_file: z.string().describe("the state file this run keeps (under --state)"),
    message: z.string(),
  }),
);

export type DriveData = DataOf<typeof DRIVE>;
