/**
 * The prompt-shape profile field table: every field a profile may set, its kind and what it means.
 * The 16 fields of seed 000 come first; the rest are documented extensions (docs/profiles.md) that
 * exist because real screens needed them. Every field resolves independently (resolve.ts).
 */

/** `markers`: list of case-insensitive substrings; `marker`: one such substring; `pattern`: Rust regex. */
export type FieldKind = "markers" | "marker" | "pattern";

export interface FieldSpec {
  readonly name: string;
  readonly kind: FieldKind;
  /** Seed 000 field (false = drover extension). Seed fields must be set by the default profile;
   * an extension field may stay unset there (unset = the detector that reads it is off). */
  readonly seed: boolean;
  readonly summary: string;
  /**
   * Named capture groups a pattern field reads (`(?P<name>…)`): the names it may use, and the ones
   * of which it needs at least one. Other pattern fields ignore group names.
   */
  readonly namedGroups?: {
    readonly allowed: readonly string[];
    readonly anyOf: readonly string[];
  };
}

export const FIELDS = [
  {
    name: "readiness_markers",
    kind: "markers",
    seed: true,
    summary: "substrings that identify the CLI's interactive ready state (not a bare shell)",
  },
  {
    name: "approval_markers",
    kind: "markers",
    seed: true,
    summary: "substrings showing the CLI waits for an approval decision",
  },
  {
    name: "live_prompt_markers",
    kind: "markers",
    seed: true,
    summary: "the confirmation question lead-in and the cancel footer that anchor a live prompt",
  },
  {
    name: "mid_response_markers",
    kind: "markers",
    seed: true,
    summary: "substrings showing the CLI is producing a response (its interrupt footer)",
  },
  {
    name: "prompt_boilerplate_markers",
    kind: "markers",
    seed: true,
    summary: "substrings marking a line as prompt boilerplate rather than the command",
  },
  {
    name: "command_header_markers",
    kind: "markers",
    seed: true,
    summary: "command-confirmation headers: a whole-line form, or an inline form ending in '('",
  },
  {
    name: "file_prompt_pattern",
    kind: "pattern",
    seed: true,
    summary: "regex matching a file-operation prompt; group 1 captures the path",
  },
  {
    name: "option_line_pattern",
    kind: "pattern",
    seed: true,
    summary: "regex matching a numbered option line after decoration is stripped",
  },
  {
    name: "broad_grant_marker",
    kind: "marker",
    seed: true,
    summary: "substring identifying a durable (don't ask again) option; ' and \u2019 both match",
  },
  {
    name: "input_sigils",
    kind: "markers",
    seed: true,
    summary: "prefixes that open the CLI's input line",
  },
  {
    name: "mode_accept_edits_markers",
    kind: "markers",
    seed: true,
    summary: "substrings identifying the accept-edits mode (title + capture)",
  },
  {
    name: "mode_interactive_markers",
    kind: "markers",
    seed: true,
    summary: "substrings identifying the interactive (default) mode",
  },
  {
    name: "stream_error_markers",
    kind: "markers",
    seed: true,
    summary: "phrases showing the API call failed mid-turn (transport error, timeout, retry)",
  },
  {
    name: "context_bloat_pattern",
    kind: "pattern",
    seed: true,
    summary: "regex for a clear/compact hint; the first all-digit group = tokens in thousands",
  },
  {
    name: "paste_buffer_pattern",
    kind: "pattern",
    seed: true,
    summary: "regex matching the CLI's pasted-text placeholder left in the input",
  },
  {
    name: "cli_unavailable_markers",
    kind: "markers",
    seed: true,
    summary: "phrases showing the CLI stopped serving (usage limit, credit, auth)",
  },
  // ---- extensions (documented in docs/profiles.md) ----
  {
    name: "broad_grant_markers",
    kind: "markers",
    seed: false,
    summary: "further wordings of a durable-grant option, matched like broad_grant_marker",
  },
  {
    name: "dialog_markers",
    kind: "markers",
    seed: false,
    summary: "headings of known non-permission dialogs (first-run, trust, bypass warning)",
  },
  {
    name: "context_used_pattern",
    kind: "pattern",
    seed: false,
    summary: "regex for a context-window usage indicator; the first all-digit group = percent used",
  },
  {
    name: "input_placeholder_markers",
    kind: "markers",
    seed: false,
    summary: "prefixes of the CLI's placeholder hint in an empty input line (not input)",
  },
  {
    name: "mid_response_pattern",
    kind: "pattern",
    seed: false,
    summary: "regex for a busy/spinner line in the bottom region (for footers without the markers)",
  },
  // Added for the non-Claude CLIs (issue 7; lab-others): see docs/profiles.md "Extension fields".
  {
    name: "input_line_pattern",
    kind: "pattern",
    seed: false,
    summary:
      "regex for an input line drawn with no box or rules around it; group 1 = the typed text " +
      "(last match among the bottom non-blank lines)",
  },
  {
    name: "choice_row_markers",
    kind: "markers",
    seed: false,
    summary:
      "the choices of an un-numbered choice row on a live prompt, in screen order (OpenCode: " +
      "Allow once, Allow always, Reject); the selected one is read from the styled capture",
  },
  {
    name: "command_line_pattern",
    kind: "pattern",
    seed: false,
    summary:
      "regex for the line of a live permission prompt that shows the command; group 1 = the " +
      "command (used when command_header_markers find none)",
  },
  // Added for GitHub Copilot CLI (issue 22): see docs/profiles.md "Extension fields".
  {
    name: "command_box_markers",
    kind: "markers",
    seed: false,
    summary:
      "the question under which a live permission prompt draws its command in a box of its own " +
      "(╭─╮ … ╰─╯ inside the modal); the command is that box's text (used when " +
      "command_header_markers find none)",
  },
  // Added for Claude Code 2.1.332 (issue 10): see docs/profiles.md "Extension fields".
  {
    name: "mode_plan_markers",
    kind: "markers",
    seed: false,
    summary: "substrings identifying the plan mode (title + capture)",
  },
  {
    name: "mode_auto_markers",
    kind: "markers",
    seed: false,
    summary:
      "substrings identifying the auto mode (a classifier approves actions; title + capture)",
  },
  {
    name: "mode_bypass_markers",
    kind: "markers",
    seed: false,
    summary: "substrings identifying the bypass-permissions mode (title + capture)",
  },
  {
    name: "affirmative_option_markers",
    kind: "markers",
    seed: false,
    summary:
      "how a one-time yes begins (option 1 / the first choice must begin with one; the approve " +
      "gate accepts only wordings some shipped profile lists, a config can only narrow them)",
  },
  {
    name: "rejection_option_markers",
    kind: "markers",
    seed: false,
    summary:
      "how a rejecting choice begins (No, Reject); the approve gate never answers one (shipped " +
      "wordings always count, a config can only add)",
  },
  {
    name: "mode_switch_option_markers",
    kind: "markers",
    seed: false,
    summary:
      "wordings of a choice that changes the permission mode; the approve gate never answers " +
      "one (shipped wordings always count, a config can only add)",
  },
  // Added for issue 10 (CLI versions): see docs/profiles.md "Extension fields".
  {
    name: "cli_version_pattern",
    kind: "pattern",
    seed: false,
    summary:
      "regex for the CLI's version on its own screen (welcome banner, footer); group 1 = the " +
      "version (last match wins); reported as cli_version, never used to judge a screen",
  },
  // Added for usage limits (issue 12): see docs/profiles.md "Extension fields".
  {
    name: "limit_reset_pattern",
    kind: "pattern",
    seed: false,
    summary:
      "regex for a usage-limit line that says when the limit resets; named groups: time (3pm, " +
      "6:37pm, 3:05 PM), date (Dec 2, Jul 5th, 2026), zone (America/New_York, UTC, PST, " +
      "GMT+5:30), in (2 days 4 hours); time or in is required",
    namedGroups: { allowed: ["time", "date", "zone", "in"], anyOf: ["time", "in"] },
  },
  // Added for where a limit counts (issue 27): see docs/profiles.md "Extension fields".
  {
    name: "answer_markers",
    kind: "markers",
    seed: false,
    summary:
      "the glyphs that open the model's own output in the transcript (its answer text, a tool " +
      "call and the tool's output under it); a limit or unavailable line inside one is quoted",
  },
  // Added for issue 21 (part B, where the CLI cannot serve): see docs/profiles.md "Extension fields".
  {
    name: "unavailable_banner_pattern",
    kind: "pattern",
    seed: false,
    summary:
      "regex for the first line of a block the CLI draws with the answer glyph to say it cannot " +
      "serve (an auth failure's error and body); counts only as the last block above the input box",
  },
  {
    name: "status_limit_pattern",
    kind: "pattern",
    seed: false,
    summary:
      "regex for a usage limit the CLI draws under its input box, the one shape of that status " +
      "area that is the CLI's own (every other line there is a status-line command's decoration); " +
      "named groups as limit_reset_pattern",
    namedGroups: { allowed: ["time", "date", "zone", "in"], anyOf: ["time", "in"] },
  },
  {
    name: "limit_menu_markers",
    kind: "markers",
    seed: false,
    summary:
      "option wordings that make a menu the CLI's usage-limit menu (wait for the reset, upgrade); " +
      "the pane is unavailable and the menu is never answered",
  },
  // Added for busy by shape and background work (issue 21): see docs/profiles.md "Extension fields".
  {
    name: "activity_line_pattern",
    kind: "pattern",
    seed: false,
    summary:
      "regex for the CLI's activity line (spinner, verb, ellipsis), read only between the last " +
      "answer block and a ruled input box; one there means busy",
  },
  {
    name: "background_pattern",
    kind: "pattern",
    seed: false,
    summary:
      "regex for background work still pending after the turn (shells, agents, tasks), read " +
      "where the activity line is and in the footer; group 1 = what is pending",
  },
] as const satisfies readonly FieldSpec[];

export type FieldName = typeof FIELDS[number]["name"];

type KindOf<N extends FieldName> = Extract<typeof FIELDS[number], { name: N }>["kind"];
type SeedOf<N extends FieldName> = Extract<typeof FIELDS[number], { name: N }>["seed"];
type ValueOfKind<K, S> = K extends "markers" ? readonly string[] : K extends "marker" ? string
: K extends "pattern" ? (S extends true ? string : string | null)
: never;

/**
 * Resolved values of a profile. An unset extension field is `[]` (markers) or `null` (pattern).
 */
export type ProfileValues = { [N in FieldName]: ValueOfKind<KindOf<N>, SeedOf<N>> };
export type PartialProfileValues = Partial<ProfileValues>;

export const FIELD_NAMES: readonly FieldName[] = FIELDS.map((f) => f.name);

const BY_NAME = new Map<string, FieldSpec>(FIELDS.map((f) => [f.name, f]));

export function fieldSpec(name: string): FieldSpec | undefined {
  return BY_NAME.get(name);
}

export function isFieldName(name: string): name is FieldName {
  return BY_NAME.has(name);
}
