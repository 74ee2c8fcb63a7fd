/**
 * The §6 approval gate against the real Qwen Code: `drover approve` answers a real shell
 * confirmation with the digit 1 and the command runs. The pane is identified as qwen from its
 * process. (No non-permission dialog of Qwen Code 0.15.10 was reachable against the stand-in.)
 */
import type { LabSuite } from "../harness/mod.ts";
import { qwenShell } from "../../../lib/scenarios/standins/chat_completions.ts";
import { approveScenarios, QWEN } from "./others_common.ts";

export const suite: LabSuite = {
  name: "qwen-approve",
  sizes: [{ cols: 120, rows: 40 }],
  scenarios: approveScenarios({
    cli: QWEN,
    shellStep: (cmd) => qwenShell(cmd, "Create the marker file"),
    promptShows: ["Allow execution of: 'touch'?", "1. Yes, allow once"],
    key: "1",
  }),
};
