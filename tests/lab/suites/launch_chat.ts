/**
 * The launch boundary against a real Chat Completions CLI (GitHub Copilot CLI, Cline): a kickoff
 * prompt full of quotes, tabs, newlines, $VARS, backslashes and non-ASCII text, carried out of band
 * by `drover launch --prompt - --background` and handed to the CLI by its recipe. The stand-in must
 * receive exactly that prompt as the first user message, and `drover read --wait-stable` must show
 * the scripted reply. Shared by copilot_launch.ts and cline_launch.ts (no `suite` export here).
 */
import { drover } from "../../helpers/drover.ts";
import { cliConfigToml, seededPrompt } from "./launch_common.ts";
import { type LabSuite, resolveCli } from "../harness/mod.ts";
import { startChatStandin } from "../../../lib/scenarios/standins/chat_completions.ts";
import { endProcesses, processesNaming } from "../../../lib/proc/tree.ts";

const REPLY = "LAUNCH-LAB-REPLY: the seeded prompt arrived";

/** The text of every user message of a Chat Completions request. */
function userTexts(body: unknown): string[] {
  const msgs = (body as { messages?: { role?: string; content?: unknown }[] })?.messages ?? [];
  return msgs.filter((m) => m.role === "user").map((m) =>
    typeof m.content === "string"
      ? m.content
      : Array.isArray(m.content)
      ? m.content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("")
      : ""
  );
}

/**
 * The seeded-launch scenario for one Chat Completions CLI: `drover launch --cli <name> --prompt -
 * --background` into a lab session, the prompt byte-exact as the first user message, the reply
 * read back. `argv` adds what the lab starts it with; `seed` writes its throwaway HOME.
 */
export function chatLaunchSuite(o: {
  name: string;
  cli: "copilot" | "cline";
  argv: string[];
  seed: (s: { home: string; project: string; api: string }) => Promise<Record<string, string>>;
}): LabSuite {
  return {
    name: `${o.name}-launch`,
    sizes: [{ cols: 120, rows: 40 }],
    scenarios: [{
      name: `${o.name}-background-seeded-prompt`,
      timeoutMs: 180_000,
      async run(ctx) {
        const api = startChatStandin({ steps: [{ kind: "text", text: REPLY }] });
        let root = "";
        try {
          const cli = await resolveCli(o.cli);
          root = await ctx.lab.tmpDir("launch");
          const home = `${root}/home`;
          const project = `${root}/project`;
          await Deno.mkdir(home);
          await Deno.mkdir(project);
          const env = await o.seed({ home, project, api: api.url });
          const config = `${root}/config.toml`;
          await Deno.writeTextFile(
            config,
            cliConfigToml(o.name, [...cli.argv, ...o.argv], home, env),
          );
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
          const prompt = seededPrompt(8 * 1024);
          ctx.step(
            `drover launch --cli ${o.name} --prompt - --background (${prompt.length} chars)`,
          );
          const r = await drover(
            [
              "-L",
              ctx.lab.name,
              "--config",
              config,
              "--json",
              "launch",
              "--cli",
              o.name,
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
          const first = await api.waitForRequest((q) => q.role === "main", 90_000);
          const texts = userTexts(first.body);
          if (!texts.some((t) => t === prompt || t.includes(prompt))) {
            const longest = texts.reduce((a, b) => (b.length > a.length ? b : a), "");
            let at = 0;
            while (at < longest.length && longest[at] === prompt[at]) at++;
            ctx.fail(
              `the stand-in did not receive the prompt byte-exact: ${texts.length} user message(s), ` +
                `longest ${longest.length} chars vs ${prompt.length}, first difference at ${at}: ` +
                JSON.stringify(longest.slice(at, at + 40)),
            );
          }
          const exact = texts.includes(prompt);
          ctx.log(`the first user message ${exact ? "is" : "contains"} the prompt byte-exact`);
          let text = "";
          for (let i = 0; i < 6 && !text.includes(REPLY); i++) {
            const rd = await drover(
              ["-L", ctx.lab.name, "--json", "read", pane, "--wait-stable", "--wait-timeout", "20"],
              { env: { TMUX: "", TMUX_PANE: "" } },
            );
            if (rd.code !== 0) ctx.fail(`read failed (${rd.code}): ${rd.stdout}${rd.stderr}`);
            text = JSON.parse(rd.stdout).data.text;
          }
          if (!text.includes(REPLY)) {
            ctx.fail(`read --wait-stable never showed the reply:\n${text}`);
          }
        } finally {
          await api.close();
          // What the CLI left outside the pane's tree, naming the folder (Cline's hub daemon).
          if (root) await endProcesses(await processesNaming(root));
        }
      },
    }],
  };
}
