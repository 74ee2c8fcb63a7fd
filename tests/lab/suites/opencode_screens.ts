/**
 * Real OpenCode screens (issue 7 item 2): the pinned `opencode-ai` TUI against the scripted Chat
 * Completions stand-in (an `@ai-sdk/openai-compatible` provider), driven into each state its profile
 * describes. Recorded under tests/fixtures/opencode/<version>/ with
 * `deno task lab --record --only opencode`; compared (and judged by detect() with the `opencode`
 * profile) otherwise.
 *
 * Every scenario comes from the table `drover verify` runs (lib/scenarios/tables/opencode.ts):
 * ready, typed input, busy/interrupted, the shell prompt approved through the gate (Enter on the
 * "Allow once" choice row) and rejected with Escape, a file prompt, narration, a quota error being
 * retried across the footer and given up, an auth failure. Start-up and each turn took up to two
 * minutes on the loaded lab machine: hence the long deadline.
 */
import { type LabScenario, type LabSuite, resolveCli } from "../harness/mod.ts";
import { tableScenarios } from "../harness/tables.ts";
import { OPENCODE } from "./others_common.ts";
import { quotedLimitScenarios } from "./quoted_limits.ts";

const scenarios: LabScenario[] = [
  ...tableScenarios("opencode", { timeoutMs: 480_000 }),
  // Issue 27: the profile falls back to Claude Code's limit pattern; its banner quoted is no limit.
  ...quotedLimitScenarios(OPENCODE, "You've hit your 5-hour limit · resets 3pm (UTC)"),
];

export const suite: LabSuite = {
  name: "opencode",
  profile: "opencode",
  fixtures: {
    cli: "opencode",
    version: async () => (await resolveCli("opencode")).version,
    setup: OPENCODE.setup,
  },
  scenarios,
};
