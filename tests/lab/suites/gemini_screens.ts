/**
 * Real Gemini CLI screens (issue 7 item 2): the pinned `@google/gemini-cli` against the scripted
 * Gemini API stand-in, driven into each state its profile describes. Recorded under
 * tests/fixtures/gemini/<version>/ with `deno task lab --record --only gemini`; compared (and judged
 * by detect() with the `gemini` profile) otherwise.
 *
 * The standard scenarios (ready, typed input, busy/interrupted, the shell and file prompts approved
 * through the gate or rejected with Escape, narration, retrying, auth, quota) come from the table
 * `drover verify` runs (lib/scenarios/tables/gemini.ts); this suite adds what only the lab records:
 * the modes, the folder-trust dialog and the usage limit with its reset time (issue 12).
 */
import { type LabScenario, type LabSuite, resolveCli } from "../harness/mod.ts";
import { tableScenarios } from "../harness/tables.ts";
import { GEMINI, press, sleep, startOther, submit } from "./others_common.ts";
import { quotedLimitScenarios } from "./quoted_limits.ts";

const READY = "Type your message";

const scenarios: LabScenario[] = [
  ...tableScenarios("gemini"),
  // Issue 27: its own limit words (the dialog's, the transcript's) quoted in an answer are no limit.
  ...quotedLimitScenarios(
    GEMINI,
    "Usage limit reached for gemini-3.8-flash. Access resets at 6:08 AM UTC.",
    "Suggested retry after 5400s.",
  ),
  {
    name: "modes",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI);
      await sleep(1000);
      await press(ctx, s, "BTab");
      await ctx.screen(s.pane, "mode-auto-edit", {
        state: "idle",
        defining: ["auto-accept edits"],
        expect: { mode: "accept_edits" },
      });
      await press(ctx, s, "BTab");
      await ctx.screen(s.pane, "mode-plan", {
        state: "idle",
        defining: ["plan Shift+Tab to manual"],
        expect: { mode: "plan" },
      });
      await press(ctx, s, "BTab");
      await s.pane.waitFor("Shift+Tab to accept edits", { timeoutMs: 10_000 });
      await press(ctx, s, "C-y");
      await ctx.screen(s.pane, "mode-yolo", {
        state: "idle",
        defining: ["YOLO Ctrl+Y"],
        expect: { mode: "bypass" },
      });
    },
  },
  {
    // The usage limit with its reset (issue 12): a 429 whose RetryInfo delay is longer than the
    // CLI retries for (over 300 s) is a terminal quota error with a known delay, shown as "Usage
    // limit reached for <model>." and, below it, "Access resets at <h:mm AM> <zone>." (the lab's
    // zone is UTC).
    name: "usage-limit",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI, {
        script: [{
          kind: "error",
          status: 429,
          error: "rate_limit",
          times: 1000,
          body: {
            error: {
              code: 429,
              message: "Resource has been exhausted (e.g. check quota).",
              status: "RESOURCE_EXHAUSTED",
              details: [{
                "@type": "type.googleapis.com/google.rpc.RetryInfo",
                retryDelay: "5400s",
              }],
            },
          },
        }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step(
        "the stand-in answers every request with HTTP 429 RESOURCE_EXHAUSTED and RetryInfo " +
          'retryDelay "5400s" (no QuotaFailure)',
      );
      await ctx.screen(s.pane, "usage-limit-dialog", {
        state: "unavailable",
        defining: ["Usage limit reached", "Access resets at"],
        timeoutMs: 60_000,
        expect: { permission_prompt: false },
      });
      // "Stop": the transcript keeps the API's own words, the delay as a duration.
      await press(ctx, s, "2");
      await ctx.screen(s.pane, "usage-limit-stopped", {
        state: "unavailable",
        defining: ["Suggested retry after 5400s", READY],
      });
    },
  },
  {
    name: "trust-dialog",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI, { firstRun: { trust: true } });
      await ctx.screen(s.pane, "trust-dialog", {
        state: "dialog",
        defining: ["Do you trust the files in this folder?"],
        timeoutMs: 60_000,
        expect: { permission_prompt: false },
      });
    },
  },
];

export const suite: LabSuite = {
  name: "gemini",
  profile: "gemini",
  fixtures: {
    cli: "gemini",
    version: async () => (await resolveCli("gemini")).version,
    setup: GEMINI.setup,
  },
  scenarios,
};
