/**
 * Issue 23: an agent really orchestrates. A real Claude Code in pane 0 (the session's orchestrator)
 * has drover's skill installed in its HOME (`drover skill --install --dir HOME/.claude/skills`),
 * `drover` (this checkout) on its PATH and the TMUX_PANE tmux gave it. Its scripted model runs the
 * skill's reviewer-beside-self recipe as Bash tool calls: `printf '%s' '…' | drover launch --cli
 * claude --split right --anchor "$TMUX_PANE" --background --prompt - --json | jq -r
 * '.data.target.pane.id'`, then `drover wait ID --until busy` (a CLI just started looks idle
 * before it takes its prompt), `drover wait ID --until idle` and `drover read ID --last N` with the
 * id it was shown. A second real Claude Code starts beside it (its own stand-in, which must get
 * the prompt byte-exact), asks for one Bash command that `drover drive --once --approve allowlist`
 * approves (the reviewer is an agent), and answers with a token the orchestrator's next model turn
 * must carry in its tool result.
 *
 * Who answers the orchestrator's own prompts: drover never approves the orchestrator (DESIGN §6),
 * whatever the allowlist says. Claude Code asks for the launch line whatever its allow rules say
 * (it names `$TMUX_PANE`, a variable it cannot check): drive escalates that prompt, sends nothing,
 * and the operator (the lab) answers it. `drover wait ID` and `drover read ID` carry no variable, so
 * the orchestrator's own settings (`permissions.allow`) let them run unasked. While the orchestrator
 * waits, `drive --once` with a nudge due every second leaves it alone (two runs, no key to it, no
 * nudge); once it is idle the same settings nudge it, so that silence is not for want of a nudge.
 */
import { drover, droverCommand } from "../../helpers/drover.ts";
import {
  compareVersions,
  LabPane,
  type LabSuite,
  lastToolResults,
  lastUserTexts,
  pinnedCliVersions,
  resolveCli,
  type ScenarioContext,
  seedClaudeHome,
  startAnthropicStandin,
  startClaude,
} from "../harness/mod.ts";
import { driveOnce } from "./drive_claude.ts";
import { claudeStandinEnv, cliConfigToml } from "./launch_common.ts";
import { SKILL_TEXT } from "../../../lib/cli/skill.ts";

const SKILL_DESCRIPTION = /^description: (.*)$/m.exec(SKILL_TEXT)![1];

/** The review prompt: shell and JSON metacharacters the single-quoted printf must keep as they are. */
const REVIEW_PROMPT =
  'Review this repo for bugs: keep "double quotes", $HOME, `id`, 100% & <tags> and a\\backslash as written. Answer in under 20 lines.';
const REVIEW_TOKEN = "REVIEW-TOKEN-7f3a: no bugs in the lab project";
const NUDGE = "Run your sweep now.";
const PROCEED = "Do you want to proceed?";
/** A column-0 activity line with no elapsed time yet: a spinner glyph, a verb, "…" at the end. */
const FIRST_FRAME = /^[·✢✳✶✻✽] [^ …][^…]*…[ \t]*$/m;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const noTmux = { TMUX: "", TMUX_PANE: "" };

/** The recipe's first command, as the skill writes it (prompt on stdin, id through jq). */
const LAUNCH_COMMAND =
  `printf '%s' '${REVIEW_PROMPT}' | drover launch --cli claude --split right ` +
  `--anchor "$TMUX_PANE" --background --prompt - --json | jq -r '.data.target.pane.id'`;

// deno-lint-ignore no-explicit-any
type Loose = any;

async function onPath(name: string): Promise<boolean> {
  const r = await new Deno.Command("sh", { args: ["-c", `command -v ${name}`], stdout: "null" })
    .output();
  return r.code === 0;
}

/** A `drover` on PATH for the agent: this checkout's main.ts, run as the tests run it. */
async function droverBin(dir: string): Promise<void> {
  const [exe, pre] = droverCommand();
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const denoDir = Deno.env.get("DENO_DIR");
  await Deno.writeTextFile(
    `${dir}/drover`,
    "#!/bin/sh\n" + (denoDir ? `DENO_DIR=${q(denoDir)}; export DENO_DIR\n` : "") +
      `exec ${[exe, ...pre].map(q).join(" ")} "$@"\n`,
  );
  await Deno.chmod(`${dir}/drover`, 0o755);
}

/** The reviewer as [clis.claude]: the lab's Claude Code, its own HOME and its own stand-in. */
function reviewerConfig(exe: string[], home: string, apiUrl: string): string {
  return cliConfigToml("claude", exe, home, claudeStandinEnv(apiUrl));
}

/** The pane id the last tool call printed (the launch command's jq output), or null. */
function printedPaneId(body: unknown): string | null {
  const out = lastToolResults(body).map((r) => r.text).join("\n");
  return /^\s*(%\d+)\s*$/m.exec(out)?.[1] ?? null;
}

/** The key commands that target `pane` (tmux logs the target quoted: `send-keys -t "%2" 1`). */
function sentTo(cmds: string[], pane: string): string[] {
  return cmds.filter((c) =>
    c.split(/\s+/).some((w, i, a) => w === "-t" && a[i + 1]?.replace(/"/g, "") === pane)
  );
}

/** Fails when a key command since `mark` went to `pane`; returns every command since `mark`. */
async function noKeysTo(ctx: ScenarioContext, pane: string, mark: number, what: string) {
  await sleep(800); // a late key still shows up in the log
  const cmds = (await ctx.lab.keyLog()).commands.slice(mark);
  const to = sentTo(cmds, pane);
  if (to.length) ctx.fail(`${what}: keys went to the orchestrator ${pane}: ${JSON.stringify(to)}`);
  ctx.log(`${what}: key commands ${JSON.stringify(cmds)}`);
  return cmds;
}

function summary(events: Loose[]): string {
  return events.map((e) =>
    `${e.event}${e.pane ? `@${e.pane}` : ""}${e.reason ? ` (${e.reason}: ${e.message ?? ""})` : ""}`
  ).join(", ") || "(none)";
}

async function paneState(ctx: ScenarioContext, pane: string): Promise<string> {
  const r = await drover(["-L", ctx.lab.name, "--json", "panes"], { env: noTmux });
  const p = JSON.parse(r.stdout).data?.panes?.find((x: Loose) => x.id === pane);
  return p ? `${p.state}/${p.role}` : `(not listed: exit ${r.code})`;
}

export const suite: LabSuite = {
  name: "orchestrate",
  profile: "claude",
  versions: () => pinnedCliVersions("claude-code"),
  fixtures: {
    cli: "claude-code",
    version: async () => (await resolveCli("claude-code")).version,
  },
  // The pane size of each of the two Claude Codes: the window is twice as wide plus the border.
  sizes: [{ cols: 120, rows: 40 }],
  scenarios: [{
    // Found by the scenario below: a `drover wait --until idle` right after a launch returned while
    // the reviewer had only begun its turn. A turn's first frame (2.1.332) draws the activity line
    // ("✢ Synthesizing…", no elapsed time yet) before the footer says "esc to interrupt"; it lasts a
    // few hundred ms, so it is caught by polling fast and handed over as captured.
    name: "busy-first-frame",
    since: "2.1.332",
    timeoutMs: 120_000,
    async run(ctx) {
      for (let attempt = 1; attempt <= 3; attempt++) {
        ctx.step(
          "start claude with the kickoff prompt 'say hi' on its command line (as drover launch " +
            "passes it); capture every ~40 ms until the turn's first frame",
        );
        await using c = await startClaude(ctx.lab, {
          ...ctx.size,
          version: ctx.version,
          settings: { permissions: { defaultMode: "default" } },
          args: ["say hi"],
          waitFor: null,
          script: [{ kind: "text", text: "Hello." }],
        });
        const until = Date.now() + 20_000;
        while (Date.now() < until && !c.api.mainRequests().length) {
          const plain = await c.pane.capturePlain();
          if (FIRST_FRAME.test(plain) && !plain.includes("esc to interrupt")) {
            const screen = await c.pane.capture();
            if (FIRST_FRAME.test(screen.plain) && !screen.plain.includes("esc to interrupt")) {
              ctx.record("busy-first-frame", screen, {
                state: "busy",
                defining: ["❯ say hi", "manual mode on"],
                notes:
                  "a kickoff turn's first frame: the activity line without its elapsed time, the " +
                  "footer not yet saying esc to interrupt; captured by polling, not settled",
              });
              return;
            }
          }
          await sleep(40);
        }
      }
      ctx.fail("no start showed the kickoff turn's first frame to a 40 ms poll in 3 tries");
    },
  }, {
    name: "orchestrate-reviewer-beside-self",
    keyLog: true,
    timeoutMs: 180_000,
    async run(ctx) {
      if (!(await onPath("jq"))) {
        ctx.fail(
          "jq is not on PATH: the skill's recipe reads the launch JSON with it (apt-get install jq)",
        );
      }
      const cli = await resolveCli("claude-code", ctx.version);
      const root = await ctx.lab.tmpDir("orch");
      const bin = `${root}/bin`;
      const reviewerHome = `${root}/rhome`;
      const config = `${root}/drover.toml`;
      await Deno.mkdir(bin);
      await Deno.mkdir(reviewerHome);
      await droverBin(bin);
      const manual = compareVersions(ctx.version, "2.1.332") >= 0 ? { defaultMode: "default" } : {};

      const reviewerApi = await startAnthropicStandin([
        {
          kind: "tool_use",
          name: "Bash",
          input: { command: "touch review-notes.md", description: "Start the review notes" },
          // Busy for a few seconds first, as a real model is, so `wait --until busy` sees it.
          text: "Let me start a notes file for the review before I read the code.",
          chunkDelayMs: 400,
        },
        // Slow enough that the orchestrator's `drover wait` is still running for both drive runs.
        {
          kind: "text",
          text: `${REVIEW_TOKEN}. ${"Checked every file. ".repeat(6)}`,
          chunkSize: 6,
          chunkDelayMs: 350,
        },
      ]);
      let reviewer: string | null = null;
      const tool = (command: string, description: string) => ({
        kind: "tool_use" as const,
        name: "Bash",
        input: { command, description },
      });
      try {
        ctx.step(
          `start claude ${ctx.version} as the orchestrator (pane 0, ${
            ctx.size.cols * 2 + 1
          }x${ctx.size.rows} ` +
            "window) with the drover skill installed in its HOME and drover on its PATH",
        );
        await using orch = await startClaude(ctx.lab, {
          cols: ctx.size.cols * 2 + 1,
          rows: ctx.size.rows,
          version: ctx.version,
          keepTmuxEnv: true,
          settings: {
            permissions: {
              ...manual,
              // The launch rule does not spare the launch prompt ($TMUX_PANE, see below); the
              // other two let `drover wait ID` / `drover read ID` run unasked.
              allow: ["Bash(drover launch:*)", "Bash(drover wait:*)", "Bash(drover read:*)"],
            },
          },
          env: {
            PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
            DROVER_CONFIG: config,
            NO_COLOR: "1",
          },
          prepareHome: async (home) => {
            const r = await drover(["skill", "--install", "--dir", `${home}/.claude/skills`]);
            if (r.code !== 0) throw new Error(`drover skill --install: ${r.stdout}${r.stderr}`);
          },
          script: [
            tool(LAUNCH_COMMAND, "Start a reviewer beside me"),
            {
              kind: "computed",
              from: (body) => {
                reviewer = printedPaneId(body);
                return reviewer
                  ? tool(
                    `drover wait ${reviewer} --until busy --timeout 60`,
                    "Wait for the reviewer to start",
                  )
                  : { kind: "text", text: "LAB: the launch printed no pane id" };
              },
            },
            {
              kind: "computed",
              from: () =>
                tool(
                  `drover wait ${reviewer} --until idle --timeout 90`,
                  "Wait for the reviewer",
                ),
            },
            {
              kind: "computed",
              from: () => tool(`drover read ${reviewer} --last 40`, "Read the review"),
            },
            { kind: "text", text: "The reviewer found nothing to fix." },
            { kind: "text", text: "Sweep done." },
          ],
        });
        const orchPane = orch.pane.id;
        await seedClaudeHome(reviewerHome, orch.project, {}, { permissions: manual });
        await Deno.writeTextFile(config, reviewerConfig(cli.argv, reviewerHome, reviewerApi.url));

        ctx.step("type 'Get this project reviewed by a second agent beside you.', Enter");
        await orch.pane.type("Get this project reviewed by a second agent beside you.");
        await sleep(300);
        await orch.pane.keys("Enter");
        await orch.api.waitForMainRequests(1, 60_000);
        // Claude Code lists the skills it loaded (name + description) in what it sends the model.
        const turn1 = JSON.stringify(orch.api.mainRequests()[0]!.body ?? {});
        if (!turn1.includes(SKILL_DESCRIPTION.slice(0, 60))) {
          ctx.fail("the orchestrator's first model turn does not list the drover skill");
        }

        // The launch command names $TMUX_PANE, which Claude Code cannot check before it runs: it asks
        // whatever its allow rules say. drover must leave that prompt to the operator.
        ctx.step("the model runs the launch recipe; Claude Code asks (a variable it cannot check)");
        await orch.pane.waitFor([PROCEED, "drover launch"], { timeoutMs: 60_000, stableMs: 500 });
        const state = await ctx.lab.tmpDir("drive-state");
        const args = [
          "--approve",
          "allowlist",
          "--allow",
          "touch",
          "--allow",
          "drover launch",
          "--allow",
          "drover wait",
          "--allow",
          "drover read",
          "--nudge",
          NUDGE,
          "--nudge-every",
          "1s",
        ];
        ctx.step(
          "drover drive --once --approve allowlist --allow touch --allow 'drover launch' " +
            "--allow 'drover wait' --allow 'drover read' --nudge … --nudge-every 1s",
        );
        let mark = (await ctx.lab.keyLog()).commands.length;
        const d0 = await driveOnce(ctx, orch, state, args);
        const esc = d0.events.filter((e) => e.event === "escalated" && e.pane === orchPane);
        if (
          d0.run.code !== 0 || d0.events.some((e) => e.event === "approved") || esc.length !== 1 ||
          esc[0].verdict !== "orchestrator"
        ) {
          ctx.fail(
            `the orchestrator's own prompt must be escalated, never approved: exit ${d0.run.code}, ${
              summary(d0.events)
            }\n${d0.run.stderr}`,
          );
        }
        await noKeysTo(ctx, orchPane, mark, "drive on the orchestrator's launch prompt");
        ctx.step("the operator answers the orchestrator's prompt: 1");
        await orch.pane.keys("1");
        await reviewerApi.waitForMainRequests(1, 60_000).catch(async (e) =>
          ctx.fail(`${e.message}; the orchestrator shows:\n${await orch.pane.capturePlain()}`)
        );
        if (!reviewer) {
          ctx.fail(`no pane id came back from the launch:\n${await orch.pane.capturePlain()}`);
        }
        const reviewerTexts = lastUserTexts(reviewerApi.mainRequests()[0]!.body);
        if (!reviewerTexts.includes(REVIEW_PROMPT)) {
          ctx.fail(
            `the reviewer's first model turn does not carry the prompt byte-exact: ${
              JSON.stringify(reviewerTexts)
            }`,
          );
        }
        const where = (await ctx.lab.tmux(
          "display-message",
          "-p",
          "-t",
          reviewer!,
          "#{window_id} #{pane_left} #{pane_width}x#{pane_height}",
        )).trim();
        const orchWhere = (await ctx.lab.tmux(
          "display-message",
          "-p",
          "-t",
          orchPane,
          "#{window_id} #{pane_left} #{pane_width}x#{pane_height}",
        )).trim();
        ctx.log(`orchestrator ${orchPane} [${orchWhere}], reviewer ${reviewer} [${where}]`);
        const [rWin, rLeft] = where.split(" ");
        const [oWin, oLeft] = orchWhere.split(" ");
        if (rWin !== oWin || Number(rLeft) <= Number(oLeft)) {
          ctx.fail("the reviewer is not split right of the orchestrator, in its window");
        }

        ctx.step(
          "the model runs drover wait <reviewer's id> --until busy, then --until idle; the " +
            "reviewer asks for Bash",
        );
        await orch.api.waitForMainRequests(3, 60_000);
        const started = lastToolResults(orch.api.mainRequests()[2]!.body);
        if (started.length !== 1 || started[0].is_error) {
          ctx.fail(
            `drover wait --until busy failed in the orchestrator: ${JSON.stringify(started)}`,
          );
        }
        // The reviewer's pane as the lab sees it (never killed through it: it is in orch's session).
        const reviewerPane = new LabPane(
          ctx.lab,
          reviewer!,
          orch.pane.session,
          ctx.size.cols,
          ctx.size.rows,
          reviewerHome,
        );
        await reviewerPane.waitFor([PROCEED, "touch review-notes.md"], {
          timeoutMs: 60_000,
          stableMs: 500,
        });
        await ctx.screen(orch.pane, "orchestrate-waiting", {
          state: "busy",
          defining: ["drover wait"],
          notes:
            `the orchestrator's Bash tool runs \`drover wait <reviewer> --until idle\`; the reviewer is split right of it`,
        });

        ctx.step(
          "drover drive --once (same settings) twice, 1.5 s apart, while the orchestrator waits",
        );
        const seen = await paneState(ctx, orchPane);
        if (!seen.startsWith("busy/orchestrator")) {
          ctx.fail(`drover sees the waiting orchestrator as ${seen}, not busy/orchestrator`);
        }
        mark = (await ctx.lab.keyLog()).commands.length;
        const d1 = await driveOnce(ctx, orch, state, args);
        const approved = d1.events.filter((e) => e.event === "approved");
        if (d1.run.code !== 0 || approved.length !== 1 || approved[0].pane !== reviewer) {
          ctx.fail(
            `expected one approval on the reviewer ${reviewer}: exit ${d1.run.code}, ${
              summary(d1.events)
            }\n${d1.run.stderr}`,
          );
        }
        await sleep(1500);
        const d2 = await driveOnce(ctx, orch, state, args);
        const still = await paneState(ctx, orchPane);
        for (const e of [...d1.events, ...d2.events]) {
          if (e.pane === orchPane && e.event !== "drive-started" && e.event !== "drive-stopped") {
            ctx.fail(
              `drive acted on the waiting orchestrator: ${summary([...d1.events, ...d2.events])}`,
            );
          }
        }
        if (d2.run.code !== 0) {
          ctx.fail(`second drive --once: exit ${d2.run.code}: ${d2.run.stderr}`);
        }
        if (!still.startsWith("busy/")) {
          ctx.fail(`the orchestrator stopped waiting before the second drive run (${still})`);
        }
        const during = await noKeysTo(ctx, orchPane, mark, "drive while the orchestrator waits");
        // The same matcher finds the approval drive did send, to the reviewer: it can see a key.
        if (sentTo(during, reviewer!).length === 0) {
          ctx.fail(`the reviewer's approval is not in the key log: ${JSON.stringify(during)}`);
        }

        ctx.step("the reviewer answers; the orchestrator's wait returns and it reads the answer");
        await ctx.screen(reviewerPane, "orchestrate-reviewer-answered", {
          state: "idle",
          defining: ["REVIEW-TOKEN-7f3a"],
          timeoutMs: 60_000,
          stableMs: 1000,
          notes: "the reviewer launched by the orchestrator's drover launch, after its answer",
        });
        await orch.api.waitForMainRequests(5, 90_000);
        const readBack = lastToolResults(orch.api.mainRequests()[4]!.body);
        if (!readBack.some((r) => r.text.includes(REVIEW_TOKEN))) {
          ctx.fail(
            `the orchestrator's turn after drover read does not carry the reviewer's answer: ${
              JSON.stringify(readBack).slice(0, 600)
            }`,
          );
        }
        const waited = lastToolResults(orch.api.mainRequests()[3]!.body);
        if (waited.some((r) => r.is_error)) {
          ctx.fail(`drover wait failed in the orchestrator: ${JSON.stringify(waited)}`);
        }
        await orch.pane.waitFor(["The reviewer found nothing to fix.", "? for shortcuts"], {
          timeoutMs: 30_000,
          stableMs: 500,
        });

        ctx.step("the orchestrator is idle: the same drive settings nudge it (the control)");
        await driveOnce(ctx, orch, state, args);
        await sleep(1500);
        const d3 = await driveOnce(ctx, orch, state, args);
        if (!d3.events.some((e) => e.event === "nudge-sent" && e.pane === orchPane)) {
          ctx.fail(`the idle orchestrator was not nudged: ${summary(d3.events)}\n${d3.run.stderr}`);
        }
        await orch.api.waitForMainRequests(6, 60_000);
        if (!lastUserTexts(orch.api.mainRequests()[5]!.body).includes(NUDGE)) {
          ctx.fail("the nudge did not reach the orchestrator's model");
        }
      } finally {
        if (reviewer) await ctx.lab.tmuxResult(["kill-pane", "-t", reviewer]).catch(() => {});
        await reviewerApi.close();
      }
    },
  }],
};
