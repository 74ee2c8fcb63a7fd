import { z } from "../deps/zod.ts";
import { type Contract, PANE_ID } from "./envelope.ts";

/** One JSON line of `drover drive --events FILE` (and of `drive --json` while it runs). */
export const EVENT: Contract = {
  id: "drover.event.v1",
  title: "drover drive event",
  description:
    "One JSON line of `drover drive --events FILE` (not an envelope). Fields may be added within v1.",
  schema: z.looseObject({
    schema: z.literal("drover.event.v1"),
    ts: z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}T/),
    session: z.string(),
    event: z.enum([
      "drive-started",
      "drive-stopped",
      "approved",
      "approve-refused",
      "escalated",
      "input-submitted",
      "nudge-sent",
      "orchestrator-unavailable",
      "limit",
      "resumed",
      "state-reset",
      "warning",
    ]),
    pane: PANE_ID.optional(),
    target: z.string().optional(),
    cli: z.string().optional(),
    role: z.enum(["orchestrator", "agent"]).optional(),
    reason: z.enum([
      "cli-unavailable",
      "orchestrator-unavailable",
      "permission-prompt",
      "dialog",
      "input-stuck",
      "key-in-input",
      "nudge-wedged",
      "synchronized",
      "limit-menu",
      "resume-wedged",
    ]).optional(),
    verdict: z.string().optional(),
    command: z.string().nullable().optional(),
    file_path: z.string().nullable().optional(),
    text: z.string().optional(),
    resets_at: z.string().optional().describe(
      "when a usage limit resets (ISO 8601), as the screen said: limit, resumed and unavailable events",
    ),
    message: z.string(),
    detail: z.record(z.string(), z.unknown()).optional(),
  }),
};
