/**
 * Real Claude Code screens (issue 2 item 4, issue 10): each scenario drives every pinned version of
 * the CLI against the scripted Anthropic stand-in into one or more states, waits for the line that
 * proves it got there, and hands the screen to the runner (recorded under
 * tests/fixtures/claude-code/<version>/ with `--record`, compared otherwise). The stand-in's script
 * decides every reply; the typed prompts are only there because a turn needs one.
 *
 * Versions differ: from {@link AUTO_DEFAULT_SINCE} on, Claude Code starts in auto mode. The shared
 * scenarios run in manual mode there (`permissions.defaultMode = "default"` in the HOME's
 * settings.json), so each version's screens of one scenario show the same state; the auto-mode
 * screens have scenarios of their own (`since`).
 *
 * The standard screens come from the scenario table `drover verify` runs
 * (lib/scenarios/tables/claude.ts, `table-<session>` here); this suite keeps what only the lab
 * records: prompt variants, modes, first-run dialogs, final retry screens, limits, auto mode.
 */
import {
  type AnthropicStep,
  type ClaudeOptions,
  type ClaudeSession,
  compareVersions,
  LAB_API_KEY,
  type LabScenario,
  type LabSuite,
  lastUserTexts,
  pinnedCliVersions,
  resolveCli,
  type ScenarioContext,
  startClaude,
  usageLimitHeaders,
} from "../harness/mod.ts";
import { tableScenarios } from "../harness/tables.ts";
import { BACKGROUND_SHELL, driveOnce } from "./drive_claude.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The first version seen starting in auto mode (sampled: 2.1.300 did not); earlier ones start in
 * manual ("default") mode.
 */
export const AUTO_DEFAULT_SINCE = "2.1.332";

/** Does this version start in auto mode unless told otherwise? */
export function autoByDefault(version: string): boolean {
  return compareVersions(version, AUTO_DEFAULT_SINCE) >= 0;
}

/** Is `version` at least `since`? */
const atLeast = (version: string, since: string) => compareVersions(version, since) >= 0;

type Start = Omit<ClaudeOptions, "cols" | "rows" | "version"> & {
  /**
   * "manual" (default): the classic numbered prompts — on versions that start in auto mode, the
   * HOME's settings.json sets `permissions.defaultMode = "default"`. "auto": the version's own
   * default (auto mode where it has one).
   */
  permissions?: "manual" | "auto";
};

/** Start Claude Code at the scenario's size and version; every launch fact goes into the steps. */
async function claude(ctx: ScenarioContext, start: Start = {}) {
  const { permissions = "manual", ...rest } = start;
  const manualSetting = permissions === "manual" && autoByDefault(ctx.version);
  const opts: Omit<ClaudeOptions, "cols" | "rows"> = {
    ...rest,
    ...(manualSetting
      ? { settings: { ...rest.settings, permissions: { defaultMode: "default" } } }
      : {}),
  };
  if (permissions === "auto" && opts.waitFor === undefined && !opts.firstRun && !opts.bypass) {
    opts.waitFor = READY_ANY;
  }
  const settings = Object.keys(opts.settings ?? {});
  const flags = [
    ...(opts.bypass ? ["--dangerously-skip-permissions"] : []),
    ...(opts.args ?? []),
  ];
  const env = Object.entries({ ...(opts.bypass ? { IS_SANDBOX: "1" } : {}), ...opts.env })
    .map(([k, v]) => `${k}=${v}`);
  const first = Object.entries(opts.firstRun ?? {}).filter(([, v]) => v).map(([k]) => k);
  ctx.step(
    `start claude ${ctx.version}${
      flags.length ? " " + flags.join(" ") : ""
    } in a ${ctx.size.cols}x${ctx.size.rows} pane` +
      (env.length ? ` with ${env.join(" ")}` : "") +
      (settings.length
        ? `; HOME/.claude/settings.json also sets ${
          settings.map((k) => `${k}=${JSON.stringify(opts.settings![k])}`).join(", ")
        }`
        : "") +
      (first.length ? `; HOME without the first-run answers for: ${first.join(", ")}` : "") +
      (opts.script?.length
        ? `; stand-in script: ${opts.script.map(describeStep).join(" → ")}`
        : ""),
  );
  return await startClaude(ctx.lab, {
    cols: ctx.size.cols,
    rows: ctx.size.rows,
    version: ctx.version,
    ...opts,
  });
}

function describeStep(s: AnthropicStep): string {
  switch (s.kind) {
    case "text":
      return `text${s.chunkDelayMs ? " (slow)" : ""}${
        s.inputTokens ? ` (input_tokens ${s.inputTokens})` : ""
      }`;
    case "tool_use":
      return `tool_use ${s.name}(${
        s.name === "Bash"
          ? JSON.stringify(s.input.command)
          : JSON.stringify(String(s.input.file_path ?? "").split("/").pop())
      })`;
    case "error":
      return `HTTP ${s.status}${
        s.times === Infinity ? " on every request" : s.times ? ` ×${s.times}` : ""
      }`;
    case "hang":
      return "hang";
    case "computed":
      return "a reply chosen from the request";
  }
  return "?";
}

/** The number of a prompt's "No" option on screen (Bash prompts gained a 4th option in 2.1.332). */
function noOption(plain: string): string {
  const m = /([0-9])\. No\b/.exec(plain);
  if (!m) throw new Error(`no "N. No" option on the screen:\n${plain}`);
  return m[1];
}

/** Type a prompt and submit it. */
async function submit(ctx: ScenarioContext, c: ClaudeSession, text: string) {
  ctx.step(`type ${JSON.stringify(text)}, Enter`);
  await c.pane.type(text);
  await sleep(300);
  await c.pane.keys("Enter");
}

async function press(ctx: ScenarioContext, c: ClaudeSession, ...keys: string[]) {
  ctx.step(`press ${keys.join(", ")}`);
  await c.pane.keys(...keys);
}

const bash = (command: string, description: string, text?: string): AnthropicStep => ({
  kind: "tool_use",
  name: "Bash",
  input: { command, description },
  ...(text ? { text } : {}),
});

const READY = "? for shortcuts";
/** Ready in any mode: the manual footer's hint, or a mode footer ("⏵⏵ auto mode on (shift+tab to cycle)"). */
const READY_ANY = (plain: string) => {
  const tail = plain.trimEnd().split("\n").slice(-3).join("\n");
  return tail.includes(READY) || tail.includes("shift+tab to cycle");
};
/** Not read-only (so it asks), prints one line (so the answered screen shows output). */
const LONG_CMD =
  "find . -name '*.ts' -not -path './node_modules/*' -newer package.json -exec grep -l 'TODO(release)' {} + | sort | tee todo-files.txt";
const BUILD_CMD = `node -e "console.log('build check ok: 3 files')"`;
const PROCEED = "Do you want to proceed?";
/** A user's custom status line (settings.statusLine), as many real setups have one. */
const STATUS_LINE = "feature/login | ctx 12%";
const STATUS_LINE_CMD = `printf '%s' '${STATUS_LINE}'`;
/** Several lines, each longer than a narrow pane (issue 21): not read-only, so it asks. */
const MULTILINE_CMD = [
  "find . -name '*.ts' -not -path './node_modules/*' -exec grep -l 'TODO(release)' {} + > todo-files.txt",
  "wc -l < todo-files.txt | tee todo-count.txt && sort todo-files.txt | uniq -c | sort -rn | head -n 20",
  'echo "release todos collected in $(pwd)/todo-files.txt"',
].join("\n");
/**
 * A decorated status line (issue 21): `|`, `✓`, `%`, `$` and the words "limit" and "error" that
 * belong to the user's setup (a CI check, a lint count, a budget), never to the CLI's own state.
 */
const DECOR_LINE = "main ✓ | ctx 37% | $0.42 | budget limit 80% | 0 lint errors";
const DECOR_MARK = "budget limit 80%";
const DECOR_LINE_CMD = `printf '%s' '${DECOR_LINE}'`;
/**
 * Inline code that runs a command (issue 25): no danger rule can read it, so it is opaque. Had it
 * been approved, it would leave `opaque-ran.txt` in the project.
 */
const EVAL_CMD = `node -e "require('child_process').execSync('touch opaque-ran.txt')"`;
/** Runs two minutes, prints one line; asks for permission (unlike `sleep` in 2.1.197). */
const SLOW_CMD = `node -e "setTimeout(() => console.log('done'), 120000)"`;

/** Slow enough to stay busy for minutes; the scenario interrupts or abandons it. */
const SLOW: AnthropicStep = {
  kind: "text",
  text: "Reading the notes one line at a time and summarising each of them carefully. ".repeat(30),
  chunkDelayMs: 500,
  chunkSize: 6,
};

/** Ordinary turns before `/compact` (with fewer messages it says "Not enough messages to compact."). */
const TURNS: Array<[string, string]> = [
  ["summarise the notes", "The notes are summarised."],
  ["list the open questions", "There are two open questions."],
  ["draft the release note", "The release note is drafted."],
];

/** The activity line while `/compact` runs (both pinned versions). */
const COMPACTING = "Compacting conversation…";
/** What the summary step serves a turn that is not the summary request: a readable failure. */
const NOT_SUMMARY = "(lab stand-in: this turn is not the /compact summary request)";
/**
 * The summary, served only to the request `/compact` sends (its last user text asks for "a
 * detailed summary of the conversation so far"), slowly: 13 chunks 1.5 s apart (~20 s), so the
 * capture lands mid-compaction.
 */
const SUMMARY: AnthropicStep = {
  kind: "computed",
  from: (body) =>
    lastUserTexts(body).some((t) => t.includes("detailed summary of the conversation so far"))
      ? {
        kind: "text",
        text: "<summary>The user asked for the notes to be summarised; they were.</summary>",
        chunkDelayMs: 1500,
        chunkSize: 6,
      }
      : { kind: "text", text: NOT_SUMMARY },
};

const scenarios: LabScenario[] = [
  // The standard scenarios `drover verify` runs (ready, typed input, the shell prompt approved
  // through the gate and its output, the file prompt rejected with Escape, narration, busy and
  // interrupted, retrying, auth failure, out of credit): one table, lib/scenarios/tables/claude.ts.
  ...tableScenarios("claude"),
  {
    name: "pasted-text",
    async run(ctx) {
      await using c = await claude(ctx);
      ctx.step("bracketed paste (tmux paste-buffer -p) of 12 lines, no Enter");
      await c.pane.paste(
        Array.from({ length: 12 }, (_, i) => `line ${i + 1} of the pasted build log`).join("\n"),
      );
      await ctx.screen(c.pane, "pasted-text", {
        state: "idle",
        defining: ["[Pasted text #1"],
      });
    },
  },
  {
    name: "bash-prompt-npm",
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [bash("npm run build", "Build the project"), { kind: "text", text: "unused" }],
      });
      await submit(ctx, c, "build the project");
      await ctx.screen(c.pane, "bash-prompt-npm", {
        state: "prompt",
        defining: ["npm run build", PROCEED, "don’t ask again for: npm run *"],
        expect: { command: "npm run build" },
      });
      await press(ctx, c, noOption(await c.pane.capturePlain()));
      await ctx.screen(c.pane, "bash-rejected", {
        state: "idle",
        defining: ["Interrupted · What should Claude do instead?", READY],
      });
    },
  },
  {
    name: "bash-prompt-dir",
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [bash("touch hello.txt", "Create an empty file"), {
          kind: "text",
          text: "Created.",
        }],
      });
      await submit(ctx, c, "create hello.txt");
      await ctx.screen(c.pane, "bash-prompt-dir", {
        state: "prompt",
        defining: ["touch hello.txt", PROCEED, "always allow access to"],
        expect: { command: "touch hello.txt" },
      });
    },
  },
  {
    name: "bash-prompt-long",
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [bash(LONG_CMD, "List TypeScript files with release TODOs"), {
          kind: "text",
          text: "unused",
        }],
      });
      await submit(ctx, c, "find the release todos");
      await ctx.screen(c.pane, "bash-prompt-long", {
        state: "prompt",
        // No "don't ask again" grant is offered for `find -exec`; wraps at 80 columns.
        defining: [
          "Bash command",
          PROCEED,
          "1. Yes",
          atLeast(ctx.version, "2.1.332") ? "3. No" : "2. No",
        ],
        // 2.1.332 offers "2. Yes, and switch to auto mode": a permissive mode switch is a broad grant.
        expect: { broad_grant_option: atLeast(ctx.version, "2.1.332") ? 2 : null },
      });
    },
  },
  {
    // Issue 21: a long multi-line command at a permission prompt in a narrow and a wide pane — at
    // 60 columns it wraps inside the prompt and the prompt may scroll; at 200 every line fits.
    name: "bash-prompt-multiline",
    sizes: [{ cols: 60, rows: 20 }, { cols: 200, rows: 50 }],
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [bash(MULTILINE_CMD, "Collect release TODOs and count them"), {
          kind: "text",
          text: "unused",
        }],
      });
      await submit(ctx, c, "collect the release todos");
      await ctx.screen(c.pane, "bash-prompt-multiline", {
        state: "prompt",
        defining: [PROCEED, "1. Yes", atLeast(ctx.version, "2.1.332") ? "3. No" : "2. No"],
      });
    },
  },
  {
    // Issue 25: `node -e` allowlisted (and `node`) hands over a shell — drive must escalate the
    // real prompt as opaque and send nothing; the server's key log is the proof.
    name: "bash-prompt-node-eval",
    keyLog: true,
    timeoutMs: 180_000,
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [bash(EVAL_CMD, "Check the build"), { kind: "text", text: "unused" }],
      });
      await submit(ctx, c, "check the build");
      await ctx.screen(c.pane, "bash-prompt-node-eval", {
        state: "prompt",
        defining: [EVAL_CMD, PROCEED, "1. Yes"],
        expect: { command: EVAL_CMD, permission_prompt: true },
        notes: "inline code: `drive --once --approve allowlist --allow 'node -e' --allow node` " +
          "escalates it (verdict opaque:node -e) and the server's key log shows no key sent",
      });
      const orch = (await ctx.lab.tmux(
        "new-window",
        "-d",
        "-P",
        "-F",
        "#{pane_id}",
        "-t",
        `${c.pane.session}:`,
        "sleep 86400",
      )).trim();
      const state = await ctx.lab.tmpDir("drive-state");
      const allow = ["--approve", "allowlist", "--allow", "node -e", "--allow", "node"];
      const turns = c.api.mainRequests().length;
      const mark = (await ctx.lab.keyLog()).keys.length;
      ctx.log(`drover drive --once ${allow.join(" ")} --orchestrator ${orch}`);
      const d = await driveOnce(ctx, c, state, ["--orchestrator", orch, ...allow]);
      const esc = d.events.filter((e) => e.event === "escalated" && e.pane === c.pane.id);
      if (d.run.code !== 0 || esc.length !== 1 || esc[0].verdict !== "opaque:node -e") {
        ctx.fail(
          `expected one opaque:node -e escalation: exit ${d.run.code}, events ${
            JSON.stringify(d.events.map((e) => [e.event, e.verdict]))
          }\n${d.run.stderr}`,
        );
      }
      if (esc[0].command !== EVAL_CMD) ctx.fail(`escalated ${JSON.stringify(esc[0].command)}`);
      if (d.events.some((e) => e.event === "approved")) ctx.fail("the inline code was approved");
      await sleep(1500);
      const keys = (await ctx.lab.keyLog()).keys.slice(mark);
      if (keys.length !== 0) ctx.fail(`drive sent keys: ${JSON.stringify(keys)}`);
      ctx.log("key log: [] (drive on the node -e prompt)");
      const after = await c.pane.capturePlain();
      if (!after.includes(PROCEED) || !after.includes(EVAL_CMD)) {
        ctx.fail(`the prompt did not stay untouched:\n${after}`);
      }
      if (c.api.mainRequests().length !== turns) ctx.fail("the prompt was answered");
      try {
        await Deno.stat(`${c.project}/opaque-ran.txt`);
        ctx.fail("the inline code ran");
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
    },
  },
  {
    name: "bash-prompt-accept-edits",
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [bash("npm run build", "Build the project"), { kind: "text", text: "unused" }],
      });
      await press(ctx, c, "BTab");
      await c.pane.waitFor("accept edits on");
      await submit(ctx, c, "build the project");
      await ctx.screen(c.pane, "bash-prompt-accept-edits", {
        state: "prompt",
        defining: ["npm run build", PROCEED, "1. Yes"],
        expect: { command: "npm run build" },
      });
    },
  },
  {
    name: "model-picker",
    async run(ctx) {
      await using c = await claude(ctx);
      await submit(ctx, c, "/model");
      await ctx.screen(c.pane, "model-picker", {
        state: "dialog",
        defining: ["Select model", "1. Default (recommended)", "Esc to cancel"],
      });
    },
  },
  {
    name: "write-answered",
    async run(ctx) {
      await using c = await claude(ctx);
      c.api.push(
        {
          kind: "tool_use",
          name: "Write",
          input: { file_path: `${c.project}/report.md`, content: "# Report\n\nAll good.\n" },
        },
        { kind: "text", text: "Wrote report.md." },
      );
      await submit(ctx, c, "write a report");
      // The prompt itself is the table's file-prompt screen (lib/scenarios/tables/claude.ts).
      ctx.step("wait for the file prompt");
      // Settled first: a key pressed while the prompt is still drawing is lost (2.1.332).
      await c.pane.waitFor("Do you want to create report.md?", {
        timeoutMs: 30_000,
        stableMs: 700,
      });
      await press(ctx, c, "1");
      await ctx.screen(c.pane, "write-answered", {
        state: "idle",
        defining: ["Wrote 3 lines to report.md", "Wrote report.md.", READY],
      });
    },
  },
  {
    name: "edit-prompt",
    async run(ctx) {
      await using c = await claude(ctx, { files: { "notes.txt": "alpha\nbeta\ngamma\n" } });
      c.api.push(
        { kind: "tool_use", name: "Read", input: { file_path: `${c.project}/notes.txt` } },
        {
          kind: "tool_use",
          name: "Edit",
          input: { file_path: `${c.project}/notes.txt`, old_string: "beta", new_string: "delta" },
        },
        { kind: "text", text: "Edited notes.txt." },
      );
      await submit(ctx, c, "change beta to delta in notes.txt");
      await ctx.screen(c.pane, "edit-prompt", {
        state: "prompt",
        defining: ["Edit file", "Do you want to make this edit to notes.txt?", "1. Yes"],
        expect: { file_path: "notes.txt" },
      });
      await press(ctx, c, "1");
      await ctx.screen(c.pane, "edit-answered", {
        state: "idle",
        defining: ["Edited notes.txt.", READY],
      });
    },
  },
  {
    name: "modes",
    async run(ctx) {
      await using c = await claude(ctx);
      await press(ctx, c, "BTab");
      await ctx.screen(c.pane, "mode-accept-edits", {
        state: "idle",
        defining: ["accept edits on"],
        expect: { mode: "accept_edits" },
      });
      await press(ctx, c, "BTab");
      await ctx.screen(c.pane, "mode-plan", { state: "idle", defining: ["plan mode on"] });
      await press(ctx, c, "BTab");
      await ctx.screen(c.pane, "mode-auto", { state: "idle", defining: ["auto mode on"] });
    },
  },
  {
    name: "bypass",
    async run(ctx) {
      await using c = await claude(ctx, { bypass: true });
      // Numbered up to 2.1.197; un-numbered ("❯ No, exit" / "Yes, I accept") in 2.1.332.
      const warning = await ctx.screen(c.pane, "bypass-warning", {
        state: "dialog",
        defining: ["Bypass Permissions mode", "No, exit", "Yes, I accept"],
      });
      if (warning.plain.includes("2. Yes, I accept")) await press(ctx, c, "2");
      else await press(ctx, c, "Down", "Enter");
      await ctx.screen(c.pane, "bypass-ready", {
        state: "idle",
        defining: ["bypass permissions on"],
        expect: { approval: false },
      });
    },
  },
  {
    name: "first-run-trust",
    async run(ctx) {
      await using c = await claude(ctx, { firstRun: { trust: true } });
      // Numbered ("1. Yes, I trust this folder") in 2.1.197; un-numbered, "❯ No, exit" first, in 2.1.332.
      await ctx.screen(c.pane, "trust-dialog", {
        state: "dialog",
        defining: ["Yes, I trust this folder", "No, exit"],
      });
    },
  },
  {
    name: "first-run-api-key",
    async run(ctx) {
      await using c = await claude(ctx, { firstRun: { apiKey: true } });
      await ctx.screen(c.pane, "api-key-dialog", {
        state: "dialog",
        defining: [
          "Detected a custom API key",
          "Do you want to use this API key?",
          "No (recommended)",
        ],
      });
    },
  },
  {
    name: "first-run-theme",
    async run(ctx) {
      await using c = await claude(ctx, { firstRun: { theme: true } });
      await ctx.screen(c.pane, "theme-dialog", {
        state: "dialog",
        defining: ["Choose the text style", "Dark mode"],
        stableMs: 0, // the welcome art animates
      });
    },
  },
  {
    name: "busy-tool",
    async run(ctx) {
      // 2.1.332 blocks a long `sleep` ("use Monitor …"): a node timer stands in (and asks first).
      const cmd = atLeast(ctx.version, "2.1.332") ? SLOW_CMD : "sleep 120 && echo done";
      await using c = await claude(ctx, {
        script: [bash(cmd, "Wait for the build"), {
          kind: "text",
          text: "ok",
        }],
      });
      await submit(ctx, c, "wait for the build");
      // `sleep` is allowed without a prompt in 2.1.197; answer the prompt where one comes.
      const s = await c.pane.waitFor((p) => p.includes(PROCEED) || p.includes("Running…"), {
        timeoutMs: 30_000,
        stableMs: 500,
      });
      if (s.plain.includes(PROCEED)) await press(ctx, c, "1");
      ctx.step("wait while the command runs");
      await ctx.screen(c.pane, "busy-tool", {
        state: "busy",
        defining: [cmd, "esc to interrupt"],
        until: ["Running…", "esc to interrupt"],
        stableMs: 0,
      });
    },
  },
  {
    name: "question-picker",
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [{
          kind: "tool_use",
          name: "AskUserQuestion",
          input: {
            questions: [{
              question: "Which database should the service use?",
              header: "Database",
              multiSelect: false,
              options: [
                { label: "PostgreSQL", description: "Relational, the team knows it" },
                { label: "SQLite", description: "A single file, no server" },
              ],
            }],
          },
        }, { kind: "text", text: "ok" }],
      });
      await submit(ctx, c, "set up the database");
      await ctx.screen(c.pane, "question-picker", {
        state: "dialog",
        defining: ["Which database should the service use?", "PostgreSQL", "SQLite"],
      });
    },
  },
  {
    name: "context-nearly-full",
    async run(ctx) {
      await using c = await claude(ctx, {
        args: ["--model", "claude-sonnet-4-5"],
        script: [{ kind: "text", text: "Noted.", inputTokens: 152_000 }],
      });
      await submit(ctx, c, "remember this");
      await ctx.screen(c.pane, "context-nearly-full", {
        state: "idle",
        defining: ["Noted.", "context used"],
        until: ["Noted.", "context used", READY],
      });
    },
  },
  {
    name: "api-retrying-message",
    // The second attempt's screen is the table's retrying scenario (fixture api-retrying).
    since: "2.1.332",
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [{ kind: "error", status: 429, times: Infinity }],
      });
      await submit(ctx, c, "say hello");
      ctx.step("wait for the third retry");
      // 2.1.332 shows the API's own message from the third attempt on.
      await ctx.screen(c.pane, "api-retrying-message", {
        state: "busy",
        defining: ["429 This request would exceed", "retrying in", "esc to interrupt"],
        until: ["attempt 3/10", "esc to interrupt"],
        stableMs: 0,
        expect: { stream_error: "*" },
      });
    },
  },
  ...([[429, "final-429"], [529, "final-529"], [500, "final-500"]] as const).map((
    [status, name],
  ): LabScenario => ({
    name,
    async run(ctx) {
      await using c = await claude(ctx, {
        // Claude Code retries 10 times (about three minutes); the final screen is the same with fewer.
        env: { CLAUDE_CODE_MAX_RETRIES: "2" },
        script: [{ kind: "error", status, times: Infinity }],
      });
      await submit(ctx, c, "say hello");
      ctx.step("wait until the retries have run out and the input box is back");
      // (The auth failure, HTTP 401, is the table's auth-failure scenario: fixture auth-401.)
      await ctx.screen(c.pane, name, {
        state: "idle",
        defining: ["API Error", READY],
        timeoutMs: 60_000,
        notes:
          "retries exhausted on a transient error: back at the input box, the next turn may work",
      });
    },
  })),
  {
    name: "final-429-full-retries",
    sizes: [{ cols: 120, rows: 40 }],
    slow: true,
    timeoutMs: 330_000,
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [{ kind: "error", status: 429, times: Infinity }],
      });
      await submit(ctx, c, "say hello");
      ctx.step("wait out all 10 retries (about three minutes)");
      await ctx.screen(c.pane, "final-429-full-retries", {
        state: "idle",
        defining: ["API Error", READY],
        timeoutMs: 300_000,
        notes: "default retry count; compare with final-429 (CLAUDE_CODE_MAX_RETRIES=2)",
      });
    },
  },
  ...(
    [
      ["five_hour", "session-limit", "You've hit your session limit"],
      ["seven_day", "weekly-limit", "You've hit your weekly limit"],
    ] as const
  ).map(([claim, name, fullLine]): LabScenario => ({
    name,
    async run(ctx) {
      // 2.1.332 continues by itself at the reset (its own scenario, `*-limit-auto`); with that
      // setting off it offers the menu as 2.1.197 did. Its session limit reads "5-hour limit".
      const menu = atLeast(ctx.version, "2.1.332");
      const line: string = menu ? "You've hit your" : fullLine;
      await using c = await claude(ctx, {
        auth: "subscription",
        ...(menu ? { settings: { autoContinueAtUsageLimit: false } } : {}),
        script: [{
          kind: "error",
          status: 429,
          times: Infinity,
          message: "This request would exceed your account's rate limit. Please try again later.",
          headers: usageLimitHeaders(claim),
        }],
      });
      await submit(ctx, c, "say hello");
      const options = await ctx.screen(c.pane, `${name}-options`, {
        state: "unavailable",
        defining: [line, "What do you want to do?", "Stop and wait for limit to reset"],
        notes:
          `subscription login (CLAUDE_CODE_OAUTH_TOKEN, fake); HTTP 429 with unified rate-limit ` +
          `headers, representative claim ${claim}; the CLI opens /rate-limit-options by itself`,
      });
      const wait = /([0-9])\. Stop and wait for limit to reset/.exec(options.plain);
      await press(ctx, c, wait ? wait[1] : "1");
      await ctx.screen(c.pane, name, {
        state: "unavailable",
        defining: [line, READY],
      });
    },
  })),
  ...(
    [
      ["five_hour", "session-limit-auto"],
      ["seven_day", "weekly-limit-auto"],
    ] as const
  ).map(([claim, name]): LabScenario => ({
    name,
    since: "2.1.332",
    async run(ctx) {
      await using c = await claude(ctx, {
        auth: "subscription",
        script: [{
          kind: "error",
          status: 429,
          times: Infinity,
          message: "This request would exceed your account's rate limit. Please try again later.",
          headers: usageLimitHeaders(claim),
        }],
      });
      await submit(ctx, c, "say hello");
      await ctx.screen(c.pane, name, {
        state: "unavailable",
        defining: ["You've hit your", "Usage limit reached", "Continuing automatically at"],
        notes: `subscription login (fake token); HTTP 429 with unified rate-limit headers, claim ` +
          `${claim}; "Continue automatically at usage limit" is on by default`,
      });
    },
  })),
  // ---- Screens every version has, beyond issue 2's set (issue 10) ----
  {
    name: "statusline",
    async run(ctx) {
      // A user status line (settings.statusLine) replaces the footer's hints in 2.1.197 — no
      // "esc to interrupt" while busy: the spinner line must carry the busy verdict alone.
      await using c = await claude(ctx, {
        settings: { statusLine: { type: "command", command: STATUS_LINE_CMD } },
        waitFor: STATUS_LINE,
        script: [SLOW],
      });
      await ctx.screen(c.pane, "statusline-ready", {
        state: "idle",
        defining: [STATUS_LINE],
        expect: { mid_response: false },
      });
      await submit(ctx, c, "summarise the notes");
      ctx.step("wait while the reply streams slowly");
      await ctx.screen(c.pane, "statusline-busy", {
        state: "busy",
        defining: [STATUS_LINE],
        until: (p) => p.includes(STATUS_LINE) && /… \([0-9]+s/.test(p),
        stableMs: 0,
        expect: { mid_response: true },
      });
    },
  },
  {
    // Issue 21: a status line as users write them — branch, a check mark, cost, context %, and the
    // words "limit" and "error" that describe the user's own tooling, not the CLI's state.
    name: "statusline-decor",
    sizes: [{ cols: 80, rows: 24 }, { cols: 60, rows: 20 }, { cols: 200, rows: 50 }],
    async run(ctx) {
      await using c = await claude(ctx, {
        settings: { statusLine: { type: "command", command: DECOR_LINE_CMD } },
        waitFor: DECOR_MARK,
        script: [SLOW],
      });
      await ctx.screen(c.pane, "statusline-decor-ready", {
        state: "idle",
        defining: [DECOR_MARK],
        expect: { mid_response: false },
      });
      await submit(ctx, c, "summarise the notes");
      ctx.step("wait while the reply streams slowly");
      await ctx.screen(c.pane, "statusline-decor-busy", {
        state: "busy",
        defining: [DECOR_MARK],
        until: (p) => p.includes(DECOR_MARK) && /… \([0-9]+s/.test(p),
        stableMs: 0,
        expect: { mid_response: true },
      });
    },
  },
  // Issue 21: the light and colour-blind themes change only colours; the styled capture is what
  // drive reads, so each is recorded ready, at a prompt, and busy.
  ...["light", "dark-daltonized"].map((theme): LabScenario => ({
    name: `theme-${theme}`,
    sizes: [{ cols: 80, rows: 24 }],
    async run(ctx) {
      await using c = await claude(ctx, {
        theme,
        script: [bash(LONG_CMD, "List TypeScript files with release TODOs"), SLOW],
      });
      ctx.step(`HOME/.claude.json answers the theme question with "${theme}"`);
      await ctx.screen(c.pane, `theme-${theme}-ready`, { state: "idle", defining: [READY] });
      await submit(ctx, c, "find the release todos");
      await ctx.screen(c.pane, `theme-${theme}-prompt`, {
        state: "prompt",
        defining: [PROCEED, "1. Yes"],
      });
    },
  })),
  // No colour at all: a user's NO_COLOR, or a CI variable the pane inherits from the tmux server
  // (the CLI's colour library then draws plain text). Nothing is dim or grey, so the prompt's
  // description line looks like one more command line and the placeholder like typed text.
  ...([["no-color", { NO_COLOR: "1" }], ["ci-env", { CI: "true" }]] as const).map((
    [tag, env],
  ): LabScenario => ({
    name: `monochrome-${tag}`,
    async run(ctx) {
      await using c = await claude(ctx, {
        env: { ...env },
        script: [bash("touch review-notes.md", "Start the review notes"), {
          kind: "text",
          text: "Started.",
        }],
      });
      await ctx.screen(c.pane, `monochrome-${tag}-ready`, { state: "idle", defining: [READY] });
      await submit(ctx, c, "start the review notes");
      await ctx.screen(c.pane, `monochrome-${tag}-prompt`, {
        state: "prompt",
        defining: ["touch review-notes.md", PROCEED, "1. Yes"],
        expect: { command: "touch review-notes.md" },
      });
    },
  })),
  {
    name: "bypass-busy",
    async run(ctx) {
      await using c = await claude(ctx, { bypass: true, script: [SLOW] });
      const warning = await c.pane.waitFor(["Bypass Permissions mode", "Yes, I accept"], {
        timeoutMs: 45_000,
        stableMs: 600,
      });
      if (warning.plain.includes("2. Yes, I accept")) await press(ctx, c, "2");
      else await press(ctx, c, "Down", "Enter");
      await c.pane.waitFor("bypass permissions on", { timeoutMs: 30_000, stableMs: 600 });
      await submit(ctx, c, "summarise the notes");
      ctx.step("wait while the reply streams slowly");
      await ctx.screen(c.pane, "bypass-busy", {
        state: "busy",
        defining: ["bypass permissions on"],
        until: (p) => p.includes("bypass permissions on") && /… \([0-9]+s/.test(p),
        stableMs: 0,
        expect: { mode: "bypass", mid_response: true },
      });
    },
  },
  {
    name: "plan-exit",
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [
          {
            kind: "tool_use",
            name: "ExitPlanMode",
            input: { plan: "1. Add a build script\n2. Run the tests" },
          },
          { kind: "text", text: "unused" },
        ],
      });
      // One mode step at a time: two presses sent together lost the second under load (CI lab,
      // load ~20: the footer stayed at "accept edits on").
      await press(ctx, c, "BTab");
      await c.pane.waitFor("accept edits on", { timeoutMs: 20_000, stableMs: 300 });
      await press(ctx, c, "BTab");
      await c.pane.waitFor("plan mode on", { timeoutMs: 20_000, stableMs: 500 });
      await submit(ctx, c, "plan the build");
      ctx.step("wait for the exit-plan-mode question (the ExitPlanMode tool call)");
      await ctx.screen(c.pane, "plan-exit", {
        state: "dialog",
        defining: ["plan mode", "1. Yes"],
        until: (p) => /plan mode\?/i.test(p) && /1\. Yes/.test(p),
        notes: "a mode switch offered as option 1: a dialog, never answered by drover",
      });
    },
  },
  // ---- Screens of the versions that start in auto mode (issue 10) ----
  {
    name: "auto-ready",
    since: AUTO_DEFAULT_SINCE,
    async run(ctx) {
      await using c = await claude(ctx, { permissions: "auto" });
      await ctx.screen(c.pane, "mode-auto-default", {
        state: "idle",
        defining: ["auto mode on"],
        expect: { mode: "auto" },
      });
    },
  },
  {
    name: "auto-default-notice",
    since: AUTO_DEFAULT_SINCE,
    async run(ctx) {
      await using c = await claude(ctx, {
        permissions: "auto",
        firstRun: { autoModeNotice: true },
        waitFor: READY_ANY,
      });
      await ctx.screen(c.pane, "auto-default-notice", {
        state: "idle",
        defining: ["Auto mode is now Claude Code's default permission mode.", "auto mode on"],
        expect: { mode: "auto" },
      });
    },
  },
  {
    name: "auto-mode-question",
    since: AUTO_DEFAULT_SINCE,
    async run(ctx) {
      await using c = await claude(ctx, { firstRun: { autoModeDefault: true } });
      await ctx.screen(c.pane, "auto-mode-question", {
        state: "dialog",
        defining: [
          "Make auto mode your default permission mode?",
          "Yes, set auto mode as my default permission mode",
          "No, keep manual mode",
        ],
        notes:
          'HOME settings.json has permissions.defaultMode = "default" and .claude.json lacks ' +
          "hasSeenAutoDefaultNudge; Enter would change the user's settings",
      });
    },
  },
  {
    name: "fullscreen-upsell",
    since: AUTO_DEFAULT_SINCE,
    async run(ctx) {
      await using c = await claude(ctx, { firstRun: { fullscreenUpsell: true } });
      await ctx.screen(c.pane, "fullscreen-upsell", {
        state: "dialog",
        defining: ["Try the new fullscreen renderer?", "1. Yes, try it", "2. Not now"],
        notes: ".claude.json without fullscreenUpsellSeenCount",
      });
    },
  },
  {
    name: "auto-cant-check",
    since: AUTO_DEFAULT_SINCE,
    async run(ctx) {
      await using c = await claude(ctx, {
        permissions: "auto",
        script: [bash(BUILD_CMD, "Run the build check"), {
          kind: "text",
          text: "The build check passed.",
        }],
      });
      await submit(ctx, c, "run the build check");
      await ctx.screen(c.pane, "auto-cant-check", {
        state: "dialog",
        defining: ["Auto mode can't check actions in this session", "Enter to stay in auto mode"],
        notes: "the auto-mode safety check runs on Anthropic's servers; through the stand-in it " +
          "cannot, so the first action that needs it brings up this notice",
      });
      await press(ctx, c, "Enter");
      await ctx.screen(c.pane, "auto-no-first-prompt", {
        state: "prompt",
        defining: ["Bash command", PROCEED, "❯ No", "Yes"],
        until: (p) => p.includes(PROCEED) && /❯ No\b/.test(p),
        expect: { command: BUILD_CMD, permission_prompt: true },
        notes: "un-numbered choices, No first and selected: option 1 is a rejection",
      });
      await press(ctx, c, "Down", "Enter");
      await ctx.screen(c.pane, "auto-prompt-answered", {
        state: "idle",
        defining: ["build check ok: 3 files", "The build check passed.", "auto mode on"],
      });
    },
  },
  {
    name: "auto-busy",
    since: AUTO_DEFAULT_SINCE,
    async run(ctx) {
      await using c = await claude(ctx, { permissions: "auto", script: [SLOW] });
      await submit(ctx, c, "summarise the notes");
      ctx.step("wait while the reply streams slowly");
      await ctx.screen(c.pane, "auto-busy", {
        state: "busy",
        defining: ["auto mode on"],
        until: (p) => p.includes("auto mode on") && /… \([0-9]+s/.test(p),
        stableMs: 0,
        expect: { mode: "auto", mid_response: true },
      });
    },
  },
  {
    // Issue 21: the turn has ended but a background Bash task (run_in_background) still runs —
    // the screen names the pending shell; a supervisor must not read it as free (busy, never
    // nudged).
    name: "background-shell",
    async run(ctx) {
      await using c = await claude(ctx, {
        script: BACKGROUND_SHELL,
      });
      await submit(ctx, c, "wait for the release window in the background");
      await ctx.screen(c.pane, "background-shell", {
        state: "busy",
        defining: ["The wait runs in the background."],
        timeoutMs: 60_000,
        expect: { background: "1 shell", mid_response: false },
      });
    },
  },
  {
    // Issue 21: `/compact` while the summary still streams — a turn the user did not type, shown
    // only by the compacting activity line and the footer's interrupt hint: busy.
    name: "compacting",
    sizes: [{ cols: 80, rows: 24 }],
    async run(ctx) {
      await using c = await claude(ctx, {
        script: [...TURNS.map(([, text]): AnthropicStep => ({ kind: "text", text })), SUMMARY],
      });
      for (const [prompt, reply] of TURNS) {
        await submit(ctx, c, prompt);
        await c.pane.waitFor(reply, { timeoutMs: 60_000, stableMs: 700 });
      }
      await submit(ctx, c, "/compact");
      ctx.step(
        "the stand-in serves /compact's summary request a <summary> in 13 chunks 1.5 s apart; " +
          "wait for the compacting line, then 3 s more (mid-compaction, past its first frame)",
      );
      await c.pane.waitFor(COMPACTING, { timeoutMs: 30_000, stableMs: 0 });
      await sleep(3000);
      await ctx.screen(c.pane, "compacting", {
        state: "busy",
        defining: [COMPACTING],
        until: (p) => p.includes(COMPACTING),
        stableMs: 0,
        timeoutMs: 30_000,
        expect: { mid_response: true },
        failIf: (p) => p.includes(NOT_SUMMARY) || p.includes("Not enough messages to compact"),
      });
    },
  },
];

export const suite: LabSuite = {
  name: "claude-screens",
  profile: "claude",
  versions: () => pinnedCliVersions("claude-code"),
  fixtures: {
    cli: "claude-code",
    version: async () => (await resolveCli("claude-code")).version,
    setup: [
      "binary: tests/lab/clis/node_modules/@anthropic-ai/claude-code-linux-x64/claude, run directly",
      "environment: only PATH, TERM=tmux-256color, LANG=LC_ALL=C.UTF-8, COLORTERM=truecolor, a throwaway HOME, " +
      "ANTHROPIC_BASE_URL=<stand-in on 127.0.0.1>, ANTHROPIC_API_KEY=" + LAB_API_KEY.slice(0, 12) +
      "…, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1, DISABLE_AUTOUPDATER=1 (plus what a scenario's steps name)",
      "HOME/.claude.json answers the first-run questions (onboarding + theme, API key approval, folder trust) " +
      "unless a scenario leaves one out to record its dialog",
      "model API: lib/scenarios/standins/anthropic.ts, replies chosen by each scenario's script (listed in its first step)",
    ],
  },
  scenarios,
};
