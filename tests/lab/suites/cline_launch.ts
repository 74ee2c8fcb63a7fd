/**
 * The launch boundary against the real Cline TUI (launch_chat.ts): the kickoff prompt is handed
 * to Cline as `cline -i <prompt>` (its TUI, the prompt its first turn); the lab's config starts it
 * asking for every tool.
 */
import { seedCline } from "../../../lib/scenarios/homes.ts";
import { chatLaunchSuite } from "./launch_chat.ts";

export const suite = chatLaunchSuite({
  name: "cline",
  cli: "cline",
  argv: ["-i", "--auto-approve", "false"],
  seed: (s) => seedCline(s),
});
