/**
 * Real Qwen Code screens (issue 7 item 2): the pinned `@qwen-code/qwen-code` against the scripted
 * Chat Completions stand-in, driven into each state its profile describes. Recorded under
 * tests/fixtures/qwen/<version>/ with `deno task lab --record --only qwen`; compared (and judged by
 * detect() with the `qwen` profile) otherwise.
 */
import { type LabScenario, type LabSuite, resolveCli } from "../harness/mod.ts";
import { qwenShell } from "../../../lib/scenarios/standins/chat_completions.ts";
import { press, QWEN, sleep, startOther, submit } from "./others_common.ts";

const READY = "? for shortcuts";
const INPUT = "Type your message";
const CMD = "touch lab_marker.txt";
const NARRATION = [
  "Here is how the confirmation reads when I need to run something:",
  "",
  `"Allow execution of: 'touch'?"`,
  "1. Yes, allow once",
  "2. Always allow run 'touch *' commands in this project",
  "",
  "Below it you see Waiting for user confirmation..., and while I work the status line ends with esc to cancel.",
  "Nothing is waiting for you now.",
].join("\n");

const scenarios: LabScenario[] = [
  {
    name: "ready",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN);
      await ctx.screen(s.pane, "ready", {
        state: "idle",
        defining: [INPUT, READY],
        expect: { input_box: null },
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
      await using s = await startOther(ctx, QWEN);
      await sleep(1500);
      await press(ctx, s, "BTab");
      await ctx.screen(s.pane, "mode-auto-edit", {
        state: "idle",
        defining: ["auto-accept edits (shift + tab to cycle)"],
        expect: { mode: "accept_edits" },
      });
      await press(ctx, s, "BTab");
      await ctx.screen(s.pane, "mode-yolo", {
        state: "idle",
        defining: ["YOLO mode (shift + tab to cycle)"],
        expect: { mode: "accept_edits" },
      });
      await press(ctx, s, "BTab");
      await ctx.screen(s.pane, "mode-plan", {
        state: "idle",
        defining: ["plan mode (shift + tab to cycle)"],
        expect: { mode: "interactive" },
      });
    },
  },
  {
    name: "busy",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, { script: [{ kind: "hang" }] });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in sends no reply");
      await ctx.screen(s.pane, "busy", {
        state: "busy",
        defining: ["esc to cancel"],
        stableMs: 0,
      });
      await press(ctx, s, "Escape");
      await ctx.screen(s.pane, "interrupted", {
        state: "idle",
        defining: [INPUT, READY],
        until: (p) => !p.includes("esc to cancel)") && p.includes(READY),
      });
    },
  },
  {
    name: "shell-prompt",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        script: [qwenShell(CMD, "Create the marker file"), {
          kind: "text",
          text: "Created the marker file.",
        }],
      });
      await submit(ctx, s, "create the marker file");
      await ctx.screen(s.pane, "shell-prompt", {
        // Under load its shell-permission check can take over a minute before the prompt shows.
        timeoutMs: 150_000,
        state: "prompt",
        defining: [
          "Allow execution of: 'touch'?",
          "1. Yes, allow once",
          "Waiting for user confirmation",
        ],
        expect: { command: CMD, permission_prompt: true, broad_grant_option: 2 },
      });
      await press(ctx, s, "1");
      await ctx.screen(s.pane, "shell-approved", {
        timeoutMs: 90_000,
        state: "idle",
        defining: ["Created the marker file.", READY],
        expect: { live_prompt: false },
      });
    },
  },
  {
    name: "shell-reject",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        script: [qwenShell("rm -rf build", "Clean the build folder"), {
          kind: "text",
          text: "unused",
        }],
      });
      await submit(ctx, s, "clean the build folder");
      await ctx.screen(s.pane, "shell-prompt-rm", {
        // Under load its shell-permission check can take over a minute before the prompt shows.
        timeoutMs: 150_000,
        state: "prompt",
        defining: ["Allow execution of: 'rm'?", "rm -rf build"],
        expect: { command: "rm -rf build" },
      });
      await press(ctx, s, "Escape");
      await ctx.screen(s.pane, "shell-rejected", {
        timeoutMs: 90_000,
        state: "idle",
        defining: [READY],
        until: (p) => !p.includes("Waiting for user confirmation") && p.includes(READY),
        expect: { live_prompt: false },
      });
    },
  },
  {
    name: "file-write",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN);
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
        // Under load its shell-permission check can take over a minute before the prompt shows.
        timeoutMs: 150_000,
        state: "prompt",
        defining: ["Apply this change?", "notes.md", "1. Yes, allow once"],
        expect: { permission_prompt: true },
      });
      await press(ctx, s, "1");
      await ctx.screen(s.pane, "file-write-approved", {
        timeoutMs: 90_000,
        state: "idle",
        defining: ["Wrote the notes.", READY],
      });
    },
  },
  {
    name: "narration",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        script: [{ kind: "text", text: NARRATION }],
      });
      await submit(ctx, s, "what does the confirmation look like?");
      await ctx.screen(s.pane, "narration", {
        timeoutMs: 90_000,
        state: "idle",
        defining: ["Allow execution of: 'touch'?", "Nothing is waiting", READY],
        expect: { live_prompt: false, permission_prompt: false },
      });
    },
  },
  {
    name: "quota",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        script: [{ kind: "error", status: 429, error: "quota", times: 1000 }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step(
        "the stand-in answers every request with HTTP 429 insufficient_quota; wait for the 3rd retry",
      );
      const deadline = Date.now() + 60_000;
      while (s.api.mainRequests().length < 3 && Date.now() < deadline) await sleep(500);
      await ctx.screen(s.pane, "quota-retrying", {
        state: "busy",
        defining: ["esc to cancel"],
        stableMs: 0,
        notes:
          "Qwen Code retries 429 insufficient_quota silently (busy) for minutes; no final screen recorded",
      });
    },
  },
  {
    name: "auth-failure",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        script: [{ kind: "error", status: 401, error: "auth", times: 1000 }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in answers every request with HTTP 401 invalid_api_key");
      await ctx.screen(s.pane, "auth-failure", {
        state: "unavailable",
        defining: ["[API Error: 401", READY],
        timeoutMs: 60_000,
      });
    },
  },
];

export const suite: LabSuite = {
  name: "qwen",
  profile: "qwen",
  fixtures: {
    cli: "qwen",
    version: async () => (await resolveCli("qwen")).version,
    setup: QWEN.setup,
  },
  scenarios,
};
