import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";
import { PANE_STATE } from "./enums.ts";

/** How a profile field is written (lib/profile/fields.ts FieldKind). */
export const FIELD_KIND = z.enum(["markers", "marker", "pattern"]);

/** `drover profile show`. */
export const PROFILE = envelope(
  "drover.profile.v1",
  "drover profile show",
  z.looseObject({
    cli: z.string(),
    shipped: z.string().nullable(),
    /** CLI versions the shipped profile layer is verified on (empty when none ships for the CLI). */
    verified_versions: z.array(z.string()),
    fields: z.array(z.looseObject({ name: z.string(), kind: FIELD_KIND })),
  }),
);

/** `drover profile list`. */
export const PROFILE_LIST = envelope(
  "drover.profile-list.v1",
  "drover profile list",
  z.looseObject({
    default_cli: z.string().nullable(),
    shipped: z.array(z.looseObject({
      id: z.string(),
      clis: z.array(z.string()),
      verified: z.boolean(),
      verified_versions: z.array(z.string()),
    })),
    configured: z.array(z.unknown()),
  }),
);

/** `drover profile test`: each screen's expected and detected state, with the evidence. */
export const PROFILE_TEST = envelope(
  "drover.profile-test.v1",
  "drover profile test",
  z.looseObject({
    cli: z.string(),
    shipped: z.string().nullable(),
    dir: z.string(),
    screens: z.array(z.looseObject({
      file: z.string(),
      styled: z.string().nullable(),
      // A screen is named after any state but "gone" (lib/cli/profile_test_cmd.ts SCREEN_STATES).
      expected: PANE_STATE,
      actual: PANE_STATE,
      ok: z.boolean(),
      fields: z.array(z.string()),
      evidence: z.array(z.looseObject({
        line: z.number().int().min(1),
        field: z.string(),
        match: z.string(),
        text: z.string(),
      })),
      verdicts: z.record(z.string(), z.unknown()),
    })),
    mismatches: z.number().int().min(0),
    skipped: z.array(z.string()),
  }),
);

export type ProfileData = DataOf<typeof PROFILE>;
export type ProfileListData = DataOf<typeof PROFILE_LIST>;
export type ProfileTestData = DataOf<typeof PROFILE_TEST>;
