/**
 * The detectors of DESIGN §5: pure functions of one capture and the resolved profile of the pane's
 * own CLI. No screen wording lives here — only in profiles/*.toml. The windows and the decoration
 * glyph set are compiled constants a profile cannot change.
 *
 * One file per concern: liveness.ts (the live-prompt gate), options.ts (option lines, choice
 * rows), command.ts (command, file path, permission prompt), input.ts (the input line), mode.ts,
 * stuck.ts (stream error, context, paste buffer, unavailable), unavailable.ts (the CLI's own
 * error banner, a status-area limit, the limit menu), limit.ts (a usage limit and when it
 * resets), readiness.ts (ready, busy, dialog, shell) and state.ts (`detect()`, composing them);
 * screen.ts, text.ts and line_kinds.ts (what one line is: a choice, a shell prompt, a busy line)
 * are shared by all.
 * This module is the public entry.
 */
export {
  type Capture,
  detect,
  type DetectOptions,
  type PaneState,
  type PaneSummary,
  summarize,
  type Verdicts,
} from "./state.ts";
export {
  bottomModalLines,
  type Live,
  LIVE_BLOCK,
  LIVE_TAIL,
  livePromptOf,
  SHIFTED_MAX_BELOW,
  SHIFTED_OPTION_ABOVE,
} from "./liveness.ts";
export { type ChoiceRowEntry, type OptionLine } from "./options.ts";
export { INPUT_LINE_WINDOW } from "./input.ts";
export { SHELL_SIGILS } from "./line_kinds.ts";
export type { Mode } from "./mode.ts";
export type { Readiness } from "./readiness.ts";
export { BOTTOM_REGION } from "./screen.ts";
export { stripDecoration } from "./text.ts";
