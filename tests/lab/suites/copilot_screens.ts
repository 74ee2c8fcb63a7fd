/**
 * Real GitHub Copilot CLI screens (issue 22): the pinned `@github/copilot` in its bring-your-own-
 * key mode against the scripted Chat Completions stand-in, driven into each state its profile
 * describes. Recorded under tests/fixtures/copilot/<version>/ with
 * `deno task lab --record --suite copilot`; compared (and judged by detect() with the `copilot`
 * profile) otherwise.
 *
 * The standard scenarios come from the table `drover verify` runs (lib/scenarios/tables/copilot.ts).
 * What only the lab records stays here: the folder-trust question, the agent modes (Shift+Tab:
 * Interactive → Plan → Autopilot) and the allow-all permission mode, a shell prompt rejected with
 * Escape, and a command long enough to wrap inside the prompt's command box.
 */
import { type LabScenario, type LabSuite, resolveCli } from "../harness/mod.ts";
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";
import { tableScenarios } from "../harness/tables.ts";
import { COPILOT, fileExists, press, startOther, submit } from "./others_common.ts";
import { quotedLimitScenarios } from "./quoted_limits.ts";

const bash = (command: string, description: string): Step => ({
  kind: "tool",
  name: "bash",
  args: { command, description },
});

const LONG =
  "mkdir -p build/output/artifacts && touch build/output/artifacts/first-marker-file.txt " +
  "build/output/artifacts/second-marker-file.txt";

const labOnly: LabScenario[] = [
  {
    name: "folder-trust",
    async run(ctx) {
      await using s = await startOther(ctx, COPILOT, {
        firstRun: { trust: true },
        waitFor: (p: string) =>
          p.includes("Do you trust the files in this folder?") && p.includes("1. Yes"),
        timeoutMs: 90_000,
      });
      await ctx.screen(s.pane, "folder-trust", {
        state: "dialog",
        defining: ["Confirm folder trust", "Do you trust the files in this folder?", "1. Yes"],
        expect: { permission_prompt: false, live_prompt: true },
        notes:
          "first-run folder-trust question ($HOME/.copilot/config.json without trustedFolders)",
      });
    },
  },
  {
    name: "modes",
    async run(ctx) {
      await using s = await startOther(ctx, COPILOT);
      const screens: Array<[string, string, string]> = [
        ["mode-plan", "Plan · Manual Approval", "plan"],
        ["mode-autopilot", "Autopilot · Manual Approval", "auto"],
        ["mode-interactive", "Interactive · Manual Approval", "interactive"],
      ];
      for (const [name, footer, mode] of screens) {
        await press(ctx, s, "BTab");
        await ctx.screen(s.pane, name, { state: "idle", defining: [footer], expect: { mode } });
      }
    },
  },
  {
    name: "allow-all",
    async run(ctx) {
      await using s = await startOther(ctx, COPILOT, {
        args: ["--allow-all"],
        waitFor: "Allow All",
        script: [bash("touch allowed.txt", "Create the marker file"), {
          kind: "text",
          text: "Created it without asking.",
        }],
      });
      await ctx.screen(s.pane, "mode-allow-all", {
        state: "idle",
        defining: ["Interactive · Allow All"],
        expect: { mode: "bypass" },
        notes: "started with --allow-all",
      });
      await submit(ctx, s, "create the marker file");
      await ctx.screen(s.pane, "allow-all-ran", {
        timeoutMs: 60_000,
        state: "idle",
        defining: ["Created it without asking.", "Allow All"],
        failIf: "Do you want to run this command?",
        expect: { live_prompt: false, mode: "bypass" },
        notes: "allow-all: the command ran without a prompt",
      });
      if (!(await fileExists(`${s.project}/allowed.txt`))) ctx.fail("the command did not run");
    },
  },
  {
    name: "shell-reject",
    async run(ctx) {
      await using s = await startOther(ctx, COPILOT, {
        script: [bash("rm -rf build", "Clean the build folder")],
      });
      await submit(ctx, s, "clean the build folder");
      await ctx.screen(s.pane, "shell-prompt-rm", {
        timeoutMs: 60_000,
        state: "prompt",
        defining: ["Do you want to run this command?", "rm -rf build", "don't ask again for `rm`"],
        expect: { command: "rm -rf build", permission_prompt: true, broad_grant_option: 2 },
      });
      await press(ctx, s, "Escape");
      await ctx.screen(s.pane, "shell-rejected", {
        timeoutMs: 60_000,
        state: "idle",
        defining: ["Manual Approval"],
        until: (p) =>
          !p.includes("Do you want to run this command?") && p.includes("Manual Approval"),
        expect: { live_prompt: false },
      });
    },
  },
  {
    name: "shell-long",
    async run(ctx) {
      await using s = await startOther(ctx, COPILOT, {
        script: [bash(LONG, "Make the build folders")],
      });
      await submit(ctx, s, "make the build folders");
      await ctx.screen(s.pane, "shell-prompt-long", {
        timeoutMs: 60_000,
        state: "prompt",
        defining: ["Do you want to run this command?", "first-marker-file.txt"],
        until: (p) => p.includes("Do you want to run this command?") && p.includes("1. Yes"),
        expect: { command: LONG, permission_prompt: true },
        notes: "the command wraps at a space inside the prompt's command box",
      });
    },
  },
];

export const suite: LabSuite = {
  name: "copilot",
  profile: "copilot",
  fixtures: {
    cli: "copilot",
    version: async () => (await resolveCli("copilot")).version,
    setup: COPILOT.setup,
  },
  scenarios: [
    ...tableScenarios("copilot", { timeoutMs: 480_000 }),
    ...labOnly,
    // Issue 27: the profile falls back to Claude Code's limit pattern; its banner quoted is no limit.
    ...quotedLimitScenarios(COPILOT, "You've hit your 5-hour limit · resets 3pm (UTC)"),
  ],
};
