import { z } from "../deps/zod.ts";
import { type Contract, PANE_ID, type Printed } from "./envelope.ts";
import { APPROVE_OUTCOME, DANGER_RULE, REFUSAL_REASON, ROLE } from "./enums.ts";

/** What happened (lib/drive/events.ts EventType); `drive --json` counts them by these names. */
export const EVENT_TYPE = z.enum([
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
]);

/** Why an escalation was raised (lib/drive/events.ts EscalationReason). */
export const ESCALATION_REASON = z.enum([
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
]);

/**
 * Why a prompt was not approved: drive's own judgement, a compiled danger rule, an opaque form of
 * code that runs code ("opaque:node -e"), or the approve gate's refusal or outcome.
 */
export const PROMPT_VERDICT = z.union([
  z.enum(["approve-none", "orchestrator", "not-allowlisted"]),
  z.templateLiteral(["danger:", DANGER_RULE]),
  z.templateLiteral(["opaque:", z.string()]),
  z.templateLiteral(["gate:", REFUSAL_REASON]),
  // An outcome stands in where the gate gave no reason (a digit sent, its Enter unconfirmed).
  z.templateLiteral(["gate:", APPROVE_OUTCOME.exclude(["approved", "key-in-input"])]),
]);

const EVENT_LINE = z.looseObject({
  schema: z.literal("drover.event.v1"),
  ts: z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}T/),
  session: z.string(),
  event: EVENT_TYPE,
  pane: PANE_ID.optional(),
  target: z.string().optional(),
  cli: z.string().optional(),
  role: ROLE.optional(),
  reason: ESCALATION_REASON.optional(),
  verdict: PROMPT_VERDICT.optional(),
  command: z.string().nullable().optional(),
  file_path: z.string().nullable().optional(),
  text: z.string().optional(),
  resets_at: z.string().optional().describe(
    "when a usage limit resets (ISO 8601), as the screen said: limit, resumed and unavailable events",
  ),
  message: z.string(),
  detail: z.record(z.string(), z.unknown()).optional(),
});

/** One JSON line of `drover drive --events FILE` (and of `drive --json` while it runs). */
export const EVENT = {
  id: "drover.event.v1",
  title: "drover drive event",
  description:
    "One JSON line of `drover drive --events FILE` (not an envelope). Fields may be added within v1.",
  schema: EVENT_LINE,
} satisfies Contract;

export type EventLine = Printed<z.infer<typeof EVENT_LINE>>;
