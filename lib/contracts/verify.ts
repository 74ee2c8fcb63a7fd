import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";
import { APPROVE_KEY, APPROVE_OUTCOME, PANE_STATE, REFUSAL_REASON } from "./enums.ts";

const COUNT = z.number().int().min(0);

/** One scenario's result (lib/verify/result.ts ScenarioResult, minus the screen text). */
const SCENARIO = z.looseObject({
  scenario: z.string().describe("ready, typed-input, busy, … (the standard set, then extras)"),
  session: z.string().describe('the run of the CLI it belongs to ("-" when it did not run)'),
  status: z.enum(["hold", "drift", "skipped", "not-run"]).describe(
    "hold: every expected verdict seen; drift: a verdict differs or the screen was not reached; " +
      "skipped: the CLI cannot be driven into it against a stand-in (reason says why); " +
      "not-run: stopped before it ran",
  ),
  expect: z.looseObject({
    // The states a CLI can be driven into against a stand-in (lib/scenarios ScreenState).
    state: PANE_STATE.exclude(["unknown"]).optional(),
    verdicts: z.record(z.string(), z.unknown()).optional(),
    approve: z.looseObject({ outcome: z.literal("approved"), key: APPROVE_KEY }).optional(),
  }),
  seen: z.record(z.string(), z.unknown()).nullable().describe(
    "the verdicts seen, under the expectation's names (null when no screen was judged)",
  ),
  problems: z.array(z.string()),
  fields: z.array(z.looseObject({
    field: z.string(),
    value: z.unknown(),
    role: z.enum(["expected-missing", "expected-matched", "seen-matched"]),
    matches: z.array(z.looseObject({
      line: z.number().int().min(1),
      field: z.string(),
      match: z.string(),
      text: z.string(),
    })),
  })).describe(
    "profile fields involved in a drift; expected-missing: none of its markers is on the screen " +
      "(what most likely changed)",
  ),
  reason: z.string().nullable(),
  wording_missing: z.array(z.string()).describe(
    "the CLI's own wording for the state that was not on the screen (a hint)",
  ),
  approve: z.looseObject({
    outcome: APPROVE_OUTCOME,
    reason: REFUSAL_REASON.nullable(),
    key: APPROVE_KEY.nullable(),
    sent: z.array(z.string()),
    message: z.string(),
  }).nullable(),
  ms: COUNT,
  capture: z.string().nullable().describe("the saved plain capture (--save), else null"),
});

/** `drover verify`: per CLI, its version, every scenario's verdicts and a summary. */
export const VERIFY = envelope(
  "drover.verify.v1",
  "drover verify",
  z.looseObject({
    exit_code: z.number().int().describe(
      "0 every scenario holds, 1 drift, 69 not installed, 130 interrupted",
    ),
    clis: z.array(z.looseObject({
      cli: z.string(),
      command: z.string(),
      path: z.string().nullable(),
      found_by: z.enum(["login-shell", "path", "absolute", "not-found"]),
      version: z.string().nullable(),
      status: z.enum(["hold", "drift", "not-installed", "interrupted"]),
      profile: z.looseObject({ shipped: z.string().nullable(), config: z.string().nullable() }),
      size: z.string().regex(/^[0-9]+x[0-9]+$/),
      counts: z.looseObject({
        hold: COUNT,
        drift: COUNT,
        skipped: COUNT,
        not_run: COUNT,
        total: COUNT,
      }),
      scenarios: z.array(SCENARIO),
      ms: COUNT,
      summary: z.string(),
      saved: z.string().nullable(),
    })),
  }),
);

export type VerifyData = DataOf<typeof VERIFY>;
