/**
 * Held-out real screens (issue 10 "Done when": ≥ 98 % of verdicts right on real screens NOT used
 * as fixtures, zero non-permission screens taken as permission prompts). Recorded from the pinned
 * Claude Code and Qwen Code versions in pane sizes, commands, file names, prompts and setups the
 * fixtures under tests/fixtures/<cli>/<version>/ do not use (100x30 and 200x50; other commands;
 * long commands that wrap; narration that ends in prompt words; a custom status line).
 *
 * Every screen's `state` and `expect` are written from what the screen truly is — the state the
 * scenario drove the CLI into and what it asks — never from detect()'s output; recording runs
 * without detect() (`tests/lab/unseen/record.ts`). tests/unit/unseen_screens_test.ts scores
 * detect() against them. These suites are not in tests/lab/suites/ (the lab does not run them): a
 * held-out set must not become a fixture set that detectors are tuned until it passes.
 */
import {
  type AnthropicStep,
  type ClaudeOptions,
  type ClaudeSession,
  compareVersions,
  type LabScenario,
  type LabSuite,
  pinnedCliVersions,
  resolveCli,
  type ScenarioContext,
  type Size,
  startClaude,
} from "../harness/mod.ts";
import { qwenShell } from "../harness/shell_steps.ts";
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";
import {
  CLINE,
  mainTurns,
  type OtherOptions,
  type OtherSession,
  QWEN,
  sleep,
  startOther,
  startQwenGivingUp,
  submit as submitOther,
} from "../suites/others_common.ts";

export const UNSEEN_SIZES: Size[] = [{ cols: 100, rows: 30 }, { cols: 200, rows: 50 }];

// ---------------------------------------------------------------- Claude Code

const CLAUDE_AUTO_SINCE = "2.1.332";
const autoClaude = (v: string) => compareVersions(v, CLAUDE_AUTO_SINCE) >= 0;
const PROCEED = "Do you want to proceed?";

/** Asks (node runs a script), prints one line. */
const MIGRATE_CMD = "node scripts/migrate.js --dry-run";
/** Long enough to wrap at 100 columns inside the prompt's box. */
const WRAP_CMD =
  `node -e "for (const f of ['alpha', 'beta', 'gamma', 'delta']) console.log(f.padEnd(12, '.') + ' ok')" ` +
  "&& npm run lint -- --max-warnings=0 --format=compact --output-file=reports/lint-report.txt";
const TYPED = "refactor the login handler to use async/await";
const STATUS = "main ✓ | $0.42 | opus";
const STATUS_CMD = `printf '%s' '${STATUS}'`;
const SLOW: AnthropicStep = {
  kind: "text",
  text: "Going through the changelog entries and grouping them by area before I write. ".repeat(30),
  chunkDelayMs: 500,
  chunkSize: 6,
};
/** A reply that ends in a permission prompt's words, right above the input box. */
const CLAUDE_NARRATION = [
  "When I need to run the migration you will see this:",
  "",
  "Bash command",
  "  node scripts/migrate.js",
  "Do you want to proceed?",
  "❯ 1. Yes",
  "  2. Yes, and don't ask again for node commands",
  "  3. No",
  "",
  "Esc to cancel · Tab to amend",
].join("\n");

const bash = (command: string, description: string): AnthropicStep => ({
  kind: "tool_use",
  name: "Bash",
  input: { command, description },
});

type ClaudeStart = Omit<ClaudeOptions, "cols" | "rows" | "version"> & { auto?: boolean };

async function claude(ctx: ScenarioContext, start: ClaudeStart = {}): Promise<ClaudeSession> {
  const { auto = false, ...opts } = start;
  const manual = !auto && autoClaude(ctx.version);
  const settings = {
    ...opts.settings,
    ...(manual ? { permissions: { defaultMode: "default" } } : {}),
  };
  const keys = Object.keys(settings);
  ctx.step(
    `start claude ${ctx.version} in a ${ctx.size.cols}x${ctx.size.rows} pane` +
      (keys.length
        ? `; HOME/.claude/settings.json also sets ${
          keys.map((k) => `${k}=${JSON.stringify(settings[k as keyof typeof settings])}`).join(
            ", ",
          )
        }`
        : "") +
      (opts.script?.length
        ? `; stand-in script: ${
          opts.script.map((s) =>
            s.kind === "tool_use"
              ? `tool_use ${s.name}(${
                JSON.stringify(s.input.command ?? String(s.input.file_path ?? "").split("/").pop())
              })`
              : s.kind
          ).join(" → ")
        }`
        : ""),
  );
  const waitFor = opts.waitFor ??
    (auto ? (p: string) => p.includes("shift+tab to cycle") : undefined);
  return await startClaude(ctx.lab, {
    cols: ctx.size.cols,
    rows: ctx.size.rows,
    version: ctx.version,
    ...opts,
    settings,
    ...(waitFor !== undefined ? { waitFor } : {}),
  });
}

async function submit(ctx: ScenarioContext, c: ClaudeSession, text: string) {
  ctx.step(`type ${JSON.stringify(text)}, Enter`);
  await c.pane.type(text);
  await sleep(300);
  await c.pane.keys("Enter");
}

async function press(ctx: ScenarioContext, c: { pane: ClaudeSession["pane"] }, ...keys: string[]) {
  ctx.step(`press ${keys.join(", ")}`);
  await c.pane.keys(...keys);
}

/** The verdicts of any screen that is not a permission prompt. */
const NOT_PROMPT = { live_prompt: false, permission_prompt: false } as const;
const IDLE = { ...NOT_PROMPT, mid_response: false } as const;

const claudeScenarios: LabScenario[] = [
  {
    name: "typed",
    async run(ctx) {
      await using c = await claude(ctx);
      ctx.step(`type ${JSON.stringify(TYPED)} (no Enter)`);
      await c.pane.type(TYPED);
      await ctx.screen(c.pane, "typed", {
        state: "idle",
        defining: [TYPED],
        expect: { ...IDLE, input_box: TYPED, mode: "interactive" },
      });
    },
  },
  {
    name: "bash-node",
    async run(ctx) {
      await using c = await claude(ctx, {
        files: { "scripts/migrate.js": "console.log('dry run: 2 migrations')\n" },
        script: [bash(MIGRATE_CMD, "Preview the database migration"), {
          kind: "text",
          text: "unused",
        }],
      });
      await submit(ctx, c, "preview the migration");
      await ctx.screen(c.pane, "bash-node", {
        state: "prompt",
        defining: [PROCEED, "1. Yes"],
        until: (p) => p.includes(PROCEED) && p.includes(MIGRATE_CMD),
        expect: {
          live_prompt: true,
          permission_prompt: true,
          command: MIGRATE_CMD,
          file_path: null,
          mid_response: false,
        },
      });
      const no = /([0-9])\. No\b/.exec(await c.pane.capturePlain())?.[1] ?? "3";
      await press(ctx, c, no);
      await ctx.screen(c.pane, "bash-node-rejected", {
        state: "idle",
        defining: ["What should Claude do instead?"],
        expect: { ...IDLE },
      });
    },
  },
  {
    name: "bash-wrap",
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [bash(WRAP_CMD, "Check the fixtures, then lint"), { kind: "text", text: "unused" }],
      });
      await submit(ctx, c, "check the fixtures and lint");
      await ctx.screen(c.pane, "bash-wrap", {
        state: "prompt",
        defining: [PROCEED, "1. Yes"],
        until: (p) => p.includes(PROCEED) && p.includes("lint-report.txt"),
        expect: { live_prompt: true, permission_prompt: true, command: WRAP_CMD },
        notes: "the command wraps inside the prompt at 100 columns",
      });
    },
  },
  {
    name: "write-changelog",
    async run(ctx) {
      await using c = await claude(ctx);
      c.api.push(
        {
          kind: "tool_use",
          name: "Write",
          input: { file_path: `${c.project}/CHANGELOG.md`, content: "# Changelog\n\n- login\n" },
        },
        { kind: "text", text: "Wrote the changelog." },
      );
      await submit(ctx, c, "start a changelog");
      await ctx.screen(c.pane, "write-changelog", {
        state: "prompt",
        defining: ["Do you want to create CHANGELOG.md?", "1. Yes"],
        expect: {
          live_prompt: true,
          permission_prompt: true,
          file_path: "CHANGELOG.md",
          command: null,
        },
      });
      await press(ctx, c, "Escape");
      await ctx.screen(c.pane, "write-changelog-rejected", {
        state: "idle",
        defining: ["ejected write to CHANGELOG.md"],
        until: (p) => !p.includes("Do you want to create CHANGELOG.md?"),
        stableMs: 1500,
        expect: { ...IDLE },
      });
    },
  },
  {
    name: "edit-todo",
    async run(ctx) {
      await using c = await claude(ctx, { files: { "todo.txt": "buy milk\nfix login\nship\n" } });
      c.api.push(
        { kind: "tool_use", name: "Read", input: { file_path: `${c.project}/todo.txt` } },
        {
          kind: "tool_use",
          name: "Edit",
          input: {
            file_path: `${c.project}/todo.txt`,
            old_string: "fix login",
            new_string: "fix login (done)",
          },
        },
        { kind: "text", text: "Marked it done." },
      );
      await submit(ctx, c, "mark the login item done in todo.txt");
      await ctx.screen(c.pane, "edit-todo", {
        state: "prompt",
        defining: ["Do you want to make this edit to todo.txt?", "1. Yes"],
        expect: { live_prompt: true, permission_prompt: true, file_path: "todo.txt" },
      });
      await press(ctx, c, "1");
      await ctx.screen(c.pane, "edit-todo-answered", {
        state: "idle",
        defining: ["Marked it done."],
        expect: { ...IDLE },
      });
    },
  },
  {
    name: "narration-tail",
    async run(ctx) {
      await using c = await claude(ctx, { script: [{ kind: "text", text: CLAUDE_NARRATION }] });
      await submit(ctx, c, "what will you ask me before the migration?");
      await ctx.screen(c.pane, "narration-tail", {
        state: "idle",
        defining: ["Esc to cancel · Tab to amend", "When I need to run the migration"],
        expect: { ...IDLE },
        notes: "the reply ends in a permission prompt's words, right above the input box",
      });
    },
  },
  {
    name: "statusline",
    async run(ctx) {
      await using c = await claude(ctx, {
        settings: { statusLine: { type: "command", command: STATUS_CMD } },
        waitFor: STATUS,
        script: [SLOW],
      });
      await ctx.screen(c.pane, "statusline-idle", {
        state: "idle",
        defining: [STATUS],
        expect: { ...IDLE },
      });
      await submit(ctx, c, "group the changelog entries");
      ctx.step("wait while the reply streams slowly");
      await ctx.screen(c.pane, "statusline-busy", {
        state: "busy",
        defining: [STATUS],
        until: (p) => p.includes(STATUS) && /… \([0-9]+s/.test(p),
        stableMs: 0,
        expect: { ...NOT_PROMPT, mid_response: true },
      });
    },
  },
  {
    name: "statusline-prompt",
    async run(ctx) {
      await using c = await claude(ctx, {
        settings: { statusLine: { type: "command", command: STATUS_CMD } },
        waitFor: STATUS,
        files: { "scripts/migrate.js": "console.log('dry run: 2 migrations')\n" },
        script: [bash(MIGRATE_CMD, "Preview the database migration"), {
          kind: "text",
          text: "unused",
        }],
      });
      await submit(ctx, c, "preview the migration");
      await ctx.screen(c.pane, "statusline-prompt", {
        state: "prompt",
        defining: [PROCEED, "1. Yes"],
        until: (p) => p.includes(PROCEED) && p.includes(MIGRATE_CMD),
        expect: { live_prompt: true, permission_prompt: true, command: MIGRATE_CMD },
      });
    },
  },
  {
    name: "plan-mode",
    async run(ctx) {
      await using c = await claude(ctx);
      await press(ctx, c, "BTab");
      await c.pane.waitFor("accept edits on", { timeoutMs: 15_000 });
      await press(ctx, c, "BTab");
      await ctx.screen(c.pane, "plan-mode", {
        state: "idle",
        defining: ["plan mode on"],
        expect: { ...IDLE, mode: "plan" },
      });
      ctx.step(`type ${JSON.stringify(TYPED)} (no Enter)`);
      await c.pane.type(TYPED);
      await ctx.screen(c.pane, "plan-mode-typed", {
        state: "idle",
        defining: ["plan mode on", TYPED],
        expect: { ...IDLE, mode: "plan", input_box: TYPED },
      });
    },
  },
  {
    name: "busy",
    async run(ctx) {
      await using c = await claude(ctx, { script: [SLOW] });
      await submit(ctx, c, "group the changelog entries");
      await ctx.screen(c.pane, "busy", {
        state: "busy",
        defining: ["Going through the changelog"],
        until: (p) => /… \([0-9]+s/.test(p) && p.includes("Going through the changelog"),
        stableMs: 0,
        expect: { ...NOT_PROMPT, mid_response: true },
      });
    },
  },
  {
    name: "auth-401",
    async run(ctx) {
      await using c = await claude(ctx, {
        env: { CLAUDE_CODE_MAX_RETRIES: "2" },
        script: [{ kind: "error", status: 401, times: Infinity }],
      });
      await submit(ctx, c, "group the changelog entries");
      await ctx.screen(c.pane, "auth-401", {
        state: "unavailable",
        defining: ["Invalid API key"],
        until: (p) => p.includes("Invalid API key") && !/… \([0-9]+s/.test(p),
        stableMs: 2000,
        timeoutMs: 90_000,
        expect: { ...NOT_PROMPT, cli_unavailable: "*" },
      });
    },
  },
  {
    name: "credit-400",
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [{ kind: "error", status: 400, times: Infinity }],
      });
      await submit(ctx, c, "group the changelog entries");
      await ctx.screen(c.pane, "credit-400", {
        state: "unavailable",
        defining: ["Credit balance too low"],
        until: (p) => p.includes("Credit balance too low"),
        stableMs: 2000,
        timeoutMs: 90_000,
        expect: { ...NOT_PROMPT, cli_unavailable: "*" },
      });
    },
  },
  // ---- auto mode (the versions that start in it) ----
  {
    name: "auto-typed",
    since: CLAUDE_AUTO_SINCE,
    async run(ctx) {
      await using c = await claude(ctx, { auto: true });
      ctx.step(`type ${JSON.stringify(TYPED)} (no Enter)`);
      await c.pane.type(TYPED);
      await ctx.screen(c.pane, "auto-typed", {
        state: "idle",
        defining: ["auto mode on", TYPED],
        expect: { ...IDLE, mode: "auto", input_box: TYPED },
      });
    },
  },
  {
    name: "auto-notice-no-first",
    since: CLAUDE_AUTO_SINCE,
    async run(ctx) {
      await using c = await claude(ctx, {
        auto: true,
        files: { "scripts/migrate.js": "console.log('dry run: 2 migrations')\n" },
        script: [bash(MIGRATE_CMD, "Preview the database migration"), {
          kind: "text",
          text: "The preview is done.",
        }],
      });
      await submit(ctx, c, "preview the migration");
      await ctx.screen(c.pane, "auto-cant-check", {
        state: "dialog",
        defining: ["Auto mode can't check actions in this session"],
        expect: { permission_prompt: false, mid_response: false },
        notes: "the auto-mode safety check cannot run through the stand-in",
      });
      await press(ctx, c, "Enter");
      await ctx.screen(c.pane, "auto-no-first", {
        state: "prompt",
        defining: [PROCEED, "❯ No"],
        until: (p) => p.includes(PROCEED) && /❯ No\b/.test(p),
        expect: {
          live_prompt: true,
          permission_prompt: true,
          command: MIGRATE_CMD,
          mode: "auto",
        },
        notes: "un-numbered choices, No first and selected",
      });
    },
  },
];

export const claudeUnseen: LabSuite = {
  name: "unseen-claude-code",
  profile: "claude",
  sizes: UNSEEN_SIZES,
  versions: () => pinnedCliVersions("claude-code"),
  fixtures: {
    cli: "unseen/claude-code",
    version: async () => (await resolveCli("claude-code")).version,
    setup: [
      "held-out screens: NOT fixtures; the state and expectations of each were written from what the screen shows, " +
      "not from detect(); recorded with tests/lab/unseen/record.ts (no detect() while recording)",
      "launch as the claude-screens lab suite (tests/lab/harness/claude.ts): the real pinned binary, a throwaway HOME, " +
      "the scripted Anthropic stand-in on 127.0.0.1 (lib/scenarios/standins/anthropic.ts); 2.1.332 in manual mode " +
      "unless a step says auto",
    ],
  },
  scenarios: claudeScenarios,
};

// ---------------------------------------------------------------- Qwen Code

const QWEN_AUTO_SINCE = "0.24.4";
const autoQwen = (v: string) => compareVersions(v, QWEN_AUTO_SINCE) >= 0;
const QWEN_LINT = "npm run lint -- --fix";
const QWEN_WRAP =
  "git log --since='2 weeks ago' --pretty=format:'%h %an %s' --no-merges -- src/auth src/session " +
  "| grep -v 'chore(deps)' | head -n 40 > reports/auth-changes.txt";
const QWEN_NARRATION = [
  "Before I run anything you will be asked like this:",
  "",
  "Allow execution of: 'npm'?",
  "› 1. Yes, allow once",
  "  2. Always allow run 'npm *' commands in this project",
  "  3. No, suggest changes (esc)",
  "",
  "Waiting for user confirmation...",
].join("\n");

function qwenDefault(ctx: ScenarioContext, opts: OtherOptions = {}): OtherOptions {
  if (!autoQwen(ctx.version)) return opts;
  ctx.step('$HOME/.qwen/settings.json: tools.approvalMode "default" (not the auto mode)');
  return { ...opts, settings: { ...opts.settings, tools: { approvalMode: "default" } } };
}

async function pressQ(ctx: ScenarioContext, s: OtherSession, ...keys: string[]) {
  ctx.step(`press ${keys.join(", ")}`);
  await s.pane.keys(...keys);
}

const qwenReady = (v: string) => autoQwen(v) ? "(shift + tab to cycle)" : "? for shortcuts";

const qwenScenarios: LabScenario[] = [
  {
    name: "typed",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, qwenDefault(ctx));
      ctx.step(`type ${JSON.stringify(TYPED)} (no Enter)`);
      await s.pane.type(TYPED);
      await ctx.screen(s.pane, "typed", {
        state: "idle",
        defining: [TYPED],
        expect: { ...IDLE, input_box: TYPED, mode: "interactive" },
      });
    },
  },
  {
    name: "shell-lint",
    async run(ctx) {
      await using s = await startOther(
        ctx,
        QWEN,
        qwenDefault(ctx, {
          script: [qwenShell(QWEN_LINT, "Fix lint errors"), { kind: "text", text: "Linted." }],
        }),
      );
      await submitOther(ctx, s, "fix the lint errors");
      await ctx.screen(s.pane, "shell-lint", {
        timeoutMs: 150_000,
        state: "prompt",
        defining: ["Allow execution of: 'npm'?", "1. Yes, allow once"],
        expect: { live_prompt: true, permission_prompt: true, command: QWEN_LINT },
      });
      await mainTurns(s, 1);
      await pressQ(ctx, s, "Escape");
      await ctx.screen(s.pane, "shell-lint-rejected", {
        timeoutMs: 90_000,
        state: "idle",
        defining: [qwenReady(ctx.version)],
        until: (p) =>
          !p.includes("Waiting for user confirmation") && p.includes(qwenReady(ctx.version)),
        stableMs: 1500,
        expect: { ...IDLE },
      });
    },
  },
  {
    name: "shell-wrap",
    async run(ctx) {
      await using s = await startOther(
        ctx,
        QWEN,
        qwenDefault(ctx, {
          files: { "reports/.keep": "" },
          script: [qwenShell(QWEN_WRAP, "Collect recent auth changes"), {
            kind: "text",
            text: "unused",
          }],
        }),
      );
      await submitOther(ctx, s, "collect the recent auth changes");
      await ctx.screen(s.pane, "shell-wrap", {
        timeoutMs: 150_000,
        state: "prompt",
        defining: ["1. Yes, allow once"],
        until: (p) => p.includes("1. Yes, allow once") && p.includes("auth-changes.txt"),
        expect: { live_prompt: true, permission_prompt: true, command: QWEN_WRAP },
        notes: "the command wraps at 100 columns",
      });
    },
  },
  {
    name: "write-changelog",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, qwenDefault(ctx));
      s.api.push(
        {
          kind: "tool",
          name: "write_file",
          args: { file_path: `${s.project}/CHANGELOG.md`, content: "# Changelog\n\n- login\n" },
        },
        { kind: "text", text: "Wrote the changelog." },
      );
      ctx.step("stand-in script: tool write_file(<project>/CHANGELOG.md) → text");
      await submitOther(ctx, s, "start a changelog");
      await ctx.screen(s.pane, "write-changelog", {
        timeoutMs: 150_000,
        state: "prompt",
        defining: ["Apply this change?", "CHANGELOG.md", "1. Yes, allow once"],
        expect: {
          live_prompt: true,
          permission_prompt: true,
          file_path: "CHANGELOG.md",
          command: null,
        },
      });
      await pressQ(ctx, s, "1");
      await ctx.screen(s.pane, "write-changelog-answered", {
        timeoutMs: 90_000,
        state: "idle",
        defining: ["Wrote the changelog.", qwenReady(ctx.version)],
        expect: { ...IDLE },
      });
    },
  },
  {
    name: "narration-tail",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        script: [{ kind: "text", text: QWEN_NARRATION }],
      });
      await submitOther(ctx, s, "how will you ask before running npm?");
      await ctx.screen(s.pane, "narration-tail", {
        timeoutMs: 90_000,
        state: "idle",
        defining: ["Before I run anything", qwenReady(ctx.version)],
        until: (p) =>
          p.includes("Before I run anything") && p.includes(qwenReady(ctx.version)) &&
          !p.includes("esc to cancel"),
        expect: { ...IDLE },
        notes: "the reply ends in a permission prompt's words, right above the input box",
      });
    },
  },
  {
    name: "busy",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, { script: [{ kind: "hang" }] });
      await submitOther(ctx, s, "group the changelog entries");
      await mainTurns(s, 1, 120_000);
      ctx.step("the stand-in holds the request");
      await ctx.screen(s.pane, "busy", {
        state: "busy",
        defining: ["esc to cancel"],
        stableMs: 0,
        expect: { ...NOT_PROMPT, mid_response: true },
      });
    },
  },
  {
    name: "folder-trust",
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        settings: { security: { folderTrust: { enabled: true } } },
        waitFor: (p: string) => /trust/i.test(p) && /1\./.test(p),
      });
      ctx.step("$HOME/.qwen/settings.json: security.folderTrust.enabled true");
      await ctx.screen(s.pane, "folder-trust", {
        state: "dialog",
        defining: ["1."],
        until: (p) => /trust/i.test(p) && /1\./.test(p),
        expect: { permission_prompt: false, mid_response: false },
        notes: "first-run folder-trust question",
      });
    },
  },
  {
    name: "retries-exhausted",
    // 0.15.10 ignores model.generationConfig and retries a 429 silently for minutes.
    since: QWEN_AUTO_SINCE,
    async run(ctx) {
      await using s = await startQwenGivingUp(ctx);
      await submitOther(ctx, s, "group the changelog entries");
      await ctx.screen(s.pane, "retries-exhausted", {
        timeoutMs: 180_000,
        state: "unavailable",
        defining: ["429"],
        until: (p) => p.includes("429") && !p.includes("esc to cancel"),
        stableMs: 3000,
        expect: { ...NOT_PROMPT, mid_response: false, cli_unavailable: "*" },
        notes: "the retries given up: the quota is exhausted, the CLI cannot serve",
      });
    },
  },
  // ---- auto mode (the versions that start in it) ----
  {
    name: "auto-prompt",
    since: QWEN_AUTO_SINCE,
    async run(ctx) {
      await using s = await startOther(ctx, QWEN, {
        classifier: "unavailable",
        script: [qwenShell(QWEN_LINT, "Fix lint errors"), { kind: "text", text: "Linted." }],
      });
      await submitOther(ctx, s, "fix the lint errors");
      await ctx.screen(s.pane, "auto-prompt", {
        timeoutMs: 150_000,
        state: "prompt",
        defining: ["Allow execution of: 'npm'?", "1. Yes, allow once"],
        expect: {
          live_prompt: true,
          permission_prompt: true,
          command: QWEN_LINT,
          mode: "auto",
        },
      });
    },
  },
  {
    name: "auto-typed",
    since: QWEN_AUTO_SINCE,
    async run(ctx) {
      await using s = await startOther(ctx, QWEN);
      ctx.step(`type ${JSON.stringify(TYPED)} (no Enter)`);
      await s.pane.type(TYPED);
      await ctx.screen(s.pane, "auto-typed", {
        state: "idle",
        defining: [TYPED, "Auto mode"],
        expect: { ...IDLE, input_box: TYPED, mode: "auto" },
      });
    },
  },
];

export const qwenUnseen: LabSuite = {
  name: "unseen-qwen",
  profile: "qwen",
  sizes: UNSEEN_SIZES,
  versions: () => pinnedCliVersions("qwen"),
  fixtures: {
    cli: "unseen/qwen",
    version: async () => (await resolveCli("qwen")).version,
    setup: [
      "held-out screens: NOT fixtures; the state and expectations of each were written from what the screen shows, " +
      "not from detect(); recorded with tests/lab/unseen/record.ts (no detect() while recording)",
      ...QWEN.setup,
    ],
  },
  scenarios: qwenScenarios,
};

// ---------------------------------------------------------------- Cline

const clineRun = (...commands: string[]): Step => ({
  kind: "tool",
  name: "run_commands",
  args: { commands },
});
const CLINE_TEST = "npm test -- --reporter=dot";
const CLINE_NARRATION = [
  "Before I run anything I will ask you first. The question looks like this:",
  "",
  "Approve tool call?",
  "run_commands",
  "$ npm test",
  "[y] Approve   [n] Deny",
].join("\n");

const clineScenarios: LabScenario[] = [
  {
    name: "typed",
    async run(ctx) {
      await using s = await startOther(ctx, CLINE);
      ctx.step(`type ${JSON.stringify(TYPED)} (no Enter)`);
      await s.pane.type(TYPED);
      await ctx.screen(s.pane, "typed", {
        state: "idle",
        defining: [TYPED],
        expect: { ...IDLE, input_box: TYPED, mode: "interactive" },
      });
    },
  },
  {
    name: "shell-test",
    async run(ctx) {
      await using s = await startOther(ctx, CLINE, {
        script: [clineRun(CLINE_TEST), { kind: "text", text: "Tests pass." }],
      });
      await submitOther(ctx, s, "run the tests");
      await ctx.screen(s.pane, "shell-test", {
        timeoutMs: 90_000,
        state: "prompt",
        defining: ["Approve tool call?", `$ ${CLINE_TEST}`, "[y] Approve"],
        stableMs: 0,
        expect: { live_prompt: true, permission_prompt: true, command: null },
        notes: "Cline's modal never proves a whole command: no command is read (docs/profiles.md)",
      });
      await pressQ(ctx, s, "Enter");
      await ctx.screen(s.pane, "shell-test-answered", {
        timeoutMs: 90_000,
        state: "idle",
        defining: ["Tests pass.", "Ask anything..."],
        expect: { ...IDLE, input_box: null },
      });
    },
  },
  {
    name: "write-changelog",
    async run(ctx) {
      await using s = await startOther(ctx, CLINE);
      s.api.push(
        {
          kind: "tool",
          name: "editor",
          args: { path: `${s.project}/CHANGELOG.md`, new_text: "# Changelog\n\n- login\n" },
        },
        { kind: "text", text: "Left the changelog alone." },
      );
      ctx.step("stand-in script: tool editor(<project>/CHANGELOG.md) → text");
      await submitOther(ctx, s, "start a changelog");
      await ctx.screen(s.pane, "write-changelog", {
        timeoutMs: 90_000,
        state: "prompt",
        defining: ["Approve tool call?", "CHANGELOG.md", "[y] Approve"],
        stableMs: 0,
        expect: {
          live_prompt: true,
          permission_prompt: true,
          file_path: `${s.project}/CHANGELOG.md`,
          command: null,
        },
      });
      await pressQ(ctx, s, "n");
      await ctx.screen(s.pane, "write-changelog-denied", {
        timeoutMs: 90_000,
        state: "idle",
        defining: ["rejected by the user", "Ask anything..."],
        expect: { ...IDLE },
      });
    },
  },
  {
    name: "narration-tail",
    async run(ctx) {
      await using s = await startOther(ctx, CLINE, {
        script: [{ kind: "text", text: CLINE_NARRATION }],
      });
      await submitOther(ctx, s, "how will you ask before running npm?");
      await ctx.screen(s.pane, "narration-tail", {
        timeoutMs: 90_000,
        state: "idle",
        defining: ["Before I run anything", "Ask anything..."],
        until: (p) =>
          p.includes("Before I run anything") && p.includes("Ask anything...") &&
          !p.includes("esc to cancel"),
        expect: { ...IDLE },
        notes: "the reply ends in a permission prompt's words, right above the input box",
      });
    },
  },
  {
    name: "busy",
    async run(ctx) {
      await using s = await startOther(ctx, CLINE, { script: [{ kind: "hang" }] });
      await submitOther(ctx, s, "group the changelog entries");
      await mainTurns(s, 1, 120_000);
      ctx.step("the stand-in holds the request");
      await ctx.screen(s.pane, "busy", {
        state: "busy",
        defining: ["(esc to cancel)"],
        stableMs: 0,
        expect: { ...NOT_PROMPT, mid_response: true },
      });
    },
  },
  {
    name: "plan-typed",
    async run(ctx) {
      await using s = await startOther(ctx, CLINE);
      await pressQ(ctx, s, "Tab");
      await s.pane.waitFor("● Plan ○ Act", { timeoutMs: 30_000 });
      ctx.step(`type ${JSON.stringify(TYPED)} (no Enter)`);
      await s.pane.type(TYPED);
      await ctx.screen(s.pane, "plan-typed", {
        state: "idle",
        defining: [TYPED, "● Plan ○ Act (Tab)"],
        expect: { ...IDLE, input_box: TYPED, mode: "plan" },
      });
    },
  },
  {
    name: "auth-401",
    async run(ctx) {
      await using s = await startOther(ctx, CLINE, {
        script: [{ kind: "error", status: 401, error: "auth", times: 100 }],
      });
      await submitOther(ctx, s, "group the changelog entries");
      await ctx.screen(s.pane, "auth-401", {
        timeoutMs: 90_000,
        state: "unavailable",
        defining: ["Error: Incorrect API key provided."],
        expect: { ...NOT_PROMPT, cli_unavailable: "Error: Incorrect API key provided." },
      });
    },
  },
];

export const clineUnseen: LabSuite = {
  name: "unseen-cline",
  profile: "cline",
  sizes: UNSEEN_SIZES,
  fixtures: {
    cli: "unseen/cline",
    version: async () => (await resolveCli("cline")).version,
    setup: [
      "held-out screens: NOT fixtures; the state and expectations of each were written from what the screen shows, " +
      "not from detect(); recorded with tests/lab/unseen/record.ts (no detect() while recording)",
      ...CLINE.setup,
    ],
  },
  scenarios: clineScenarios,
};

export const UNSEEN_SUITES: LabSuite[] = [claudeUnseen, qwenUnseen, clineUnseen];
