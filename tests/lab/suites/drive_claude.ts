/**
 * `drover drive` against the real Claude Code, every pinned version (DESIGN §9; versions that
 * start in auto mode run in manual mode, where their prompts are numbered):
 * - an orchestrator whose API starts failing with a credit/quota error makes `drive` exit 75;
 * - typed-but-unsent input in a real pane is submitted exactly once (one turn reaches the API);
 * - an allowlisted real Bash prompt is approved and its command runs; a dangerous one (a force
 *   push, allowlisted by prefix) is escalated and never approved;
 * - an orchestrator with a background shell still running after its turn is never nudged.
 */
import { drover, type DroverRun } from "../../helpers/drover.ts";
import {
  type AnthropicStep,
  type ClaudeOptions,
  type ClaudeSession,
  compareVersions,
  type LabScenario,
  type LabSuite,
  pinnedCliVersions,
  type ScenarioContext,
  startClaude,
} from "../harness/mod.ts";

/** Start the version under test; versions that default to auto mode start in manual mode. */
export async function claudeAt(
  ctx: ScenarioContext,
  opts: Omit<ClaudeOptions, "cols" | "rows" | "version">,
): Promise<ClaudeSession> {
  const manual = compareVersions(ctx.version, "2.1.332") >= 0;
  ctx.step(
    `start claude ${ctx.version}` +
      (manual ? ' in manual mode (settings.json permissions.defaultMode = "default")' : ""),
  );
  return await startClaude(ctx.lab, {
    cols: ctx.size.cols,
    rows: ctx.size.rows,
    version: ctx.version,
    ...opts,
    ...(manual ? { settings: { ...opts.settings, permissions: { defaultMode: "default" } } } : {}),
  });
}

const PROCEED = "Do you want to proceed?";
// the ready input box hint (CLAUDE_READY as a plain string, so it can join a list of conditions)
const READY = "? for shortcuts";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// deno-lint-ignore no-explicit-any
type Loose = any;

/** `drover drive --once --json` on the lab server; returns the run, its events and its result. */
export async function driveOnce(
  ctx: ScenarioContext,
  c: { pane: { session: string } },
  state: string,
  args: string[] = [],
): Promise<{ run: DroverRun; events: Loose[]; result: Loose }> {
  const run = await drover(
    [
      "-L",
      ctx.lab.name,
      "--json",
      "drive",
      "--session",
      c.pane.session,
      "--once",
      "--state",
      state,
      ...args,
    ],
    { env: { TMUX: "", TMUX_PANE: "", XDG_RUNTIME_DIR: await ctx.lab.tmpDir("rt") } },
  );
  const lines: Loose[] = [];
  for (const l of run.stdout.split("\n")) {
    if (l.trim() === "") continue;
    try {
      lines.push(JSON.parse(l));
    } catch {
      ctx.fail(`drive printed a line that is not JSON: ${l}\n${run.stderr}`);
    }
  }
  return {
    run,
    events: lines.filter((e) => e.schema === "drover.event.v1"),
    result: lines.find((e) => e.schema === "drover.drive.v1"),
  };
}

/** A second window holding a plain process: named as the orchestrator so the CLI is an agent. */
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

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

function summary(events: Loose[]): string {
  return events.map((e) =>
    `${e.event}${e.reason ? `/${e.reason}` : ""}${e.verdict ? `/${e.verdict}` : ""}`
  )
    .join(", ");
}

/** The auth-banner scenario of issue 21 for one 401 message (undefined: the stand-in's default). */
function authBannerEscalatesOnce(
  name: string,
  message: string | undefined,
  banner: string,
): LabScenario {
  return {
    name,
    keyLog: true,
    timeoutMs: 180_000,
    async run(ctx) {
      await using c = await claudeAt(ctx, {
        env: { CLAUDE_CODE_MAX_RETRIES: "2" },
        script: [{ kind: "error", status: 401, times: Infinity, ...(message ? { message } : {}) }],
      });
      const orch = await orchestratorBeside(ctx, c);
      const state = await ctx.lab.tmpDir("drive-state");
      ctx.step(
        `type 'say hello', Enter; the stand-in answers HTTP 401 authentication_error${
          message ? ` "${message}"` : ""
        }`,
      );
      await c.pane.type("say hello");
      await sleep(300);
      await c.pane.keys("Enter");
      await c.api.waitForMainRequests(1, 60_000);
      await c.pane.waitFor([banner, READY], { timeoutMs: 60_000, stableMs: 2000 });
      const turns = c.api.mainRequests().length;
      const mark = (await ctx.lab.keyLog()).keys.length;

      ctx.step(`drover drive --once --orchestrator ${orch}: one cli-unavailable escalation`);
      const first = await driveOnce(ctx, c, state, ["--orchestrator", orch]);
      const esc = first.events.filter((e) => e.event === "escalated" && e.pane === c.pane.id);
      if (first.run.code !== 0 || esc.length !== 1 || esc[0].reason !== "cli-unavailable") {
        ctx.fail(
          `expected one cli-unavailable escalation: exit ${first.run.code}, events ${
            JSON.stringify(first.events.map((e) => [e.event, e.reason]))
          }\n${first.run.stderr}\n${await c.pane.capturePlain()}`,
        );
      }

      ctx.step("drover drive --once again with the same state: no second escalation");
      const second = await driveOnce(ctx, c, state, ["--orchestrator", orch]);
      if (second.events.some((e) => e.event === "escalated")) {
        ctx.fail(`escalated twice: ${summary(second.events)}`);
      }
      await sleep(1500);
      const keys = (await ctx.lab.keyLog()).keys.slice(mark);
      if (keys.length !== 0) ctx.fail(`drive sent keys: ${JSON.stringify(keys)}`);
      ctx.log(`key log: [] (drive --once twice on the ${banner} banner)`);
      if (c.api.mainRequests().length !== turns) ctx.fail("drive typed into the unavailable CLI");
    },
  };
}

/**
 * The model's turn that leaves a background shell running (issue 21): a Bash call with
 * run_in_background, then a closing text. drive's no-nudge check and claude_screens' recording
 * use the same one.
 */
export const BACKGROUND_SHELL: AnthropicStep[] = [
  {
    kind: "tool_use",
    name: "Bash",
    input: {
      command: "sleep 600",
      description: "Wait for the release window",
      run_in_background: true,
    },
  },
  { kind: "text", text: "The wait runs in the background." },
];

export const suite: LabSuite = {
  name: "drive",
  sizes: [{ cols: 120, rows: 40 }],
  versions: () => pinnedCliVersions("claude-code"),
  scenarios: [
    {
      name: "orchestrator-quota-exit-75",
      timeoutMs: 180_000,
      async run(ctx) {
        // The first turn is served; every turn after it fails with the credit/quota error.
        await using c = await claudeAt(ctx, {
          script: [
            { kind: "text", text: "Sweep done; nothing to do." },
            { kind: "error", status: 400, times: Infinity },
          ],
        });
        const state = await ctx.lab.tmpDir("drive-state");
        ctx.step("type 'run the sweep', Enter; wait for the reply");
        await c.pane.type("run the sweep");
        await sleep(300);
        await c.pane.keys("Enter");
        await c.pane.waitFor(["Sweep done; nothing to do.", READY], { timeoutMs: 60_000 });

        ctx.step("drover drive --once while the API works: exit 0");
        const ok = await driveOnce(ctx, c, state);
        if (ok.run.code !== 0) {
          ctx.fail(`healthy orchestrator: expected exit 0, got ${ok.run.code}: ${ok.run.stderr}`);
        }

        ctx.step("type 'run the sweep again', Enter; the API now answers with the credit error");
        await c.pane.type("run the sweep again");
        await sleep(300);
        await c.pane.keys("Enter");
        await c.api.waitForMainRequests(2, 60_000);
        await c.pane.waitFor(["Credit balance", READY], { timeoutMs: 60_000, stableMs: 500 });

        ctx.step("drover drive --once: the orchestrator's CLI is unavailable → exit 75");
        const down = await driveOnce(ctx, c, state);
        if (down.run.code !== 75) {
          ctx.fail(
            `expected exit 75, got ${down.run.code}: ${
              summary(down.events)
            }\n${down.run.stderr}\n${await c.pane.capturePlain()}`,
          );
        }
        if (!down.events.some((e) => e.event === "orchestrator-unavailable")) {
          ctx.fail(`no orchestrator-unavailable event: ${summary(down.events)}`);
        }
        if (down.result?.data?.outcome !== "orchestrator-unavailable") {
          ctx.fail(`result: ${JSON.stringify(down.result)}`);
        }
        const turns = c.api.mainRequests().length;
        if (turns !== 2) ctx.fail(`drive must not have typed anything: ${turns} turns`);
      },
    },
    // Issue 21: the auth failure banner (HTTP 401 authentication_error) on a worker is one
    // cli-unavailable escalation; a second --once with the same state stays quiet (the dedup
    // window keyed by pane + cli-unavailable), and neither run sends a key. Two banners: the
    // stand-in's default message names the API key ("⎿ Invalid API key"); an expired login does
    // not, and the CLI draws its own "● Please run /login · API Error: 401 …" answer-glyph block.
    authBannerEscalatesOnce("auth-banner-escalates-once", undefined, "Invalid API key"),
    authBannerEscalatesOnce(
      "auth-login-banner-escalates-once",
      "OAuth token has expired. Please obtain a new token or refresh your existing token.",
      "Please run /login",
    ),
    {
      // Issue 21: an orchestrator whose turn ended with a background shell still running is not
      // free. Control first: the idle orchestrator, its nudge interval passed, is nudged (the
      // nudge is the prompt that starts the background `sleep 600`); then, with that shell
      // pending, two --once runs past the interval type nothing.
      name: "background-shell-not-nudged",
      keyLog: true,
      timeoutMs: 240_000,
      async run(ctx) {
        await using c = await claudeAt(ctx, {
          script: BACKGROUND_SHELL,
        });
        const state = await ctx.lab.tmpDir("drive-state");
        const nudge = [
          "--orchestrator",
          c.pane.id,
          "--nudge",
          "wait for the release window in the background",
          "--nudge-every",
          "1s",
        ];
        await c.pane.waitFor(READY, { timeoutMs: 60_000, stableMs: 1000 });

        ctx.step("control: drive --once twice, 1.5 s apart, on the idle orchestrator: one nudge");
        await driveOnce(ctx, c, state, nudge);
        await sleep(1500);
        const control = await driveOnce(ctx, c, state, nudge);
        if (!control.events.some((e) => e.event === "nudge-sent")) {
          ctx.fail(
            `the idle orchestrator was not nudged: exit ${control.run.code}, events ${
              summary(control.events)
            }\n${control.run.stderr}\n${await c.pane.capturePlain()}`,
          );
        }
        await c.pane.waitFor(["The wait runs in the background.", "still running"], {
          timeoutMs: 60_000,
          stableMs: 2000,
        });
        const turns = c.api.mainRequests().length;
        const mark = (await ctx.lab.keyLog()).keys.length;

        ctx.step("drive --once twice more, 1.5 s apart, with the shell still running: no nudge");
        for (let i = 0; i < 2; i++) {
          await sleep(1500);
          const r = await driveOnce(ctx, c, state, nudge);
          if (r.run.code !== 0 || r.events.some((e) => e.event.startsWith("nudge"))) {
            ctx.fail(
              `drive nudged (or failed) with background work pending: exit ${r.run.code}, ` +
                `events ${summary(r.events)}\n${r.run.stderr}\n${await c.pane.capturePlain()}`,
            );
          }
        }
        await sleep(1500);
        const keys = (await ctx.lab.keyLog()).keys.slice(mark);
        if (keys.length !== 0) ctx.fail(`drive sent keys: ${JSON.stringify(keys)}`);
        ctx.log("key log: [] (drive --once twice with 1 shell still running)");
        if (c.api.mainRequests().length !== turns) ctx.fail("drive sent a turn to the busy CLI");
      },
    },
    {
      name: "typed-input-submitted-once",
      timeoutMs: 180_000,
      async run(ctx) {
        await using c = await claudeAt(ctx, {
          script: [{ kind: "text", text: "Got your stranded message." }],
        });
        const orch = await orchestratorBeside(ctx, c);
        const state = await ctx.lab.tmpDir("drive-state");
        const text = "please run the unit tests";
        ctx.step(`type '${text}' and leave it unsent`);
        await c.pane.type(text);
        await c.pane.waitFor(text, { timeoutMs: 30_000, stableMs: 500 });
        if (c.api.mainRequests().length !== 0) ctx.fail("a turn was sent before drive ran");

        ctx.step(`drover drive --once --orchestrator ${orch}`);
        const first = await driveOnce(ctx, c, state, ["--orchestrator", orch]);
        if (first.run.code !== 0) ctx.fail(`exit ${first.run.code}: ${first.run.stderr}`);
        const sub = first.events.filter((e) => e.event === "input-submitted");
        if (sub.length !== 1 || sub[0].pane !== c.pane.id) {
          ctx.fail(`expected one input-submitted on ${c.pane.id}: ${summary(first.events)}`);
        }
        await c.api.waitForMainRequests(1, 60_000);
        await c.pane.waitFor(["Got your stranded message.", READY], { timeoutMs: 60_000 });
        const body = JSON.stringify(c.api.mainRequests()[0].body ?? {});
        if (!body.includes(text)) ctx.fail("the submitted turn does not carry the typed text");

        ctx.step("drover drive --once again: nothing left to submit");
        const second = await driveOnce(ctx, c, state, ["--orchestrator", orch]);
        if (second.events.some((e) => e.event === "input-submitted")) {
          ctx.fail(`submitted twice: ${summary(second.events)}`);
        }
        await sleep(1500);
        if (c.api.mainRequests().length !== 1) {
          ctx.fail(`expected exactly one turn, the API got ${c.api.mainRequests().length}`);
        }
      },
    },
    {
      name: "allowlisted-approved-dangerous-escalated",
      timeoutMs: 240_000,
      async run(ctx) {
        await using c = await claudeAt(ctx, {
          script: [
            {
              kind: "tool_use",
              name: "Bash",
              input: { command: "touch drive-approved.txt", description: "Create the marker file" },
            },
            { kind: "text", text: "Marker created." },
            {
              kind: "tool_use",
              name: "Bash",
              input: { command: "git push --force origin main", description: "Publish the branch" },
            },
            { kind: "text", text: "Pushed." },
          ],
        });
        const orch = await orchestratorBeside(ctx, c);
        const state = await ctx.lab.tmpDir("drive-state");
        const allow = ["--approve", "allowlist", "--allow", "touch", "--allow", "git push"];
        const marker = `${c.project}/drive-approved.txt`;

        ctx.step("type 'create the marker', Enter; wait for the Bash prompt");
        await c.pane.type("create the marker");
        await sleep(300);
        await c.pane.keys("Enter");
        await c.pane.waitFor([PROCEED, "touch drive-approved.txt"], {
          timeoutMs: 60_000,
          stableMs: 500,
        });

        ctx.step("drover drive --once --approve allowlist --allow touch --allow 'git push'");
        const first = await driveOnce(ctx, c, state, ["--orchestrator", orch, ...allow]);
        const approved = first.events.filter((e) => e.event === "approved");
        if (first.run.code !== 0 || approved.length !== 1) {
          ctx.fail(
            `expected one approval: exit ${first.run.code}, ${
              summary(first.events)
            }\n${first.run.stderr}`,
          );
        }
        if (JSON.stringify(approved[0].detail?.sent) !== JSON.stringify(["1"])) {
          ctx.fail(`expected exactly ["1"] sent, got ${JSON.stringify(approved[0].detail?.sent)}`);
        }
        await c.pane.waitFor("Marker created.", { timeoutMs: 60_000 });
        if (!(await exists(marker))) ctx.fail(`the approved command did not run (${marker})`);

        ctx.step("type 'publish it', Enter; wait for the force-push prompt");
        await c.pane.type("publish it");
        await sleep(300);
        await c.pane.keys("Enter");
        await c.pane.waitFor([PROCEED, "git push --force origin main"], {
          timeoutMs: 60_000,
          stableMs: 500,
        });
        const turns = c.api.mainRequests().length;

        ctx.step("drover drive --once (same allowlist): the danger rule wins → escalated");
        const second = await driveOnce(ctx, c, state, ["--orchestrator", orch, ...allow]);
        const esc = second.events.filter((e) => e.event === "escalated");
        if (
          second.run.code !== 0 || esc.length !== 1 || esc[0].verdict !== "danger:git-force-push"
        ) {
          ctx.fail(
            `expected one danger escalation: exit ${second.run.code}, ${summary(second.events)}`,
          );
        }
        if (second.events.some((e) => e.event === "approved")) {
          ctx.fail("the force push was approved");
        }
        await sleep(2000);
        const screen = await c.pane.capturePlain();
        if (!screen.includes(PROCEED) || !screen.includes("git push --force origin main")) {
          ctx.fail(`the dangerous prompt did not stay untouched:\n${screen}`);
        }
        if (c.api.mainRequests().length !== turns) ctx.fail("the dangerous prompt was answered");

        ctx.step("drover drive --once again inside the dedup window: no second escalation");
        const third = await driveOnce(ctx, c, state, ["--orchestrator", orch, ...allow]);
        if (third.events.some((e) => e.event === "escalated" || e.event === "approved")) {
          ctx.fail(`expected silence inside the dedup window: ${summary(third.events)}`);
        }
      },
    },
  ],
};
