/**
 * The §6 approval gate against the real OpenCode: its permission prompt has no numbered options,
 * only the row "Allow once  Allow always  Reject" confirmed with Enter. `drover approve` sends Enter
 * only because the styled capture shows the first choice ("Allow once") selected, and the command
 * runs. The pane is identified as opencode from its process.
 */
import type { LabSuite } from "../harness/mod.ts";
import { opencodeBash } from "../harness/shell_steps.ts";
import { approveScenarios, OPENCODE } from "./others_common.ts";

export const suite: LabSuite = {
  name: "opencode-approve",
  sizes: [{ cols: 120, rows: 40 }],
  scenarios: approveScenarios({
    cli: OPENCODE,
    shellStep: (cmd) => opencodeBash(cmd, "Create the marker file"),
    promptShows: ["Permission required", "Allow once", "⇆ select"],
    key: "Enter",
  }),
};
