/**
 * The launch boundary against the real Claude Code: `drover launch --cli claude --prompt -
 * --background` with a 20 KiB kickoff prompt full of quotes, tabs, newlines, $VARS, backslashes and
 * non-ASCII text. The stand-in API must receive exactly that prompt as the first user turn,
 * `drover read --wait-stable` must return the scripted reply, and the selected window and pane of
 * the session must be the same as before the launch.
 */
import { drover } from "../../helpers/drover.ts";
import { claudeStandinEnv, cliConfigToml, seededPrompt } from "./launch_common.ts";
import {
  type LabSuite,
  lastUserTexts,
  pinnedCliVersions,
  resolveCli,
  seedClaudeHome,
  startAnthropicStandin,
} from "../harness/mod.ts";

const REPLY = "LAUNCH-LAB-REPLY: the seeded prompt arrived";
const REPLY2 = "LAUNCH-LAB-REPLY-2: the follow-up arrived";

/** A throwaway HOME + project and a config whose [clis.claude] is the lab's real Claude Code. */
async function claudeConfig(
  lab: { tmpDir(prefix?: string): Promise<string> },
  apiUrl: string,
  version: string,
): Promise<{ config: string; project: string }> {
  const cli = await resolveCli("claude-code", version);
  const root = await lab.tmpDir("launch");
  const home = `${root}/home`;
  const project = `${root}/project`;
  await Deno.mkdir(home);
  await Deno.mkdir(project);
  await seedClaudeHome(home, project);
  const config = `${root}/config.toml`;
  await Deno.writeTextFile(
    config,
    cliConfigToml("claude", cli.argv, home, claudeStandinEnv(apiUrl)),
  );
  return { config, project };
}

async function selection(lab: { tmux(...a: string[]): Promise<string> }): Promise<string> {
  return (await lab.tmux(
    "list-panes",
    "-a",
    "-F",
    "#{pane_id} #{window_active} #{pane_active}",
  )).trim();
}

export const suite: LabSuite = {
  name: "launch",
  versions: () => pinnedCliVersions("claude-code"),
  sizes: [{ cols: 120, rows: 40 }],
  scenarios: [{
    name: "claude-background-seeded-prompt",
    timeoutMs: 180_000,
    async run(ctx) {
      const api = await startAnthropicStandin([{ kind: "text", text: REPLY }]);
      try {
        const { config, project } = await claudeConfig(ctx.lab, api.url, ctx.version);
        // A session someone is "working in": two windows, the second selected, split in two.
        await ctx.lab.tmux(
          "new-session",
          "-d",
          "-s",
          "work",
          "-x",
          String(ctx.size.cols),
          "-y",
          String(ctx.size.rows),
          "sleep 86400",
        );
        await ctx.lab.tmux(
          "set-option",
          "-t",
          "work",
          "default-size",
          `${ctx.size.cols}x${ctx.size.rows}`,
        );
        await ctx.lab.tmux("new-window", "-t", "work:", "sleep 86400");
        await ctx.lab.tmux("split-window", "-t", "work:1", "sleep 86400");
        const before = await selection(ctx.lab);

        const prompt = seededPrompt(20 * 1024);
        ctx.step(`drover launch --cli claude --prompt - --background (${prompt.length} chars)`);
        const r = await drover(
          [
            "-L",
            ctx.lab.name,
            "--config",
            config,
            "--json",
            "launch",
            "--cli",
            "claude",
            "--prompt",
            "-",
            "--background",
            "--session",
            "work",
            "--cwd",
            project,
          ],
          { stdin: prompt, env: { TMUX: "", TMUX_PANE: "" } },
        );
        if (r.code !== 0) ctx.fail(`launch failed (${r.code}): ${r.stdout}${r.stderr}`);
        const launched = JSON.parse(r.stdout).data;
        const pane = launched.pane.id as string;
        ctx.log(`launched ${pane} (${launched.pane.target})`);
        if (launched.selection_preserved !== true) ctx.fail("launch reported a selection change");

        await api.waitForMainRequests(1, 90_000);
        const texts = lastUserTexts(api.mainRequests()[0]!.body);
        if (!texts.includes(prompt)) {
          const longest = texts.reduce((a, b) => (b.length > a.length ? b : a), "");
          let at = 0;
          while (at < longest.length && longest[at] === prompt[at]) at++;
          ctx.fail(
            `the stand-in did not receive the prompt byte-exact: ${texts.length} text block(s), ` +
              `longest ${longest.length} chars vs ${prompt.length}, first difference at ${at}: ` +
              JSON.stringify(longest.slice(at, at + 40)),
          );
        }

        ctx.step("drover read --wait-stable until the reply shows");
        let text = "";
        for (let i = 0; i < 6 && !text.includes(REPLY); i++) {
          const rd = await drover([
            "-L",
            ctx.lab.name,
            "--json",
            "read",
            pane,
            "--wait-stable",
            "--wait-timeout",
            "20",
          ], { env: { TMUX: "", TMUX_PANE: "" } });
          if (rd.code !== 0) ctx.fail(`read failed (${rd.code}): ${rd.stdout}${rd.stderr}`);
          text = JSON.parse(rd.stdout).data.text;
        }
        if (!text.includes(REPLY)) ctx.fail(`read --wait-stable never showed the reply:\n${text}`);

        // A follow-up through `drover send`: multi-line text goes in as one bracketed paste and
        // must reach the model as one user turn, after drover saw it leave the input box.
        api.push({ kind: "text", text: REPLY2 });
        const lab = ["-L", ctx.lab.name, "--json"];
        const noTmux = { TMUX: "", TMUX_PANE: "" };
        const idle = await drover([...lab, "wait", pane, "--until", "idle", "--timeout", "60"], {
          env: noTmux,
        });
        if (idle.code !== 0) ctx.fail(`wait --until idle failed (${idle.code}): ${idle.stdout}`);
        ctx.step("drover send (two lines on stdin)");
        const followUp = 'Second message, line one.\nLine two: it\'s "quoted" and $HOME stays.';
        const sent = await drover([...lab, "send", pane], { stdin: followUp + "\n", env: noTmux });
        if (sent.code !== 0) ctx.fail(`send failed (${sent.code}): ${sent.stdout}${sent.stderr}`);
        await api.waitForMainRequests(2, 60_000);
        const second = lastUserTexts(api.mainRequests()[1]!.body);
        if (!second.includes(followUp)) {
          ctx.fail(`the follow-up did not arrive as one message: ${JSON.stringify(second)}`);
        }
        const seen = await drover([...lab, "wait", pane, "--until", "idle", "--timeout", "60"], {
          env: noTmux,
        });
        if (seen.code !== 0) ctx.fail(`wait after send failed: ${seen.stdout}`);

        // One line ending in tmux command separators, given as argv: typed as plain input (no
        // bracketed paste) through a tmux paste buffer, it must reach the model byte-exact.
        api.push({ kind: "text", text: REPLY2 });
        const line = 'Third message; keep "#{pane_id}" #(true) and a\\; literal;';
        ctx.step("drover send (one line ending in ;)");
        const third = await drover([...lab, "send", pane, line], { env: noTmux });
        if (third.code !== 0) ctx.fail(`send failed (${third.code}): ${third.stdout}`);
        await api.waitForMainRequests(3, 60_000);
        const got = lastUserTexts(api.mainRequests()[2]!.body);
        if (!got.includes(line)) {
          ctx.fail(`the one-line message did not arrive byte-exact: ${JSON.stringify(got)}`);
        }
        const idle3 = await drover([...lab, "wait", pane, "--until", "idle", "--timeout", "60"], {
          env: noTmux,
        });
        if (idle3.code !== 0) ctx.fail(`wait after the third send failed: ${idle3.stdout}`);

        const after = await selection(ctx.lab);
        const kept = before.split("\n").every((line) => after.split("\n").includes(line));
        if (!kept) ctx.fail(`the selection changed:\nbefore\n${before}\nafter\n${after}`);
        const opt = (await ctx.lab.tmux("show-options", "-p", "-v", "-t", pane, "@drover-cli"))
          .trim();
        if (opt !== "claude") ctx.fail(`@drover-cli is "${opt}", not "claude"`);
        await ctx.lab.tmux("kill-pane", "-t", pane).catch(() => {});
      } finally {
        await api.close();
      }
    },
  }, {
    name: "claude-split-dash-prompt",
    timeoutMs: 180_000,
    async run(ctx) {
      // A prompt that starts with "-" (a markdown list): the positional form puts "--" before it,
      // which the real Claude Code must accept as its prompt, in an explicit split of a given pane.
      const api = await startAnthropicStandin([{ kind: "text", text: REPLY }]);
      try {
        const { config, project } = await claudeConfig(ctx.lab, api.url, ctx.version);
        const anchor = (await ctx.lab.tmux(
          "new-session",
          "-d",
          "-P",
          "-F",
          "#{pane_id}",
          "-s",
          "split",
          "-x",
          String(ctx.size.cols),
          "-y",
          String(ctx.size.rows),
          "sleep 86400",
        )).trim();
        const prompt = "- first item: say the scripted sentence\n- second item: --help is text\n";
        ctx.step("drover launch --split right --anchor (prompt starting with '-')");
        const r = await drover([
          "-L",
          ctx.lab.name,
          "--config",
          config,
          "--json",
          "launch",
          "--cli",
          "claude",
          "--prompt",
          "-",
          "--split",
          "right",
          "--anchor",
          anchor,
          "--cwd",
          project,
        ], { stdin: prompt, env: { TMUX: "", TMUX_PANE: "" } });
        if (r.code !== 0) ctx.fail(`launch failed (${r.code}): ${r.stdout}${r.stderr}`);
        const d = JSON.parse(r.stdout).data;
        if (d.anchor?.pane_id !== anchor) ctx.fail(`split the wrong pane: ${r.stdout}`);
        const windows = (await ctx.lab.tmux("list-windows", "-t", "split")).trim().split("\n");
        if (windows.length !== 1) ctx.fail("the split became a new window");
        await api.waitForMainRequests(1, 90_000);
        const texts = lastUserTexts(api.mainRequests()[0]!.body);
        // Whether the CLI keeps the trailing newline of its argument is its own business.
        if (!texts.some((t) => t === prompt || t === prompt.trimEnd())) {
          ctx.fail(`the dash prompt did not arrive: ${JSON.stringify(texts)}`);
        }
        await ctx.lab.tmux("kill-pane", "-t", d.pane.id).catch(() => {});
      } finally {
        await api.close();
      }
    },
  }],
};
