/**
 * The §6 approval gate against the real Gemini CLI: `drover approve` answers a real shell
 * confirmation with the digit 1 and the command runs; it refuses the real usage-limit dialog
 * ("Keep trying / Stop"). The pane is identified as gemini from its process.
 */
import type { LabSuite } from "../harness/mod.ts";
import { geminiShell } from "../harness/shell_steps.ts";
import { approveScenarios, GEMINI } from "./others_common.ts";

export const suite: LabSuite = {
  name: "gemini-approve",
  sizes: [{ cols: 120, rows: 40 }],
  scenarios: approveScenarios({
    cli: GEMINI,
    shellStep: (cmd) => geminiShell(cmd, "Create the marker file"),
    promptShows: ["Allow execution of [Shell]?", "1. Allow once"],
    key: "1",
    dialog: {
      name: "usage-limit-dialog",
      opts: { script: [{ kind: "error", status: 429, error: "quota", times: 1000 }] },
      submit: "summarise the notes",
      shows: ["Usage limit reached", "1. Keep trying"],
    },
  }),
};
