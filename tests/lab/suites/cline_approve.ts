/**
 * The §6 approval gate against the real Cline TUI: `drover approve` answers a real shell
 * confirmation ("Approve tool call?", "[y] Approve" highlighted) with Enter and the command runs; a
 * start-up notice ("Press Enter to open, any other key to close", whose Enter opens a web page) is
 * refused with nothing sent. The pane is identified as cline from its process. And
 * `drover drive --once --approve allowlist` escalates Cline's prompts, allowlisted or not: its modal
 * never proves the whole command (one row, cut at the pane's edge; several commands over one row),
 * so drover reads no command from it. Nothing is sent and the prompt stays.
 */
import type { LabScenario, LabSuite } from "../harness/mod.ts";
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";
import { driveOnce } from "./drive_claude.ts";
import {
  approveScenarios,
  CLINE,
  fileExists,
  orchestratorBeside,
  sleep,
  startOther,
  submit,
} from "./others_common.ts";

const run = (command: string): Step => ({
  kind: "tool",
  name: "run_commands",
  args: { commands: [command] },
});

// deno-lint-ignore no-explicit-any
const summary = (events: any[]) => events.map((e) => `${e.event}/${e.verdict ?? ""}`).join(", ");

const drive: LabScenario = {
  name: "drive-escalates-every-prompt",
  timeoutMs: 300_000,
  async run(ctx) {
    await using s = await startOther(ctx, CLINE, {
      script: [run("touch drive-approved.txt"), { kind: "text", text: "Marker created." }],
    });
    const orch = await orchestratorBeside(ctx, s);
    const state = await ctx.lab.tmpDir("drive-state");
    await submit(ctx, s, "create the marker");
    await s.pane.waitFor(["Approve tool call?", "$ touch drive-approved.txt", "[y] Approve"], {
      timeoutMs: 90_000,
      stableMs: 0,
    });
    const turns = s.api.mainRequests().length;
    ctx.step("drover drive --once --approve allowlist --allow touch");
    const d = await driveOnce(ctx, s, state, [
      "--orchestrator",
      orch,
      "--approve",
      "allowlist",
      "--allow",
      "touch",
    ]);
    const esc = d.events.filter((e) => e.event === "escalated" && e.pane === s.pane.id);
    if (d.run.code !== 0 || esc.length !== 1 || d.events.some((e) => e.event === "approved")) {
      ctx.fail(`expected one escalation and no approval: exit ${d.run.code}, ${summary(d.events)}`);
    }
    await sleep(2000);
    const screen = (await s.pane.capture()).plain;
    if (!screen.includes("Approve tool call?")) ctx.fail(`the prompt did not stay:\n${screen}`);
    if (s.api.mainRequests().length !== turns) ctx.fail("the prompt was answered");
    if (await fileExists(`${s.project}/drive-approved.txt`)) ctx.fail("the command ran");
    ctx.log(`drive: ${summary(d.events)} (${esc[0].message})`);
  },
};

export const suite: LabSuite = {
  name: "cline-approve",
  sizes: [{ cols: 120, rows: 40 }],
  scenarios: [
    ...approveScenarios({
      cli: CLINE,
      shellStep: run,
      promptShows: ["Approve tool call?", "[y] Approve"],
      key: "Enter",
      promptStableMs: 0,
      dialog: {
        name: "notice",
        opts: { firstRun: { notices: true }, waitFor: "Press Enter to open" },
        shows: ["Press Enter to open, any other key to close"],
      },
    }),
    drive,
  ],
};
