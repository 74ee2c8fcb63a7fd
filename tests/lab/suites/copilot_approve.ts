/**
 * The §6 approval gate against the real GitHub Copilot CLI: `drover approve` answers a real shell
 * confirmation ("Do you want to run this command?", "❯ 1. Yes") with the digit 1 and the command
 * runs; the folder-trust question ("Confirm folder trust", whose "1. Yes" would trust the folder
 * for the session) is refused with nothing sent. The pane is identified as copilot from its process.
 * And `drover drive --once --approve allowlist` (DESIGN §9): an allowlisted real shell prompt is
 * approved and its command runs; a dangerous one (a force push, allowlisted by prefix) is escalated
 * and stays untouched.
 */
import type { LabScenario, LabSuite } from "../harness/mod.ts";
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";
import { driveOnce } from "./drive_claude.ts";
import {
  approveScenarios,
  COPILOT,
  fileExists,
  orchestratorBeside,
  sleep,
  startOther,
  submit,
} from "./others_common.ts";

const QUESTION = "Do you want to run this command?";

const bash = (command: string, description: string): Step => ({
  kind: "tool",
  name: "bash",
  args: { command, description },
});

// deno-lint-ignore no-explicit-any
const summary = (events: any[]) => events.map((e) => `${e.event}/${e.verdict ?? ""}`).join(", ");

const drive: LabScenario = {
  name: "drive-allowlisted-approved-dangerous-escalated",
  timeoutMs: 300_000,
  async run(ctx) {
    await using s = await startOther(ctx, COPILOT, {
      script: [
        bash("touch drive-approved.txt", "Create the marker file"),
        { kind: "text", text: "Marker created." },
        bash("git push --force origin main", "Publish the branch"),
        { kind: "text", text: "Pushed." },
      ],
    });
    const orch = await orchestratorBeside(ctx, s);
    const state = await ctx.lab.tmpDir("drive-state");
    const allow = ["--approve", "allowlist", "--allow", "touch", "--allow", "git push"];
    await submit(ctx, s, "create the marker");
    await s.pane.waitFor([QUESTION, "touch drive-approved.txt", "1. Yes"], {
      timeoutMs: 90_000,
      stableMs: 500,
    });
    ctx.step("drover drive --once --approve allowlist --allow touch --allow 'git push'");
    const first = await driveOnce(ctx, s, state, ["--orchestrator", orch, ...allow]);
    const approved = first.events.filter((e) => e.event === "approved");
    if (first.run.code !== 0 || approved.length !== 1) {
      ctx.fail(`expected one approval: exit ${first.run.code}, ${summary(first.events)}`);
    }
    if (JSON.stringify(approved[0].detail?.sent) !== JSON.stringify(["1"])) {
      ctx.fail(`expected exactly ["1"] sent, got ${JSON.stringify(approved[0].detail?.sent)}`);
    }
    await s.pane.waitFor("Marker created.", { timeoutMs: 60_000 });
    if (!(await fileExists(`${s.project}/drive-approved.txt`))) {
      ctx.fail("the approved command did not run");
    }
    await submit(ctx, s, "publish it");
    await s.pane.waitFor([QUESTION, "git push --force origin main", "1. Yes"], {
      timeoutMs: 90_000,
      stableMs: 500,
    });
    const turns = s.api.mainRequests().length;
    ctx.step("drover drive --once (same allowlist): the danger rule wins → escalated");
    const second = await driveOnce(ctx, s, state, ["--orchestrator", orch, ...allow]);
    const esc = second.events.filter((e) => e.event === "escalated");
    if (second.run.code !== 0 || esc.length !== 1 || esc[0].verdict !== "danger:git-force-push") {
      ctx.fail(
        `expected one danger escalation: exit ${second.run.code}, ${summary(second.events)}`,
      );
    }
    if (second.events.some((e) => e.event === "approved")) ctx.fail("the force push was approved");
    await sleep(2000);
    const screen = (await s.pane.capture()).plain;
    if (!screen.includes(QUESTION) || !screen.includes("git push --force origin main")) {
      ctx.fail(`the dangerous prompt did not stay untouched:\n${screen}`);
    }
    if (s.api.mainRequests().length !== turns) ctx.fail("the dangerous prompt was answered");
    ctx.log(`drive: ${summary(first.events)}; then ${summary(second.events)}`);
  },
};

export const suite: LabSuite = {
  name: "copilot-approve",
  sizes: [{ cols: 120, rows: 40 }],
  scenarios: [
    ...approveScenarios({
      cli: COPILOT,
      shellStep: (cmd) => ({
        kind: "tool",
        name: "bash",
        args: { command: cmd, description: "Create the marker file" },
      }),
      promptShows: ["Do you want to run this command?", "1. Yes"],
      key: "1",
      dialog: {
        name: "folder-trust",
        opts: { firstRun: { trust: true } },
        shows: ["Confirm folder trust", "1. Yes"],
      },
    }),
    drive,
  ],
};
