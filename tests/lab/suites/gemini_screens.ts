/**
 * Real Gemini CLI screens (issue 7 item 2): the pinned `@google/gemini-cli` against the scripted
 * Gemini API stand-in, driven into each state its profile describes. Recorded under
 * tests/fixtures/gemini/<version>/ with `deno task lab --record --only gemini`; compared (and judged
 * by detect() with the `gemini` profile) otherwise.
 */
import { type LabScenario, type LabSuite, resolveCli } from "../harness/mod.ts";
import { geminiShell } from "../../../lib/scenarios/standins/gemini.ts";
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";
import { GEMINI, press, sleep, startOther, submit } from "./others_common.ts";

const READY = "Type your message";
const SHELL_Q = "Allow execution of [Shell]?";
const CMD = "touch lab_marker.txt";
const NARRATION = [
  "Here is how the confirmation reads when I need to run something:",
  "",
  `"${SHELL_Q}"`,
  "1. Allow once",
  "2. Allow for this session",
  "3. No, suggest changes (esc)",
  "",
  "While I think, the status line says esc to cancel. Nothing is waiting for you now.",
].join("\n");

const scenarios: LabScenario[] = [
  {
    name: "ready",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI);
      await ctx.screen(s.pane, "ready", {
        state: "idle",
        defining: [READY, "? for shortcuts"],
        expect: { input_box: null, mode: "interactive" },
      });
      ctx.step('type "summarise the notes in notes.txt" (no Enter)');
      await s.pane.type("summarise the notes in notes.txt");
      await ctx.screen(s.pane, "typed-input", {
        state: "idle",
        defining: ["> summarise the notes in notes.txt"],
        expect: { input_box: "summarise the notes in notes.txt" },
      });
    },
  },
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
        expect: { mode: "interactive" },
      });
      await press(ctx, s, "BTab");
      await s.pane.waitFor("Shift+Tab to accept edits", { timeoutMs: 10_000 });
      await press(ctx, s, "C-y");
      await ctx.screen(s.pane, "mode-yolo", {
        state: "idle",
        defining: ["YOLO Ctrl+Y"],
        expect: { mode: "accept_edits" },
      });
    },
  },
  {
    name: "busy",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI, { script: [{ kind: "hang" }] });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in sends no reply");
      await ctx.screen(s.pane, "busy", {
        state: "busy",
        defining: ["(esc to cancel"],
        stableMs: 0,
      });
      await press(ctx, s, "Escape");
      await ctx.screen(s.pane, "interrupted", {
        state: "idle",
        defining: ["Request cancelled.", READY],
      });
    },
  },
  {
    name: "shell-prompt",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI, {
        script: [geminiShell(CMD, "Create the marker file"), {
          kind: "text",
          text: "Created the marker file.",
        }],
      });
      await submit(ctx, s, "create the marker file");
      await ctx.screen(s.pane, "shell-prompt", {
        state: "prompt",
        defining: [SHELL_Q, "1. Allow once", "2. Allow for this session"],
        expect: { command: CMD, permission_prompt: true, broad_grant_option: null },
      });
      await press(ctx, s, "1");
      await ctx.screen(s.pane, "shell-approved", {
        state: "idle",
        defining: ["Created the marker file.", READY],
        expect: { live_prompt: false },
      });
    },
  },
  {
    name: "shell-reject",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI, {
        script: [geminiShell("rm -rf build", "Clean the build folder"), {
          kind: "text",
          text: "unused",
        }],
      });
      await submit(ctx, s, "clean the build folder");
      await ctx.screen(s.pane, "shell-prompt-rm", {
        state: "prompt",
        defining: [SHELL_Q, "rm -rf build"],
        expect: { command: "rm -rf build" },
      });
      await press(ctx, s, "Escape");
      await ctx.screen(s.pane, "shell-rejected", {
        state: "idle",
        defining: ["Request cancelled.", READY],
        expect: { live_prompt: false },
      });
    },
  },
  {
    name: "file-write",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI);
      s.api.push(
        {
          kind: "tool",
          name: "write_file",
          args: { file_path: `${s.project}/notes.md`, content: "# Notes\nhello\n" },
        },
        { kind: "text", text: "Wrote the notes." },
      );
      ctx.step("stand-in script: tool write_file(<project>/notes.md) → text");
      await submit(ctx, s, "write the notes file");
      await ctx.screen(s.pane, "file-write-prompt", {
        state: "prompt",
        defining: ["Apply this change?", "Writing to notes.md", "1. Allow once"],
        expect: { file_path: "notes.md", permission_prompt: true },
      });
      await press(ctx, s, "1");
      await ctx.screen(s.pane, "file-write-approved", {
        state: "idle",
        defining: ["Wrote the notes.", READY],
      });
    },
  },
  {
    name: "narration",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI, {
        script: [{ kind: "text", text: NARRATION }],
      });
      await submit(ctx, s, "what does the confirmation look like?");
      await ctx.screen(s.pane, "narration", {
        state: "idle",
        defining: [SHELL_Q, "Nothing is waiting", READY],
        expect: { live_prompt: false, permission_prompt: false },
      });
    },
  },
  {
    name: "server-error",
    async run(ctx) {
      const err: Step = { kind: "error", status: 500, error: "server", times: 1000 };
      await using s = await startOther(ctx, GEMINI, { script: [err] });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in answers every request with HTTP 500; wait for the 3rd retry");
      const deadline = Date.now() + 60_000;
      while (s.api.mainRequests().length < 3 && Date.now() < deadline) await sleep(500);
      await ctx.screen(s.pane, "server-error-retrying", {
        state: "busy",
        defining: ["(esc to cancel"],
        stableMs: 0,
      });
    },
  },
  {
    name: "quota",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI, {
        script: [{ kind: "error", status: 429, error: "quota", times: 1000 }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step(
        "the stand-in answers every request with HTTP 429 RESOURCE_EXHAUSTED (per-day QuotaFailure)",
      );
      await ctx.screen(s.pane, "quota-dialog", {
        state: "unavailable",
        defining: ["Usage limit reached", "1. Keep trying", "2. Stop"],
        timeoutMs: 60_000,
        expect: { permission_prompt: false },
      });
      await press(ctx, s, "2");
      await ctx.screen(s.pane, "quota-stopped", {
        state: "unavailable",
        defining: ["exhausted your daily quota", READY],
      });
    },
  },
  {
    name: "auth-failure",
    async run(ctx) {
      await using s = await startOther(ctx, GEMINI, {
        script: [{ kind: "error", status: 400, error: "auth", times: 1000 }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in answers every request with HTTP 400 API_KEY_INVALID");
      await ctx.screen(s.pane, "auth-failure", {
        state: "unavailable",
        defining: ["API key not valid", READY],
        timeoutMs: 60_000,
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
