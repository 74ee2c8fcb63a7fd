/**
 * Real Codex CLI screens (issue 7 item 2): the pinned `@openai/codex` against the scripted Responses
 * stand-in, driven into each state its profile describes. Recorded under
 * tests/fixtures/codex/<version>/ with `deno task lab --record --only codex`; compared (and judged
 * by detect() with the `codex` profile) otherwise. The stand-in's script decides every reply.
 */
import { type LabScenario, type LabSuite, resolveCli } from "../harness/mod.ts";
import { execCommand } from "../../../lib/scenarios/standins/openai_responses.ts";
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";
import { CODEX, press, sleep, startOther, submit } from "./others_common.ts";

const READY = "? for shortcuts";
const PROMPT_Q = "Would you like to run the following command?";
const CMD = "touch lab_marker.txt";
const NARRATION = [
  "Here is how the approval prompt reads when I need to run something:",
  "",
  `"${PROMPT_Q}"`,
  "1. Yes, proceed (y)",
  "2. Yes, and don't ask again for commands that start with `npm test` (p)",
  "",
  'It ends with "Press enter to confirm or esc to cancel". Nothing is waiting for you now.',
].join("\n");

const scenarios: LabScenario[] = [
  {
    name: "ready",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX);
      await ctx.screen(s.pane, "ready", {
        state: "idle",
        // The footer fills in after the first frame; wait for its last part.
        defining: ["Ask Codex to do anything"],
        until: ["Ask Codex to do anything", "← for agents"],
        stableMs: 1500,
        expect: { input_box: null },
      });
      ctx.step('type "summarise the notes in notes.txt" (no Enter)');
      await s.pane.type("summarise the notes in notes.txt");
      await ctx.screen(s.pane, "typed-input", {
        state: "idle",
        defining: ["› summarise the notes in notes.txt"],
        expect: { input_box: "summarise the notes in notes.txt" },
      });
    },
  },
  {
    name: "mode-plan",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, {
        script: [{ kind: "text", text: "Hello. What should we work on?" }],
      });
      // While the start-up logo animates, shift+tab is swallowed: one turn first settles it.
      await submit(ctx, s, "hello");
      await s.pane.waitFor("What should we work on?", { timeoutMs: 20_000 });
      await sleep(500);
      await press(ctx, s, "BTab");
      await ctx.screen(s.pane, "mode-plan", {
        state: "idle",
        defining: ["Plan mode (shift+tab to cycle)"],
        expect: { mode: "interactive" },
      });
    },
  },
  {
    name: "busy",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, { script: [{ kind: "hang" }] });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in sends no reply");
      await ctx.screen(s.pane, "busy", {
        state: "busy",
        defining: ["Working (", "esc to interrupt"],
        stableMs: 0,
      });
      await press(ctx, s, "Escape");
      await ctx.screen(s.pane, "interrupted", {
        state: "idle",
        defining: ["Conversation interrupted", READY],
      });
    },
  },
  {
    name: "shell-prompt",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, {
        script: [execCommand(CMD, "Create the marker file"), {
          kind: "text",
          text: "Created the marker file.",
        }],
      });
      await submit(ctx, s, "create the marker file");
      await ctx.screen(s.pane, "shell-prompt", {
        state: "prompt",
        defining: [
          PROMPT_Q,
          `$ ${CMD}`,
          "1. Yes, proceed (y)",
          "Press enter to confirm or esc to cancel",
        ],
        expect: { command: CMD, permission_prompt: true, live_prompt: true, broad_grant_option: 2 },
      });
      await press(ctx, s, "1");
      await ctx.screen(s.pane, "shell-approved", {
        state: "idle",
        defining: ["You approved codex to run", "Created the marker file.", READY],
        expect: { live_prompt: false },
      });
    },
  },
  {
    name: "shell-reject",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, {
        script: [execCommand("rm -rf build", "Clean the build folder"), {
          kind: "text",
          text: "unused",
        }],
      });
      await submit(ctx, s, "clean the build folder");
      await ctx.screen(s.pane, "shell-prompt-rm", {
        state: "prompt",
        defining: [PROMPT_Q, "$ rm -rf build"],
        expect: { command: "rm -rf build" },
      });
      await press(ctx, s, "Escape");
      await ctx.screen(s.pane, "shell-rejected", {
        state: "idle",
        defining: ["You canceled the request to run", READY],
        expect: { live_prompt: false },
      });
    },
  },
  {
    name: "narration",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, {
        script: [{ kind: "text", text: NARRATION }],
      });
      await submit(ctx, s, "what does the approval prompt look like?");
      await ctx.screen(s.pane, "narration", {
        state: "idle",
        defining: [PROMPT_Q, "Nothing is waiting", READY],
        expect: { live_prompt: false, permission_prompt: false },
      });
    },
  },
  {
    name: "server-error",
    slow: true,
    async run(ctx) {
      const err: Step = { kind: "error", status: 500, error: "server", times: 1000 };
      await using s = await startOther(ctx, CODEX, { script: [err] });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in answers every request with HTTP 500");
      await ctx.screen(s.pane, "server-error-retrying", {
        state: "busy",
        defining: ["Reconnecting...", "esc to interrupt"],
        stableMs: 0,
      });
      await ctx.screen(s.pane, "server-error-final", {
        state: "idle",
        defining: ["■ We’re currently experiencing high demand", READY],
        until: (p) => p.includes("■ We’re currently") && !p.includes("esc to interrupt"),
        timeoutMs: 120_000,
      });
    },
  },
  {
    name: "rate-limit",
    slow: true,
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, {
        script: [{ kind: "error", status: 429, error: "rate_limit", times: 1000 }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step(
        "the stand-in answers every request with HTTP 429 rate_limit_exceeded (retry-after 1)",
      );
      await ctx.screen(s.pane, "rate-limit-final", {
        state: "idle",
        defining: ["exceeded retry limit, last status: 429", READY],
        timeoutMs: 120_000,
      });
    },
  },
  {
    name: "auth-failure",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, {
        script: [{ kind: "error", status: 401, error: "auth", times: 1000 }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in answers every request with HTTP 401 invalid_api_key");
      await ctx.screen(s.pane, "auth-failure", {
        state: "unavailable",
        defining: ["■ unexpected status 401 Unauthorized", READY],
        until: (p) => p.includes("■ unexpected status 401") && !p.includes("esc to interrupt"),
        timeoutMs: 90_000,
      });
    },
  },
  {
    name: "quota",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, {
        script: [{ kind: "error", status: 429, error: "quota", times: 1000 }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in answers every request with HTTP 429 insufficient_quota");
      await ctx.screen(s.pane, "quota-exceeded", {
        state: "unavailable",
        defining: ["Quota exceeded", READY],
        timeoutMs: 60_000,
      });
    },
  },
  {
    name: "trust-dialog",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, { firstRun: { trust: true } });
      await ctx.screen(s.pane, "trust-dialog", {
        state: "dialog",
        defining: ["Trust this folder?", "1. Trust and continue", "enter continue"],
        timeoutMs: 60_000,
        expect: { permission_prompt: false },
      });
    },
  },
];

export const suite: LabSuite = {
  name: "codex",
  profile: "codex",
  fixtures: {
    cli: "codex",
    version: async () => (await resolveCli("codex")).version,
    setup: CODEX.setup,
  },
  scenarios,
};
