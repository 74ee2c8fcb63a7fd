/**
 * Real Cline screens (issue 22): the pinned `cline` TUI (`cline -i --auto-approve false`) with an
 * OpenAI-compatible provider on the scripted Chat Completions stand-in, driven into each state its
 * profile describes. Recorded under tests/fixtures/cline/<version>/ with
 * `deno task lab --record --suite cline`; compared (and judged by detect() with the `cline`
 * profile) otherwise.
 *
 * The standard scenarios come from the table `drover verify` runs (lib/scenarios/tables/cline.ts).
 * What only the lab records stays here: plan mode (Tab) and the auto-approve switch (Shift+Tab),
 * a command too long for the pane (the modal cuts it at the edge, which is why drover reads no
 * command from it), and a start-up notice over the first screen.
 */
import { type LabScenario, type LabSuite, resolveCli } from "../harness/mod.ts";
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";
import { tableScenarios } from "../harness/tables.ts";
import { CLINE, fileExists, press, sleep, startOther, submit } from "./others_common.ts";
import { quotedLimitScenarios } from "./quoted_limits.ts";

const run = (...commands: string[]): Step => ({
  kind: "tool",
  name: "run_commands",
  args: { commands },
});

/** Longer than a 120-column pane: the modal shows it on one row, cut at the edge. */
const LONG =
  "mkdir -p build/output/artifacts && touch build/output/artifacts/first-marker-file.txt " +
  "build/output/artifacts/second-marker-file.txt && rm -rf build/output/cache";

const labOnly: LabScenario[] = [
  {
    // A tall pane: Cline draws its transcript from the top and its input box at the bottom, with
    // empty rows between them (the busy line far above the box).
    name: "busy-tall",
    sizes: [{ cols: 120, rows: 60 }],
    async run(ctx) {
      await using s = await startOther(ctx, CLINE, { script: [{ kind: "hang" }] });
      await ctx.screen(s.pane, "ready-tall", {
        state: "idle",
        defining: ["What can I do for you?", "Auto-approve all disabled (Shift+Tab)"],
        expect: { input_box: null, mode: "interactive" },
      });
      await submit(ctx, s, "summarise the notes");
      await ctx.screen(s.pane, "busy-tall", {
        state: "busy",
        defining: ["Thinking... (esc to cancel)"],
        stableMs: 0,
        expect: { mid_response: true, live_prompt: false },
        notes: "120x60: the busy line sits far above the input box, the rows between them empty",
      });
    },
  },
  {
    name: "notice",
    async run(ctx) {
      await using s = await startOther(ctx, CLINE, {
        firstRun: { notices: true },
        waitFor: "Press Enter to open, any other key to close",
      });
      await ctx.screen(s.pane, "notice", {
        state: "dialog",
        defining: ["Press Enter to open, any other key to close"],
        expect: { permission_prompt: false, live_prompt: false },
        notes: "HOME without cli-notices.json: a start-up notice over the first screen",
      });
    },
  },
  {
    name: "modes",
    async run(ctx) {
      await using s = await startOther(ctx, CLINE);
      await press(ctx, s, "Tab");
      await ctx.screen(s.pane, "mode-plan", {
        state: "idle",
        defining: ["● Plan ○ Act (Tab)", "Plan something..."],
        expect: { mode: "plan", input_box: null },
      });
      await press(ctx, s, "Tab");
      await press(ctx, s, "BTab");
      await ctx.screen(s.pane, "mode-auto-approve", {
        state: "idle",
        defining: ["Auto-approve all enabled (Shift+Tab)"],
        expect: { mode: "bypass", input_box: null },
        notes: "Tab back to act mode, then Shift+Tab: every tool runs unasked",
      });
    },
  },
  {
    name: "shell-long",
    async run(ctx) {
      await using s = await startOther(ctx, CLINE, { script: [run(LONG)] });
      await submit(ctx, s, "make the build folders");
      await ctx.screen(s.pane, "shell-prompt-long", {
        timeoutMs: 60_000,
        state: "prompt",
        defining: ["Approve tool call?", "$ mkdir -p build/output/artifacts"],
        until: (p) => p.includes("Approve tool call?") && p.includes("[y] Approve"),
        // The busy spinner over the modal keeps turning: the modal's last row is the proof.
        stableMs: 0,
        expect: { command: null, permission_prompt: true },
        notes: "the command is cut at the pane's edge (its rm -rf never shows): no command is read",
      });
      // Right moves the highlight to "[n] Deny": then Enter would deny, and approve must not press it.
      await press(ctx, s, "Right");
      ctx.step("wait 1 s for the highlight to move (the spinner keeps the screen from settling)");
      await sleep(1000);
      await ctx.screen(s.pane, "shell-prompt-deny-highlighted", {
        timeoutMs: 30_000,
        state: "prompt",
        defining: ["Approve tool call?", "[n] Deny"],
        until: (p) => p.includes("Approve tool call?") && p.includes("[y] Approve"),
        stableMs: 0,
        expect: {
          choice_row: [{ text: "[y] Approve", selected: false }, {
            text: "[n] Deny",
            selected: false,
          }],
        },
        notes:
          "Right: the highlight on [n] Deny; no choice reads as selected, so approve sends nothing",
      });
      await press(ctx, s, "n");
      await ctx.screen(s.pane, "shell-rejected", {
        timeoutMs: 60_000,
        state: "idle",
        defining: ["rejected by the user"],
        until: (p) => !p.includes("Approve tool call?") && p.includes("Ask anything..."),
        expect: { live_prompt: false },
      });
      if (await fileExists(`${s.project}/build`)) ctx.fail("the rejected command ran");
    },
  },
];

export const suite: LabSuite = {
  name: "cline",
  profile: "cline",
  fixtures: {
    cli: "cline",
    version: async () => (await resolveCli("cline")).version,
    setup: CLINE.setup,
  },
  scenarios: [
    ...tableScenarios("cline", { timeoutMs: 480_000 }),
    ...labOnly,
    // Issue 27: the profile falls back to Claude Code's limit pattern; its banner quoted is no limit.
    ...quotedLimitScenarios(CLINE, "You've hit your 5-hour limit · resets 3pm (UTC)"),
  ],
};
