/** The tmux layer: the only code that runs tmux (see run.ts for the one primitive). */
export { describeServer, type TmuxServer } from "./run.ts";
export { selectServer } from "./server.ts";
export {
  firstPaneOf,
  listPanes,
  type PaneInfo,
  type ParsedTarget,
  parseTarget,
  resolveTarget,
} from "./panes.ts";
export { type CaptureOptions, capturePane, capturePanes, type PaneCapture } from "./capture.ts";
export { sendKeys, typeText } from "./send.ts";
export { CLI_OPTION, getPaneOption, setPaneOption, socketPath } from "./options.ts";
