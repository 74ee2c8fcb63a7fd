import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";
import { MODE, PANE_STATE, READINESS } from "./enums.ts";
import { OPTION } from "./verdicts.ts";

export const DETECT = envelope(
  "drover.detect.v1",
  "drover detect",
  z.looseObject({
    cli: z.string(),
    state: PANE_STATE,
    readiness: READINESS,
    approval: z.boolean(),
    live_prompt: z.boolean(),
    permission_prompt: z.boolean(),
    mid_response: z.boolean(),
    background: z.string().nullable().optional().describe(
      'background work still pending after the turn ("2 shells", "1 background agent"; ' +
        "profile field background_pattern), else null; the pane is busy while it is set",
    ),
    command: z.string().nullable(),
    file_path: z.string().nullable(),
    command_block: z.number().int().nullable().optional().describe(
      "how many non-blank lines form the screen block holding the command (command + " +
        "description) when it stands on a line of its own, else null (wrapped, several lines, none)",
    ),
    options: z.array(OPTION),
    broad_grant_option: z.number().int().nullable(),
    input_box: z.string().nullable(),
    mode: MODE,
    stream_error: z.string().nullable(),
    context_bloat_k: z.number().nullable(),
    context_used_pct: z.number().nullable(),
    paste_buffer: z.string().nullable(),
    cli_unavailable: z.string().nullable(),
    manual_pattern: z.string().nullable(),
    limit: z.string().nullable().describe(
      "a usage-limit banner that says when it resets (limit_reset_pattern), else null",
    ),
    limit_resets_at: z.string().nullable().describe(
      "when that limit resets, ISO 8601 (UTC); null when no time is printed or it cannot be read",
    ),
    limit_menu: z.string().nullable().optional().describe(
      "the option of a live menu that says it is the CLI's usage-limit menu (profile field " +
        'limit_menu_markers: "Stop and wait for limit to reset"), as shown; the state is then ' +
        "unavailable and drive escalates it as limit-menu, never answering it; else null",
    ),
    cli_version: z.string().nullable().optional().describe(
      "the CLI's version as its screen prints it (the newest banner; profile field " +
        "cli_version_pattern), else null; reported only, no verdict depends on it",
    ),
  }),
);

export type DetectData = DataOf<typeof DETECT>;
