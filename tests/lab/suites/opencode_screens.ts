/**
 * Real OpenCode screens (issue 7 item 2): the pinned `opencode-ai` TUI against the scripted Chat
 * Completions stand-in (an `@ai-sdk/openai-compatible` provider), driven into each state its profile
 * describes. Recorded under tests/fixtures/opencode/<version>/ with
 * `deno task lab --record --only opencode`; compared (and judged by detect() with the `opencode`
 * profile) otherwise.
 */
import { type LabScenario, type LabSuite, resolveCli } from "../harness/mod.ts";
import { opencodeBash } from "../../../lib/scenarios/standins/chat_completions.ts";
import { mainTurns, OPENCODE, press, sleep, startOther, submit } from "./others_common.ts";

const READY = "ctrl+p commands";
const QUOTA = "You exceeded your current quota";
const CMD = "touch lab_marker.txt";
const NARRATION = [
  "Here is how the permission request reads when I need to run something:",
  "",
  "△ Permission required",
  "# Shell command",
  "Allow once   Allow always   Reject",
  "",
  "You pick with ⇆ select and enter confirm. Nothing is waiting for you now.",
].join("\n");

const scenarios: LabScenario[] = [
  {
    name: "ready",
    // Start-up and each turn took one to two minutes on the loaded lab machine.
    timeoutMs: 480_000,
    async run(ctx) {
      await using s = await startOther(ctx, OPENCODE);
      await ctx.screen(s.pane, "ready", {
        state: "idle",
        defining: ["Ask anything", READY],
        expect: { input_box: null },
      });
      ctx.step('type "summarise the notes in notes.txt" (no Enter)');
      await s.pane.type("summarise the notes in notes.txt");
      await ctx.screen(s.pane, "typed-input", {
        timeoutMs: 150_000,
        state: "idle",
        defining: ["summarise the notes in notes.txt"],
        expect: { input_box: "summarise the notes in notes.txt" },
      });
    },
  },
  {
    name: "busy",
    // Start-up and each turn took one to two minutes on the loaded lab machine.
    timeoutMs: 480_000,
    async run(ctx) {
      await using s = await startOther(ctx, OPENCODE, { script: [{ kind: "hang" }] });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in sends no reply");
      await ctx.screen(s.pane, "busy", {
        state: "busy",
        defining: ["esc interrupt"],
        stableMs: 0,
        timeoutMs: 150_000,
      });
      // One Escape only arms it ("esc again"); the second, a moment later, interrupts. Under
      // load the pair can miss its window: try again (bounded).
      const stopped = (p: string) =>
        !p.includes("esc interrupt") && !p.includes("esc again") && p.includes(READY);
      for (let attempt = 0; attempt < 3; attempt++) {
        await press(ctx, s, "Escape");
        await sleep(400);
        await press(ctx, s, "Escape");
        try {
          await s.pane.waitFor(stopped, { timeoutMs: 30_000, what: "the turn to stop" });
          break;
        } catch (e) {
          if (attempt === 2) throw e;
        }
      }
      await ctx.screen(s.pane, "interrupted", {
        timeoutMs: 150_000,
        state: "idle",
        defining: [READY],
        until: stopped,
        stableMs: 2000,
      });
    },
  },
  {
    name: "shell-prompt",
    // Start-up and each turn took one to two minutes on the loaded lab machine.
    timeoutMs: 480_000,
    async run(ctx) {
      await using s = await startOther(ctx, OPENCODE, {
        script: [opencodeBash(CMD, "Create the marker file"), {
          kind: "text",
          text: "Created the marker file.",
        }],
      });
      await submit(ctx, s, "create the marker file");
      await ctx.screen(s.pane, "shell-prompt", {
        timeoutMs: 150_000,
        state: "prompt",
        defining: ["Permission required", `$ ${CMD}`, "Allow once", "⇆ select"],
        expect: {
          command: CMD,
          permission_prompt: true,
          choice_row: [
            { text: "Allow once", selected: true },
            { text: "Allow always", selected: false },
            { text: "Reject", selected: false },
          ],
        },
      });
      await press(ctx, s, "Enter");
      await ctx.screen(s.pane, "shell-approved", {
        timeoutMs: 150_000,
        state: "idle",
        defining: ["Created the marker file.", READY],
        until: (p) => p.includes("Created the marker file.") && !p.includes("esc interrupt"),
        expect: { live_prompt: false },
      });
    },
  },
  {
    name: "shell-reject",
    // Start-up and each turn took one to two minutes on the loaded lab machine.
    timeoutMs: 480_000,
    async run(ctx) {
      await using s = await startOther(ctx, OPENCODE, {
        script: [opencodeBash("rm -rf build", "Clean the build folder"), {
          kind: "text",
          text: "unused",
        }],
      });
      await submit(ctx, s, "clean the build folder");
      await ctx.screen(s.pane, "shell-prompt-rm", {
        timeoutMs: 150_000,
        state: "prompt",
        defining: ["Permission required", "$ rm -rf build"],
        expect: { command: "rm -rf build" },
      });
      await press(ctx, s, "Escape");
      await ctx.screen(s.pane, "shell-rejected", {
        timeoutMs: 150_000,
        state: "idle",
        defining: [READY],
        until: (p) => !p.includes("Permission required") && !p.includes("esc interrupt"),
        expect: { live_prompt: false },
      });
    },
  },
  {
    name: "narration",
    // Start-up and each turn took one to two minutes on the loaded lab machine.
    timeoutMs: 480_000,
    async run(ctx) {
      await using s = await startOther(ctx, OPENCODE, {
        script: [{ kind: "text", text: NARRATION }],
      });
      await submit(ctx, s, "what does the permission request look like?");
      await ctx.screen(s.pane, "narration", {
        timeoutMs: 150_000,
        state: "idle",
        defining: ["Permission required", "Nothing is waiting", READY],
        until: (p) => p.includes("Nothing is waiting") && !p.includes("esc interrupt"),
        expect: { live_prompt: false, permission_prompt: false },
      });
    },
  },
  {
    // Issue 14: on a quota error OpenCode retries with its own backoff and writes the error across
    // the footer ("■■⬝⬝⬝⬝⬝⬝ You exceeded your current quota … [retrying in 13s attempt #5]"); at
    // 120 columns the "esc interrupt" hint is cut off, so only the progress bar says busy.
    name: "quota",
    timeoutMs: 480_000,
    async run(ctx) {
      await using s = await startOther(ctx, OPENCODE, {
        script: [{ kind: "error", status: 429, error: "quota", times: 1000, retryAfterS: null }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step(
        "the stand-in answers every main request with HTTP 429 insufficient_quota and no " +
          "retry-after header; wait for its 3rd retry",
      );
      await mainTurns(s, 4, 150_000);
      await ctx.screen(s.pane, "quota-retrying", {
        state: "busy",
        defining: [QUOTA],
        // Mid-countdown, so the capture after this poll still shows the same retry line.
        until: (p) =>
          p.includes(QUOTA) && /[■⬝]{6,8} ?You exceeded/u.test(p) &&
          /retrying in (?:[4-9]|[1-9][0-9])s attempt #[3-9]/.test(p),
        stableMs: 0,
        timeoutMs: 60_000,
        expect: { mid_response: true, cli_unavailable: null },
      });
      ctx.step("wait until it stops retrying (5 attempts with a growing backoff, about 80 s)");
      await ctx.screen(s.pane, "quota-final", {
        state: "unavailable",
        defining: [QUOTA, READY],
        until: (p) =>
          p.includes(QUOTA) && p.includes(READY) && !/[■⬝]{6}/u.test(p) &&
          !p.includes("esc interrupt"),
        timeoutMs: 240_000,
        stableMs: 2000,
        expect: { mid_response: false },
      });
    },
  },
  {
    name: "auth-failure",
    // Start-up and each turn took one to two minutes on the loaded lab machine.
    timeoutMs: 480_000,
    async run(ctx) {
      await using s = await startOther(ctx, OPENCODE, {
        script: [{ kind: "error", status: 401, error: "auth", times: 1000 }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in answers every main request with HTTP 401 invalid_api_key");
      await ctx.screen(s.pane, "auth-failure", {
        state: "unavailable",
        defining: ["Incorrect API key", READY],
        until: (p) => p.includes("Incorrect API key") && !p.includes("esc interrupt"),
        timeoutMs: 150_000,
      });
    },
  },
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
