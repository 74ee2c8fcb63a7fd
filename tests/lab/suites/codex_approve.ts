/**
 * The §6 approval gate against the real Codex CLI: `drover approve` answers a real
 * exec_command approval prompt with the digit 1 and the command runs; it refuses the real
 * folder-trust dialog. The pane is identified as codex from its process.
 */
import type { LabSuite } from "../harness/mod.ts";
import { execCommand } from "../harness/shell_steps.ts";
import { approveScenarios, CODEX } from "./others_common.ts";

export const suite: LabSuite = {
  name: "codex-approve",
  sizes: [{ cols: 120, rows: 40 }],
  scenarios: approveScenarios({
    cli: CODEX,
    shellStep: (cmd) => execCommand(cmd, "Create the marker file"),
    promptShows: ["Would you like to run the following command?", "1. Yes, proceed"],
    key: "1",
    dialog: {
      name: "trust-dialog",
      opts: { firstRun: { trust: true } },
      shows: ["Trust this folder?", "1. Trust and continue"],
    },
  }),
};
