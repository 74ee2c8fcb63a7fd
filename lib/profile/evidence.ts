/**
 * Which profile fields decide a state or a verdict, and which lines of a screen match them: what
 * `profile test` and `verify` show when a screen is judged differently from what it really is.
 */
import type { FieldName } from "./fields.ts";
import type { ResolvedProfile } from "./resolve.ts";
import { execBounded, type Matcher } from "../regex/mod.ts";

/**
 * The profile fields whose values decide that a screen is in a state (and so the ones to look at
 * when it is judged to be, or not to be, in it). Compiled windows and sigils are not fields.
 */
/** The pane states of DESIGN §5 (detect's PaneState; spelled here so profile stays below detect). */
export type StateName = "unavailable" | "prompt" | "dialog" | "busy" | "shell" | "idle" | "unknown";

export const STATE_FIELDS: Readonly<Record<StateName, readonly FieldName[]>> = {
  unavailable: [
    "cli_unavailable_markers",
    "unavailable_banner_pattern",
    "status_limit_pattern",
    "limit_menu_markers",
  ],
  prompt: [
    "live_prompt_markers",
    "option_line_pattern",
    "approval_markers",
    "command_header_markers",
    "command_box_markers",
    "command_line_pattern",
    "file_prompt_pattern",
  ],
  dialog: ["live_prompt_markers", "option_line_pattern", "dialog_markers", "approval_markers"],
  busy: [
    "mid_response_markers",
    "mid_response_pattern",
    "activity_line_pattern",
    "background_pattern",
  ],
  shell: ["readiness_markers"],
  idle: ["readiness_markers", "input_sigils", "input_line_pattern", "input_placeholder_markers"],
  unknown: [],
};

export interface Evidence {
  line: number;
  field: FieldName;
  /** The marker (or pattern source) that matched. */
  match: string;
  text: string;
}

/** Lines of `plain` that match any of `fields` in profile `p` (markers: case-insensitive). */
export function evidenceFor(
  plain: string,
  p: ResolvedProfile,
  fields: readonly FieldName[],
): Evidence[] {
  const lines = plain.replace(/\r/g, "").split("\n");
  const out: Evidence[] = [];
  for (const f of fields) {
    const v = p.values[f] as unknown;
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i];
      if (Array.isArray(v)) {
        const low = text.toLowerCase();
        const hit = (v as string[]).find((m) => low.includes(m.toLowerCase()));
        if (hit !== undefined) out.push({ line: i + 1, field: f, match: hit, text: text.trim() });
      } else if (typeof v === "string") {
        const re = (p.matchers.patterns as Record<string, Matcher | null>)[f];
        if (re && execBounded(re, text) !== null) {
          out.push({ line: i + 1, field: f, match: v, text: text.trim() });
        }
      }
    }
  }
  return out;
}
