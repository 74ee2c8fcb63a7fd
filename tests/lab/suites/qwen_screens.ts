/**
 * Real Qwen Code screens (issue 7 item 2; issue 10 for 0.24.4): every pinned `@qwen-code/qwen-code`
 * against the scripted Chat Completions stand-in, driven into each state its profile describes.
 * Recorded under tests/fixtures/qwen/<version>/ with `deno task lab --record --suite qwen`;
 * compared (and judged by detect() with the `qwen` profile) otherwise.
 *
 * The standard scenarios come from the table `drover verify` runs (lib/scenarios/tables/qwen.ts),
 * at every pinned version, with verify's throwaway HOME (lib/scenarios/homes.ts: the default,
 * ask-first mode, so 0.24.4 shows the classic numbered prompts too). What only the lab records stays
 * here: the mode cycle, a shell prompt rejected with Escape, a file write approved, the quota retry
 * screens, and 0.24.4's auto mode (its default: "Auto mode (shift + tab to cycle)", an LLM
 * classifier, asked through the same API, approves or blocks each tool call), which has scenarios
 * of its own (`since`).
 */
import {
  compareVersions,
  type LabScenario,
  type LabSuite,
  pinnedCliVersions,
  type ScenarioContext,
} from "../harness/mod.ts";
import { qwenShell } from "../harness/shell_steps.ts";
import { tableScenarios } from "../harness/tables.ts";
import {
  fileExists,
  mainTurns,
  type OtherOptions,
  press,
  QWEN,
  sleep,
  startOther,
  submit,
} from "./others_common.ts";
import { quotedLimitScenarios } from "./quoted_limits.ts";

/** The first pinned version that starts in auto mode. */
const AUTO_SINCE = "0.24.4";
const autoDefault = (v: string) => v !== "" && compareVersions(v, AUTO_SINCE) >= 0;

/** The footer of an idle Qwen Code: 0.15.10 "? for shortcuts"; 0.24.4 names the mode. */
const readyLine = (v: string) => autoDefault(v) ? "(shift + tab to cycle)" : "? for shortcuts";
const INPUT = "Type your message";
const CMD = "touch lab_marker.txt";

/** Start the version under test in its classic default mode (0.24.4 would start in auto mode). */
function defaultMode(ctx: ScenarioContext, opts: OtherOptions = {}): OtherOptions {
  if (!autoDefault(ctx.version)) return opts;
  ctx.step('$HOME/.qwen/settings.json: tools.approvalMode "default" (not the auto mode)');
  return { ...opts, settings: { tools: { approvalMode: "default" } } };
}

/** The auto-mode ready screen (0.24.4's default), which the table's ask-first HOME never shows. */
const readyAuto: LabScenario = {
  name: "ready-auto",
  since: AUTO_SINCE,
  async run(ctx) {
    ctx.step("$HOME/.qwen/settings.json: no approval mode (the version's default)");
    // Its start-up alone took over a minute on the loaded lab machine.
    await using s = await startOther(ctx, QWEN, { timeoutMs: 150_000 });
    await ctx.screen(s.pane, "ready-auto", {
      state: "idle",
      defining: [INPUT, "Auto mode (shift + tab to cycle)"],
      expect: { input_box: null, mode: "auto" },
    });
  },
};

const labOnly: LabScenario[] = [
  readyAuto,
  {
    name: "modes",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN);
      await sleep(1500);
      // 0.15.10 cycles default → auto-edit → YOLO → plan; 0.24.4 auto → YOLO → plan → default →
      // auto-edit.
      const auto = autoDefault(ctx.version);
      const screens: Array<[string, string, string]> = auto
        ? [
          ["mode-yolo", "YOLO mode (shift + tab to cycle)", "bypass"],
          ["mode-plan", "plan mode (shift + tab to cycle)", "plan"],
          ["mode-default", "⏸ Ask permissions (shift + tab to cycle)", "interactive"],
          ["mode-auto-edit", "auto-accept edits (shift + tab to cycle)", "accept_edits"],
        ]
        : [
          ["mode-auto-edit", "auto-accept edits (shift + tab to cycle)", "accept_edits"],
          ["mode-yolo", "YOLO mode (shift + tab to cycle)", "bypass"],
          ["mode-plan", "plan mode (shift + tab to cycle)", "plan"],
        ];
      for (const [name, footer, mode] of screens) {
        await press(ctx, s, "BTab");
        await ctx.screen(s.pane, name, { state: "idle", defining: [footer], expect: { mode } });
      }
    },
  },
  {
    name: "shell-reject",
    async run(ctx) {
      await using s = await startOther(
        ctx,
        QWEN,
        defaultMode(ctx, {
          script: [qwenShell("rm -rf build", "Clean the build folder"), {
            kind: "text",
            text: "unused",
          }],
        }),
      );
      await submit(ctx, s, "clean the build folder");
      await ctx.screen(s.pane, "shell-prompt-rm", {
        // Under load its shell-permission check can take over a minute before the prompt shows.
        timeoutMs: 150_000,
        state: "prompt",
        defining: ["Allow execution of: 'rm'?", "rm -rf build"],
        expect: { command: "rm -rf build" },
      });
      if (autoDefault(ctx.version)) {
        await mainTurns(s, 1);
        ctx.step("the stand-in holds the request; wait 1.5 s");
        await sleep(1500);
      }
      await press(ctx, s, "Escape");
      const ready = readyLine(ctx.version);
      await ctx.screen(s.pane, "shell-rejected", {
        timeoutMs: 90_000,
        state: "idle",
        defining: [ready],
        until: (p) => !p.includes("Waiting for user confirmation") && p.includes(ready),
        expect: { live_prompt: false },
      });
    },
  },
  {
    name: "file-write",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, defaultMode(ctx));
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
      // The prompt itself is the table's file-prompt screen (file-write-prompt).
      await s.pane.waitFor("Apply this change?", { timeoutMs: 150_000, what: "the file prompt" });
      await sleep(1500);
      await press(ctx, s, "1");
      await ctx.screen(s.pane, "file-write-approved", {
        timeoutMs: 90_000,
        state: "idle",
        defining: ["Wrote the notes.", readyLine(ctx.version)],
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
      if (autoDefault(ctx.version)) {
        // 0.24.4 retries silently for a while, then shows each retry of its own ("✕ [API Error:
        // 429 …] (Retrying in 58s… (attempt 1/10))" above the busy line).
        ctx.step(
          "the stand-in answers every request with HTTP 429 insufficient_quota; wait for the " +
            "retry line",
        );
        await ctx.screen(s.pane, "quota-retrying", {
          state: "busy",
          defining: ["[API Error: 429", "esc to cancel"],
          until: (p) => p.includes("Retrying in") && p.includes("esc to cancel"),
          stableMs: 0,
          timeoutMs: 150_000,
          expect: { mid_response: true, stream_error: "*", cli_unavailable: null },
          notes: "the retry cycle (10 attempts about a minute apart) is not waited out",
        });
        return;
      }
      ctx.step(
        "the stand-in answers every request with HTTP 429 insufficient_quota; wait for the 3rd retry",
      );
      await mainTurns(s, 3, 60_000).catch(() => {});
      await ctx.screen(s.pane, "quota-retrying", {
        state: "busy",
        defining: ["esc to cancel"],
        stableMs: 0,
        notes:
          "Qwen Code retries 429 insufficient_quota silently (busy) for minutes; no final screen recorded",
      });
    },
  },
];

// ---- Auto mode (0.24.4 on): the classifier behind it, answered by the stand-in ----

const autoMode: LabScenario[] = [
  {
    // Through a gateway that cannot classify (our stand-in by default), each shell command asks,
    // with a choice that switches to the default mode.
    name: "shell-prompt-auto",
    since: AUTO_SINCE,
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        classifier: "unavailable",
        script: [qwenShell(CMD, "Create the marker file"), {
          kind: "text",
          text: "Created the marker file.",
        }],
      });
      await submit(ctx, s, "create the marker file");
      await ctx.screen(s.pane, "shell-prompt-auto", {
        timeoutMs: 150_000,
        state: "prompt",
        defining: [
          "Auto Mode couldn't classify this action",
          "Allow execution of: 'touch'?",
          "1. Yes, allow once",
          "2. Switch to Default Mode and allow once",
        ],
        // Option 2 switches to the default mode (asks every time): a mode switch, not a broad grant.
        expect: { command: CMD, permission_prompt: true, broad_grant_option: null, mode: "auto" },
      });
      await press(ctx, s, "1");
      await s.pane.waitFor("Created the marker file.", { timeoutMs: 90_000, what: "the reply" });
      await ctx.screen(s.pane, "shell-auto-approved", {
        timeoutMs: 60_000,
        // At 80x24 the final redraw can push the reply's last line away; the tool line stays.
        stableMs: 2000,
        state: "idle",
        defining: ["Shell touch lab_marker.txt", "Auto mode (shift + tab to cycle)"],
        expect: { live_prompt: false, mode: "auto" },
      });
      if (!(await fileExists(`${s.project}/lab_marker.txt`))) ctx.fail("the command did not run");
    },
  },
  {
    name: "auto-allowed",
    since: AUTO_SINCE,
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        classifier: "allow",
        script: [qwenShell(CMD, "Create the marker file"), {
          kind: "text",
          text: "Created the marker file.",
        }],
      });
      await submit(ctx, s, "create the marker file");
      await s.pane.waitFor("Created the marker file.", { timeoutMs: 150_000, what: "the reply" });
      await ctx.screen(s.pane, "auto-allowed", {
        timeoutMs: 60_000,
        // At 80x24 the final redraw can push the reply's last line away; the tool line stays.
        stableMs: 2000,
        state: "idle",
        defining: ["Shell touch lab_marker.txt", "Auto mode ("],
        failIf: "Allow execution of:",
        expect: { live_prompt: false, mode: "auto" },
        notes: "the classifier allowed the command: it ran without a prompt",
      });
      if (!(await fileExists(`${s.project}/lab_marker.txt`))) ctx.fail("the command did not run");
    },
  },
  {
    name: "auto-blocked",
    since: AUTO_SINCE,
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        classifier: "block",
        script: [qwenShell(CMD, "Create the marker file"), {
          kind: "text",
          text: "The action was blocked.",
        }],
      });
      await submit(ctx, s, "create the marker file");
      await s.pane.waitFor("The action was blocked.", { timeoutMs: 150_000, what: "the reply" });
      await ctx.screen(s.pane, "auto-blocked", {
        timeoutMs: 60_000,
        // As auto-allowed: the reply may scroll away at 80x24; the policy line stays.
        stableMs: 2000,
        state: "idle",
        defining: ["Blocked by auto mode policy", "Auto mode ("],
        expect: { live_prompt: false, permission_prompt: false, mode: "auto" },
        notes: "the classifier blocked the command: nothing asks, the model is told why",
      });
      if (await fileExists(`${s.project}/lab_marker.txt`)) ctx.fail("the blocked command ran");
    },
  },
  {
    // File edits inside the project need no classifier in auto mode.
    name: "auto-file-write",
    since: AUTO_SINCE,
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
      await s.pane.waitFor("Wrote the notes.", { timeoutMs: 150_000, what: "the model's reply" });
      await ctx.screen(s.pane, "auto-file-write", {
        timeoutMs: 60_000,
        // At 80x24 the final redraw can push the reply's last line away; the tool line stays.
        stableMs: 2000,
        state: "idle",
        defining: ["WriteFile Writing to notes.md", "Auto mode ("],
        failIf: "Apply this change?",
        expect: { live_prompt: false, mode: "auto" },
      });
    },
  },
];

// ---- First-run and final screens (issue 10) ----

const moreScreens: LabScenario[] = [
  {
    // The folder-trust question (with security.folderTrust.enabled); no other first-run dialog
    // shows with an API key in the environment.
    name: "folder-trust",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        settings: { security: { folderTrust: { enabled: true } } },
        waitFor: (p: string) => p.includes("Do you trust this folder?") && p.includes("1."),
      });
      ctx.step("$HOME/.qwen/settings.json: security.folderTrust.enabled true");
      await ctx.screen(s.pane, "folder-trust", {
        state: "dialog",
        defining: ["Do you trust this folder?", "1. Trust folder"],
        expect: { permission_prompt: false },
        notes: "first-run folder-trust question",
      });
    },
  },
];

export const suite: LabSuite = {
  name: "qwen",
  profile: "qwen",
  fixtures: {
    cli: "qwen",
    version: async () => (await pinnedCliVersions("qwen")).at(-1) ?? "?",
    setup: QWEN.setup,
  },
  versions: () => pinnedCliVersions("qwen"),
  scenarios: [
    ...tableScenarios("qwen", { timeoutMs: 480_000 }),
    ...labOnly,
    ...autoMode,
    ...moreScreens,
    // Issue 27: the profile falls back to Claude Code's limit pattern; its banner quoted is no limit.
    ...quotedLimitScenarios(QWEN, "You've hit your 5-hour limit · resets 3pm (UTC)"),
  ],
};
