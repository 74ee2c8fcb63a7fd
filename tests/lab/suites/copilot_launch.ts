/**
 * The launch boundary against the real GitHub Copilot CLI (launch_chat.ts): the kickoff prompt is
 * handed to Copilot's `-i/--interactive <prompt>` (start interactive and run this prompt).
 */
import { seedCopilot } from "../../../lib/scenarios/homes.ts";
import { chatLaunchSuite } from "./launch_chat.ts";

export const suite = chatLaunchSuite({
  name: "copilot",
  cli: "copilot",
  argv: [],
  seed: seedCopilot,
});
