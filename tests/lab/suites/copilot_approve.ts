/**
 * The §6 approval gate against the real GitHub Copilot CLI: `drover approve` answers a real shell
 * confirmation ("Do you want to run this command?", "❯ 1. Yes") with the digit 1 and the command
 * runs; the folder-trust question ("Confirm folder trust", whose "1. Yes" would trust the folder
 * for the session) is refused with nothing sent. The pane is identified as copilot from its process.
 */
import type { LabSuite } from "../harness/mod.ts";
import { approveScenarios, COPILOT } from "./others_common.ts";

export const suite: LabSuite = {
  name: "copilot-approve",
  sizes: [{ cols: 120, rows: 40 }],
  scenarios: approveScenarios({
    cli: COPILOT,
    shellStep: (cmd) => ({
      kind: "tool",
      name: "bash",
      args: { command: cmd, description: "Create the marker file" },
    }),
    promptShows: ["Do you want to run this command?", "1. Yes"],
    key: "1",
    dialog: {
      name: "folder-trust",
      opts: { firstRun: { trust: true } },
      shows: ["Confirm folder trust", "1. Yes"],
    },
  }),
};
