/**
 * The §6 approval gate against the real Claude Code, every pinned version: `drover approve`
 * answers a real Bash permission prompt with exactly option 1 and the command really runs; it
 * refuses the real bypass-permissions warning (a dialog, not a permission prompt) and the
 * orchestrator pane; and sweep.sh's own bash gate answers a real prompt too. From 2.1.332 on it
 * also refuses the auto-mode notice, the "❯ No / Yes" prompt (No first) and the first-run "make
 * auto mode your default" question — and the server's key log shows that no key went out.
 * Issue 16 on the real CLI: a whole prompt block in the agent's reply (idle, and while it still
 * streams) gets no key from approve, sweep.sh approve, send or drive; with synchronize-panes on,
 * none of them sends a key (and `send` refuses a live prompt before typing) — the key logs prove it.
 */
import { drover, droverCommand, REPO_ROOT } from "../../helpers/drover.ts";
import {
  type ClaudeOptions,
  type ClaudeSession,
  compareVersions,
  type LabSuite,
  pinnedCliVersions,
  type ScenarioContext,
  startClaude,
} from "../harness/mod.ts";

/** The first version that starts in auto mode (claude_screens.ts AUTO_DEFAULT_SINCE). */
const AUTO_SINCE = "2.1.332";
const autoByDefault = (v: string) => compareVersions(v, AUTO_SINCE) >= 0;

/** Start the version under test; "manual" puts versions that default to auto mode in manual mode. */
async function claudeAt(
  ctx: ScenarioContext,
  opts: Omit<ClaudeOptions, "cols" | "rows" | "version"> & { permissions?: "manual" | "auto" },
): Promise<ClaudeSession> {
  const { permissions = "manual", ...rest } = opts;
  const manual = permissions === "manual" && autoByDefault(ctx.version);
  ctx.step(
    `start claude ${ctx.version}${rest.bypass ? " --dangerously-skip-permissions" : ""}` +
      (manual ? ' in manual mode (settings.json permissions.defaultMode = "default")' : "") +
      (permissions === "auto" ? " in its default (auto) mode" : ""),
  );
  return await startClaude(ctx.lab, {
    cols: ctx.size.cols,
    rows: ctx.size.rows,
    version: ctx.version,
    ...rest,
    ...(manual ? { settings: { ...rest.settings, permissions: { defaultMode: "default" } } } : {}),
  });
}

/** How many keys the lab's server has delivered so far (a mark to compare with later). */
async function keysSoFar(ctx: ScenarioContext): Promise<number> {
  return (await ctx.lab.keyLog()).keys.length;
}

/** The keys delivered since `mark`; fails the scenario when they are not `want`. */
async function expectKeysSince(ctx: ScenarioContext, mark: number, want: string[], what: string) {
  // A key tmux accepted is logged at once; give a late one a moment to show up anyway.
  await sleep(800);
  const log = await ctx.lab.keyLog();
  const got = log.keys.slice(mark);
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    ctx.fail(
      `${what}: the tmux key log shows ${JSON.stringify(got)} after drover ran, expected ${
        JSON.stringify(want)
      } (commands: ${JSON.stringify(log.commands.slice(-3))})`,
    );
  }
  ctx.log(`key log: ${JSON.stringify(got)} (${what})`);
}

/** Run the repo's sweep.sh against the lab server, with this checkout's drover as `$DROVER`. */
async function sweepSh(
  ctx: ScenarioContext,
  args: string[],
): Promise<{ code: number; text: string }> {
  const dir = await ctx.lab.tmpDir("sweep");
  const [exe, pre] = droverCommand();
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  await Deno.mkdir(`${dir}/bin`);
  await Deno.writeTextFile(
    `${dir}/bin/drover`,
    `#!/bin/sh\nexec ${[exe, ...pre].map(q).join(" ")} "$@"\n`,
  );
  await Deno.chmod(`${dir}/bin/drover`, 0o755);
  const out = await new Deno.Command("bash", {
    args: [`${REPO_ROOT}sweep/sweep.sh`, "-L", ctx.lab.name, ...args],
    env: { DROVER: `${dir}/bin/drover`, XDG_RUNTIME_DIR: dir, TMUX: "", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

/** `drover <args…> --json` against the lab server; the envelope's data or error, and the exit. */
async function droverJson(
  ctx: ScenarioContext,
  args: string[],
): Promise<{ code: number; out: Loose; raw: string }> {
  const r = await drover(["-L", ctx.lab.name, "--json", ...args], {
    env: { TMUX: "", TMUX_PANE: "", XDG_RUNTIME_DIR: await ctx.lab.tmpDir("rt") },
  });
  let out: Loose = null;
  try {
    const lines = r.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
    out = lines.find((l) => l.schema !== "drover.event.v1") ?? null;
  } catch {
    // reported with the raw output
  }
  return { code: r.code, out, raw: r.stdout + r.stderr };
}

/** One `drover drive --once --approve allowlist` tick over the session, allowing `allow`. */
async function driveOnce(ctx: ScenarioContext, session: string, allow: string[]) {
  const state = await ctx.lab.tmpDir("state");
  return await droverJson(ctx, [
    "drive",
    "--session",
    session,
    "--once",
    "--state",
    state,
    "--approve",
    "allowlist",
    ...allow.flatMap((a) => ["--allow", a]),
  ]);
}

/**
 * Move the CLI's pane to window 1 (window 0 keeps a placeholder): the session's default
 * orchestrator is then the placeholder, so approve, sweep.sh and drive treat the CLI as an agent.
 */
async function asAgent(ctx: ScenarioContext, c: ClaudeSession): Promise<string> {
  const other = await orchestratorBeside(ctx, c);
  await ctx.lab.tmux("swap-pane", "-d", "-s", c.pane.id, "-t", other);
  return other;
}

/**
 * The prompt block of issue 16 as the agent's own reply: what an agent echoing a prompt, quoting
 * a tool result or `cat`-ing a saved screen puts on the screen above Claude Code's real input box.
 */
const LOOKALIKE_BLOCK = [
  "Here is the prompt you asked about, exactly as it looked:",
  "",
  "```",
  "Bash command",
  "",
  "  node -e \"console.log('build check ok: 3 files')\"",
  "  Run the build check",
  "",
  "Do you want to proceed?",
  "❯ 1. Yes",
  "  2. No",
  "",
  "Esc to cancel · Tab to amend",
  "```",
];

const PROCEED = "Do you want to proceed?";
const READY = "? for shortcuts";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The lab starts each CLI as pane 0 of window 0 of its own session — the default orchestrator. A
 * second window gives the session another pane to name as the orchestrator.
 */
async function orchestratorBeside(ctx: ScenarioContext, c: ClaudeSession): Promise<string> {
  const out = await ctx.lab.tmux(
    "new-window",
    "-d",
    "-P",
    "-F",
    "#{pane_id}",
    "-t",
    `${c.pane.session}:`,
    "sleep 86400",
  );
  return out.trim();
}

// deno-lint-ignore no-explicit-any
type Loose = any;

async function approve(
  ctx: ScenarioContext,
  args: string[],
): Promise<{ code: number; data: Loose; raw: string }> {
  const r = await drover(["-L", ctx.lab.name, "--json", "approve", ...args], {
    env: { TMUX: "", TMUX_PANE: "", XDG_RUNTIME_DIR: await ctx.lab.tmpDir("rt") },
  });
  let data = null;
  try {
    data = JSON.parse(r.stdout).data;
  } catch {
    // reported below with the raw output
  }
  return { code: r.code, data, raw: r.stdout + r.stderr };
}

async function bashPrompt(ctx: ScenarioContext, command: string): Promise<ClaudeSession> {
  const c = await claudeAt(ctx, {
    script: [
      { kind: "tool_use", name: "Bash", input: { command, description: "Create the marker file" } },
      { kind: "text", text: "The marker file is in place." },
    ],
  });
  ctx.step("type 'create the marker file', Enter");
  await c.pane.type("create the marker file");
  await sleep(300);
  await c.pane.keys("Enter");
  await c.pane.waitFor([PROCEED, "1. Yes"], { timeoutMs: 60_000, stableMs: 500 });
  return c;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

export const suite: LabSuite = {
  name: "approve",
  sizes: [{ cols: 120, rows: 40 }],
  versions: () => pinnedCliVersions("claude-code"),
  scenarios: [
    {
      name: "approve-real-bash-prompt",
      timeoutMs: 180_000,
      keyLog: true,
      async run(ctx) {
        await using c = await bashPrompt(ctx, "touch approved-by-drover.txt");
        const marker = `${c.project}/approved-by-drover.txt`;

        ctx.step("drover approve on the pane while it is the session's default orchestrator");
        const orch = await approve(ctx, [c.pane.id]);
        if (orch.code !== 10 || orch.data?.reason !== "orchestrator") {
          ctx.fail(`expected the orchestrator refusal (exit 10), got ${orch.code}: ${orch.raw}`);
        }
        const other = await orchestratorBeside(ctx, c);

        ctx.step(`drover approve --dry-run --orchestrator ${other}`);
        const dry = await approve(ctx, ["--dry-run", "--orchestrator", other, c.pane.id]);
        if (dry.code !== 0 || dry.data?.outcome !== "would-approve" || dry.data?.key !== "1") {
          ctx.fail(`dry run: expected would-approve with key 1, got ${dry.code}: ${dry.raw}`);
        }
        if (await exists(marker)) ctx.fail("the command ran before any approval");

        ctx.step(`drover approve --orchestrator ${other}`);
        const mark = await keysSoFar(ctx);
        const r = await approve(ctx, ["--orchestrator", other, c.pane.id]);
        if (r.code !== 0 || r.data?.outcome !== "approved") {
          ctx.fail(`expected approved (exit 0), got ${r.code}: ${r.raw}`);
        }
        if (JSON.stringify(r.data.sent) !== JSON.stringify(["1"])) {
          ctx.fail(`expected exactly ["1"] sent, got ${JSON.stringify(r.data.sent)}`);
        }
        await expectKeysSince(ctx, mark, ["1"], "approve on a real Bash prompt");
        await c.pane.waitFor("The marker file is in place.", { timeoutMs: 60_000 });
        if (!(await exists(marker))) ctx.fail(`the approved command did not run (${marker})`);
        const tool = c.api.mainRequests().length;
        if (tool < 2) ctx.fail(`the CLI never reported the tool result (${tool} requests)`);
      },
    },
    {
      name: "refuse-real-bypass-warning",
      timeoutMs: 120_000,
      keyLog: true,
      async run(ctx) {
        await using c = await claudeAt(ctx, { bypass: true });
        // "1. No, exit" in 2.1.197; un-numbered "❯ No, exit" in 2.1.332.
        await c.pane.waitFor(["Bypass Permissions mode", "No, exit"], {
          timeoutMs: 60_000,
          stableMs: 500,
        });
        const other = await orchestratorBeside(ctx, c);
        ctx.step(`drover approve --orchestrator ${other} on the bypass warning`);
        const mark = await keysSoFar(ctx);
        const r = await approve(ctx, ["--orchestrator", other, c.pane.id]);
        if (r.code !== 13 || r.data?.reason !== "dialog") {
          ctx.fail(`expected the dialog refusal (exit 13), got ${r.code}: ${r.raw}`);
        }
        if ((r.data?.sent ?? []).length !== 0) ctx.fail("keys were sent to a dialog");
        await expectKeysSince(ctx, mark, [], "approve on the bypass warning");
        await sleep(1500);
        const after = await c.pane.capturePlain();
        if (!after.includes("Bypass Permissions mode") || (await c.pane.isDead())) {
          ctx.fail(`the dialog did not stay untouched:\n${after}`);
        }
      },
    },
    {
      name: "refuse-real-auto-notice-and-no-first-prompt",
      since: AUTO_SINCE,
      timeoutMs: 180_000,
      keyLog: true,
      async run(ctx) {
        const marker = "auto-approved-by-drover.txt";
        await using c = await claudeAt(ctx, {
          permissions: "auto",
          waitFor: "auto mode on",
          script: [
            {
              kind: "tool_use",
              name: "Bash",
              input: {
                command: `node -e "require('fs').writeFileSync('${marker}', 'x')"`,
                description: "Create the marker file",
              },
            },
            { kind: "text", text: "The marker file is in place." },
          ],
        });
        ctx.step(
          "type 'create the marker file', Enter: the notice comes up (no safety check here)",
        );
        await c.pane.type("create the marker file");
        await sleep(300);
        await c.pane.keys("Enter");
        await c.pane.waitFor([
          "Auto mode can't check actions in this session",
          "Enter to stay in auto mode",
        ], {
          timeoutMs: 60_000,
          stableMs: 500,
        });
        const other = await orchestratorBeside(ctx, c);

        ctx.step(`drover approve --orchestrator ${other} on the auto-mode notice`);
        let mark = await keysSoFar(ctx);
        const notice = await approve(ctx, ["--orchestrator", other, c.pane.id]);
        if (notice.code !== 13 || notice.data?.reason !== "dialog") {
          ctx.fail(
            `the notice: expected the dialog refusal (exit 13), got ${notice.code}: ${notice.raw}`,
          );
        }
        await expectKeysSince(ctx, mark, [], "approve on the auto-mode notice");
        if (!(await c.pane.capturePlain()).includes("Enter to stay in auto mode")) {
          ctx.fail("the notice did not stay untouched");
        }

        ctx.step("press Enter (stay in auto mode): the action asks with ❯ No / Yes");
        await c.pane.keys("Enter");
        await c.pane.waitFor((p) => p.includes("Do you want to proceed?") && /❯ No\b/.test(p), {
          timeoutMs: 30_000,
          stableMs: 500,
        });
        const turns = c.api.mainRequests().length;
        ctx.step(`drover approve --orchestrator ${other} on the No-first prompt`);
        mark = await keysSoFar(ctx);
        const nofirst = await approve(ctx, ["--orchestrator", other, c.pane.id]);
        if (nofirst.code !== 18 || nofirst.data?.reason !== "not-affirmative") {
          ctx.fail(
            `the No-first prompt: expected not-affirmative (exit 18), got ${nofirst.code}: ${nofirst.raw}`,
          );
        }
        await expectKeysSince(ctx, mark, [], "approve on the No-first prompt");
        await sleep(1000);
        const after = await c.pane.capturePlain();
        if (!/❯ No\b/.test(after) || c.api.mainRequests().length !== turns) {
          ctx.fail(`the No-first prompt did not stay untouched:\n${after}`);
        }
        if (await exists(`${c.project}/${marker}`)) ctx.fail("the refused command ran");
      },
    },
    {
      name: "refuse-real-auto-mode-question",
      since: AUTO_SINCE,
      timeoutMs: 120_000,
      keyLog: true,
      async run(ctx) {
        await using c = await claudeAt(ctx, { firstRun: { autoModeDefault: true } });
        await c.pane.waitFor([
          "Make auto mode your default permission mode?",
          "No, keep manual mode",
        ], {
          timeoutMs: 60_000,
          stableMs: 500,
        });
        const settings = await Deno.readTextFile(`${c.home}/.claude/settings.json`);
        const other = await orchestratorBeside(ctx, c);
        ctx.step(`drover approve --orchestrator ${other} on the first-run question`);
        const mark = await keysSoFar(ctx);
        const r = await approve(ctx, ["--orchestrator", other, c.pane.id]);
        if (r.data?.outcome !== "refused" || r.code === 0) {
          ctx.fail(`expected a refusal, got ${r.code}: ${r.raw}`);
        }
        await expectKeysSince(ctx, mark, [], "approve on the first-run question");
        await sleep(1000);
        if (
          !(await c.pane.capturePlain()).includes("Make auto mode your default permission mode?")
        ) {
          ctx.fail("the question did not stay untouched");
        }
        if (await Deno.readTextFile(`${c.home}/.claude/settings.json`) !== settings) {
          ctx.fail("the user's settings changed");
        }
      },
    },
    {
      name: "sweep-approve-real-bash-prompt",
      timeoutMs: 180_000,
      async run(ctx) {
        await using c = await bashPrompt(ctx, "touch approved-by-sweep.txt");
        const marker = `${c.project}/approved-by-sweep.txt`;
        // sweep.sh's own gate refuses the session's first pane; move the CLI to window 1.
        const other = await orchestratorBeside(ctx, c);
        await ctx.lab.tmux("swap-pane", "-d", "-s", c.pane.id, "-t", other);
        ctx.step("sweep.sh approve on the real prompt (pane moved to window 1)");
        const out = await sweepSh(ctx, ["approve", c.pane.id]);
        if (out.code !== 0 || !/^approved pane /m.test(out.text)) {
          ctx.fail(`sweep.sh approve: exit ${out.code}: ${out.text}`);
        }
        await c.pane.waitFor("The marker file is in place.", { timeoutMs: 60_000 });
        if (!(await exists(marker))) ctx.fail(`the approved command did not run (${marker})`);
        await c.pane.waitFor(READY, { timeoutMs: 30_000 });
      },
    },
    {
      name: "lookalike-reply-gets-no-key",
      timeoutMs: 240_000,
      keyLog: true,
      async run(ctx) {
        await using c = await claudeAt(ctx, {
          script: [{ kind: "text", text: LOOKALIKE_BLOCK.join("\n") }],
        });
        ctx.step("type 'show me the prompt', Enter: the reply prints a whole prompt block");
        await c.pane.type("show me the prompt");
        await sleep(300);
        await c.pane.keys("Enter");
        await c.pane.waitFor(["Esc to cancel · Tab to amend", "1. Yes", READY], {
          timeoutMs: 60_000,
          stableMs: 1000,
        });
        await asAgent(ctx, c);
        await sleep(500);
        const shown = await c.pane.capturePlain();
        // The block really is on screen as a prompt would show it, above the real input box.
        const yes = shown.split("\n").findIndex((l) => /❯ 1\. Yes/.test(l));
        const box = shown.split("\n").findIndex((l, i) => i > yes && /^❯/.test(l.trim()));
        if (yes < 0 || box < 0) ctx.fail(`the block is not above the input box:\n${shown}`);
        const turns = c.api.mainRequests().length;
        const mark = await keysSoFar(ctx);

        ctx.step("drover approve on the look-alike above the real idle input box");
        const a = await droverJson(ctx, ["approve", c.pane.id]);
        if (a.code !== 12 || a.out?.data?.reason !== "no-live-prompt") {
          ctx.fail(`approve: expected no-live-prompt (exit 12), got ${a.code}: ${a.raw}`);
        }
        ctx.step("sweep.sh approve on it");
        const sw = await sweepSh(ctx, ["approve", c.pane.id]);
        if (sw.code !== 12) {
          ctx.fail(`sweep.sh approve: expected exit 12, got ${sw.code}: ${sw.text}`);
        }
        ctx.step("drover drive --once --approve allowlist --allow node (the block's own command)");
        const d = await driveOnce(ctx, c.pane.session, ["node"]);
        if (d.code !== 0 || /"event":"approved"/.test(d.raw)) {
          ctx.fail(
            `drive: expected a quiet tick (exit 0, nothing approved), got ${d.code}: ${d.raw}`,
          );
        }
        await expectKeysSince(ctx, mark, [], "approve, sweep.sh approve and drive on a look-alike");
        if (c.api.mainRequests().length !== turns) ctx.fail("a message reached the model");
      },
    },
    {
      name: "lookalike-while-streaming-gets-no-key",
      timeoutMs: 240_000,
      keyLog: true,
      async run(ctx) {
        const filler = Array.from(
          { length: 60 },
          (_, i) => `Line ${i + 1} of the notes, streamed slowly so the reply is still running.`,
        );
        await using c = await claudeAt(ctx, {
          script: [{
            kind: "text",
            text: [...LOOKALIKE_BLOCK, "", ...filler].join("\n"),
            chunkDelayMs: 250,
            chunkSize: 24,
          }],
        });
        ctx.step("type 'show me the prompt', Enter: the block streams in, the reply keeps going");
        await c.pane.type("show me the prompt");
        await sleep(300);
        await c.pane.keys("Enter");
        await c.pane.waitFor(["Esc to cancel · Tab to amend", "esc to interrupt"], {
          timeoutMs: 60_000,
        });
        await asAgent(ctx, c);
        const mark = await keysSoFar(ctx);
        ctx.step("drover approve, sweep.sh approve, send and drive while it streams");
        const a = await droverJson(ctx, ["approve", c.pane.id]);
        const sw = await sweepSh(ctx, ["approve", c.pane.id]);
        const se = await droverJson(ctx, ["send", c.pane.id, "1"]);
        const d = await driveOnce(ctx, c.pane.session, ["node"]);
        const still = (await c.pane.capturePlain()).includes("esc to interrupt");
        if (a.code !== 12) ctx.fail(`approve: expected exit 12, got ${a.code}: ${a.raw}`);
        if (sw.code !== 12) {
          ctx.fail(`sweep.sh approve: expected exit 12, got ${sw.code}: ${sw.text}`);
        }
        if (se.code !== 8 || se.out?.error?.code !== "SEND_REFUSED") {
          ctx.fail(`send: expected SEND_REFUSED (exit 8), got ${se.code}: ${se.raw}`);
        }
        if (/"event":"(approved|input-submitted)"/.test(d.raw)) ctx.fail(`drive acted: ${d.raw}`);
        if (!still) ctx.log("the reply finished during the checks (they still ran on the block)");
        await expectKeysSince(ctx, mark, [], "every sending command on a streaming look-alike");
      },
    },
    {
      name: "synchronized-real-prompt-gets-no-key",
      timeoutMs: 240_000,
      keyLog: true,
      async run(ctx) {
        await using c = await bashPrompt(ctx, "touch synchronized-marker.txt");
        const marker = `${c.project}/synchronized-marker.txt`;
        await asAgent(ctx, c);
        ctx.step("drover send on the live prompt: judged first, refused");
        let mark = await keysSoFar(ctx);
        const se0 = await droverJson(ctx, ["send", c.pane.id, "1"]);
        if (se0.code !== 8 || se0.out?.error?.code !== "SEND_REFUSED") {
          ctx.fail(`send on a prompt: expected SEND_REFUSED (exit 8), got ${se0.code}: ${se0.raw}`);
        }
        await expectKeysSince(ctx, mark, [], "send on a real permission prompt");

        ctx.step("split a second pane beside the CLI; synchronize-panes on for the window");
        const beside = (await ctx.lab.tmux(
          "split-window",
          "-d",
          "-h",
          "-P",
          "-F",
          "#{pane_id}",
          "-t",
          c.pane.id,
          "cat",
        )).trim();
        await ctx.lab.tmux("set-option", "-w", "-t", c.pane.id, "synchronize-panes", "on");
        await c.pane.waitFor([PROCEED, "1. Yes"], { timeoutMs: 30_000, stableMs: 1000 });
        mark = await keysSoFar(ctx);
        const a = await droverJson(ctx, ["approve", c.pane.id]);
        if (a.code !== 19 || a.out?.data?.reason !== "synchronized") {
          ctx.fail(`approve: expected synchronized (exit 19), got ${a.code}: ${a.raw}`);
        }
        const sw = await sweepSh(ctx, ["approve", c.pane.id]);
        if (sw.code !== 19) ctx.fail(`sweep.sh approve: expected 19, got ${sw.code}: ${sw.text}`);
        const se = await droverJson(ctx, ["send", c.pane.id, "hello"]);
        if (se.code !== 19 || se.out?.error?.code !== "PANES_SYNCHRONIZED") {
          ctx.fail(`send: expected PANES_SYNCHRONIZED (exit 19), got ${se.code}: ${se.raw}`);
        }
        const d = await driveOnce(ctx, c.pane.session, ["touch"]);
        if (d.code !== 19) ctx.fail(`drive: expected exit 19, got ${d.code}: ${d.raw}`);
        await expectKeysSince(
          ctx,
          mark,
          [],
          "approve, sweep.sh approve, send, drive: synchronized",
        );
        if (await exists(marker)) ctx.fail("the command ran");
        const catScreen = await ctx.lab.tmux("capture-pane", "-p", "-t", beside);
        if (catScreen.trim() !== "") ctx.fail(`the pane beside got input:\n${catScreen}`);

        ctx.step("synchronize-panes off: the same prompt is approved with its one key");
        await ctx.lab.tmux("set-option", "-w", "-t", c.pane.id, "synchronize-panes", "off");
        mark = await keysSoFar(ctx);
        const ok = await droverJson(ctx, ["approve", c.pane.id]);
        if (ok.code !== 0) ctx.fail(`approve after sync off: exit ${ok.code}: ${ok.raw}`);
        await expectKeysSince(ctx, mark, ["1"], "approve once synchronize-panes is off");
        await c.pane.waitFor("The marker file is in place.", { timeoutMs: 60_000 });
        if (!(await exists(marker))) ctx.fail(`the approved command did not run (${marker})`);
      },
    },
  ],
};
