/**
 * The §6 approval gate against the real Qwen Code, every pinned version: `drover approve` answers a
 * real shell confirmation with the digit 1 and the command runs. The pane is identified as qwen
 * from its process. 0.24.4 runs in its default auto mode, where the stand-in's classifier cannot
 * decide: its prompt ("Auto Mode couldn't classify this action …") offers "1. Yes, allow once"
 * first and "2. Switch to Default Mode and allow once" second; only option 1 is answered. (No
 * non-permission dialog of Qwen Code was reachable against the stand-in.)
 */
import { type LabSuite, pinnedCliVersions } from "../harness/mod.ts";
import { qwenShell } from "../harness/shell_steps.ts";
import { approveScenarios, QWEN } from "./others_common.ts";

export const suite: LabSuite = {
  name: "qwen-approve",
  sizes: [{ cols: 120, rows: 40 }],
  versions: () => pinnedCliVersions("qwen"),
  scenarios: approveScenarios({
    cli: QWEN,
    shellStep: (cmd) => qwenShell(cmd, "Create the marker file"),
    promptShows: ["Allow execution of: 'touch'?", "1. Yes, allow once"],
    key: "1",
  }),
};
