/**
 * `detect()`: every detector of DESIGN §5 run on one capture with the resolved profile of the
 * pane's own CLI, and the pane state derived from them in the §5 precedence.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { withStepBudget } from "../regex/match.ts";
import {
  approvalOf,
  commandBlockOf,
  manualPatternOf,
  permissionPromptOf,
  subjectOf,
} from "./command.ts";
import { backgroundOf, busyOf, turnRegionOf } from "./activity.ts";
import { inputBoxOf, inputTextOf } from "./input.ts";
import { livePrompt, regionOf } from "./liveness.ts";
import { type Mode, modeOf } from "./mode.ts";
import {
  broadGrantOf,
  choiceColumnOf,
  type ChoiceRowEntry,
  choiceRowOf,
  type OptionLine,
  optionsOf,
} from "./options.ts";
import {
  dialogMarkerLine,
  dialogNameOf,
  menuAtEndOf,
  type Readiness,
  readinessOf,
} from "./readiness.ts";
import { screenOf } from "./screen.ts";
import { limitOf, type ZoneSource } from "./limit.ts";
import { cliUnavailableOf, stuckOf } from "./stuck.ts";
import { limitMenuOf } from "./unavailable.ts";
import { styledFormOf } from "./text.ts";
import { cliVersionOf } from "./version.ts";

/** Raw capture-pane output: plain (`-p -J`) and optionally styled (`-p -e -J`). */
export interface Capture {
  plain: string;
  styled?: string;
}

export interface DetectOptions {
  /** The pane title (mode markers also read it). */
  title?: string;
  /**
   * The clock (epoch ms) a printed reset time is read against ("resets 8pm" is the next 8pm after
   * it). Passed in, never read here; without it `limit_resets_at` stays null.
   */
  now?: number;
  /** The local zone, for a reset time printed without one (default UTC); a function is called only then. */
  timeZone?: ZoneSource;
}

export type PaneState = "unavailable" | "prompt" | "dialog" | "busy" | "shell" | "idle" | "unknown";

/** Every verdict of §5 under the §7 `detect --json` names (plus documented extensions). */
export interface Verdicts {
  cli: string;
  state: PaneState;
  readiness: Readiness;
  approval: boolean;
  live_prompt: boolean;
  permission_prompt: boolean;
  mid_response: boolean;
  /**
   * Extension (`background_pattern`): background work still pending after the turn ("2 shells",
   * "1 background agent"), read above and below a ruled input box; null when none. The pane is
   * busy while it is set: drive never nudges it.
   */
  background: string | null;
  command: string | null;
  file_path: string | null;
  /**
   * Extension: how many non-blank lines form the screen block holding the command (the command
   * and its description), when the command stands on a line of its own; null otherwise (a
   * wrapped or multi-line command, or none). drive approves only a block of at most 2.
   */
  command_block: number | null;
  options: OptionLine[];
  broad_grant_option: number | null;
  input_box: string | null;
  mode: Mode;
  stream_error: string | null;
  context_bloat_k: number | null;
  context_used_pct: number | null;
  paste_buffer: string | null;
  cli_unavailable: string | null;
  manual_pattern: string | null;
  /** A usage-limit banner (`limit_reset_pattern`), or null. */
  limit: string | null;
  /** When that limit resets (ISO 8601), or null: no time printed, unreadable, or no clock given. */
  limit_resets_at: string | null;
  /**
   * Extension (issue 21): the option of a live menu that says it is a usage-limit menu
   * (`limit_menu_markers`: "Stop and wait for limit to reset"), as shown; the pane is unavailable
   * and the menu is never answered. Null when no such menu is live.
   */
  limit_menu: string | null;
  /** Extension: an input line is visible (empty or not). */
  input_line: boolean;
  /** Extension: the first `dialog_markers` entry seen on a live dialog screen, else null. */
  dialog: string | null;
  /**
   * Extension: the un-numbered choices of a live prompt, in screen order, with the selected one —
   * a row (`choice_row_markers`: OpenCode's "Allow once  Allow always  Reject", selected = drawn
   * bright in the styled capture) or, when the prompt has no numbered options, a column whose
   * selected entry carries the selection glyph (Claude Code 2.1.332's "❯ No" / "Yes"); null when
   * there are none.
   */
  choice_row: ChoiceRowEntry[] | null;
  /**
   * Extension (`cli_version_pattern`): the CLI's version as its screen prints it (the newest
   * banner on the capture), else null. Reported only; no verdict depends on it.
   */
  cli_version: string | null;
}

/**
 * Pattern steps one detect() may spend over all its lines (lib/regex): a real screen needs a few
 * thousand; a hostile profile on a hostile screen stops here (its remaining lines count as not
 * matching) instead of taking seconds.
 */
export const DETECT_STEP_BUDGET = 8_000_000;

/** Run every detector on one capture with the pane's own resolved profile. Never throws. */
export function detect(
  capture: Capture,
  profile: ResolvedProfile,
  opts: DetectOptions = {},
): Verdicts {
  return withStepBudget(DETECT_STEP_BUDGET, () => detectAll(capture, profile, opts));
}

/** What the §5 state is derived from: one verdict per branch of its precedence. */
interface StateInputs {
  unavailable: boolean;
  permission_prompt: boolean;
  /** A live prompt, a dialog marker or a menu at the end of the screen. */
  dialog: boolean;
  mid_response: boolean;
  /** Background work still pending (busy too). */
  background: string | null;
  readiness: Readiness;
  input_line: boolean;
}

/** The §5 precedence; past the permission-prompt branch, a live prompt is a dialog. */
function stateOf(x: StateInputs): PaneState {
  if (x.unavailable) return "unavailable";
  if (x.permission_prompt) return "prompt";
  if (x.dialog) return "dialog";
  if (x.mid_response || x.background !== null) return "busy";
  if (x.readiness === "bare_shell") return "shell";
  if (x.readiness === "ready" || x.input_line) return "idle";
  return "unknown";
}

/** A pane's state, mode and printed version: what a `panes` row shows. */
export interface PaneSummary {
  state: PaneState;
  mode: Mode;
  cli_version: string | null;
  /** What background work is pending (detect's `background`), else null. */
  background: string | null;
}

/**
 * `detect()`'s state, mode, cli_version and background without the verdicts a row does not show: the command
 * and file path are read only under a live prompt (where they can make it a permission prompt),
 * the option lines, input text and the other stuck shapes not at all. tests/unit/panes_plain_test.ts
 * holds it equal to detect() on every screen under tests/fixtures.
 */
export function summarize(
  capture: Capture,
  profile: ResolvedProfile,
  opts: DetectOptions = {},
): PaneSummary {
  return withStepBudget(DETECT_STEP_BUDGET, () => {
    const p = profile;
    const s = screenOf(capture.plain ?? "");
    const box = inputBoxOf(s, p);
    const live = livePrompt(s, p, box);
    let permission_prompt = false;
    let limitMenu: string | null = null;
    if (live.live) {
      const region = regionOf(s, live);
      limitMenu = limitMenuOf(p, optionsOf(s, live, region, p));
      const styled = styledFormOf(capture.styled);
      const subject = subjectOf(s, p, live, region, styled);
      permission_prompt = permissionPromptOf(s, p, live, region, subject.file_path);
    }
    const dialogIdx = dialogMarkerLine(s, p, box);
    const turn = turnRegionOf(s, p, box);
    const background = backgroundOf(s, p, turn);
    const state = stateOf({
      unavailable: limitMenu !== null || cliUnavailableOf(s, p, box, live) !== null ||
        limitOf(s, p, box, live, {}).limit !== null,
      permission_prompt,
      dialog: live.live || dialogIdx !== undefined || menuAtEndOf(s, box),
      mid_response: busyOf(s, p, box, turn),
      background,
      readiness: readinessOf(s, p, dialogIdx, box),
      input_line: box !== null,
    });
    return {
      state,
      mode: modeOf(s, p, opts.title),
      cli_version: cliVersionOf(s, p),
      background,
    };
  });
}

function detectAll(capture: Capture, profile: ResolvedProfile, opts: DetectOptions): Verdicts {
  const p = profile;
  const s = screenOf(capture.plain ?? "");
  const styled = styledFormOf(capture.styled);
  const box = inputBoxOf(s, p);
  const live = livePrompt(s, p, box);
  const region = regionOf(s, live);
  const options = optionsOf(s, live, region, p);
  const subject = subjectOf(s, p, live, region, styled);
  const permission_prompt = permissionPromptOf(s, p, live, region, subject.file_path);
  const turn = turnRegionOf(s, p, box);
  const mid_response = busyOf(s, p, box, turn);
  const background = backgroundOf(s, p, turn);
  const dialogIdx = dialogMarkerLine(s, p, box);
  const readiness = readinessOf(s, p, dialogIdx, box);
  const stuck = stuckOf(s, p, box, live);
  const menu = !live.live && menuAtEndOf(s, box);
  const limit = limitOf(s, p, box, live, opts);
  const limitMenu = limitMenuOf(p, options);
  const state = stateOf({
    unavailable: limitMenu !== null || stuck.cli_unavailable !== null || limit.limit !== null,
    permission_prompt,
    dialog: live.live || dialogIdx !== undefined || menu,
    mid_response,
    background,
    readiness,
    input_line: box !== null,
  });

  return {
    cli: p.cli,
    state,
    readiness,
    approval: approvalOf(s, p),
    live_prompt: live.live,
    permission_prompt,
    mid_response,
    background,
    command: subject.command,
    file_path: subject.file_path,
    command_block: subject.boxRows ?? commandBlockOf(s, subject.command),
    options,
    broad_grant_option: broadGrantOf(options, p),
    input_box: inputTextOf(s, p, box, styled),
    mode: modeOf(s, p, opts.title),
    stream_error: stuck.stream_error,
    context_bloat_k: stuck.context_bloat_k,
    context_used_pct: stuck.context_used_pct,
    paste_buffer: stuck.paste_buffer,
    cli_unavailable: stuck.cli_unavailable,
    manual_pattern: manualPatternOf(subject, p),
    limit: limit.limit,
    limit_resets_at: limit.limit_resets_at,
    limit_menu: limitMenu,
    input_line: box !== null,
    // A glyph-selected column is read from the screen's shape alone; it wins over a row the
    // profile describes, so a profile cannot relabel the choices a real column shows.
    choice_row: (options.length === 0 ? choiceColumnOf(s, live, p) : null) ??
      choiceRowOf(s, p, region, styled),
    dialog: dialogNameOf(s, p, dialogIdx),
    cli_version: cliVersionOf(s, p),
  };
}
