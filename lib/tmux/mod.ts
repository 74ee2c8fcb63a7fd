/** The tmux layer: the only code that runs tmux (see run.ts for the one primitive). */
export { describeServer, type TmuxServer, tmux } from "./run.ts";
export { selectServer } from "./server.ts";
export {
  firstPaneOf,
  listPanes,
  type PaneInfo,
  parseTarget,
  type ParsedTarget,
  resolveTarget,
} from "./panes.ts";
export { type CaptureOptions, type PaneCapture, capturePane, capturePanes } from "./capture.ts";
export { sendKeys, sendLiteral } from "./send.ts";
export { CLI_OPTION, getPaneOption, setPaneOption, socketPath } from "./options.ts";
