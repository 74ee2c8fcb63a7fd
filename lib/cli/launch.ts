/** `drover launch`: an agent CLI in an exact new tmux pane, optionally with a kickoff prompt. */
import { Command, Option } from "../deps/cli.ts";
import { loadLaunchConfig } from "../launch/config.ts";
import { DIRECTIONS, launch } from "../launch/launch.ts";
import { readPrompt } from "../launch/prompt.ts";
import { selectServer } from "../tmux/server.ts";
import { run } from "./context.ts";

export function register(program: Command): void {
  program
    .command("launch")
    .description(
      "start an agent CLI in a new tmux window or an exact split, with an optional kickoff prompt",
    )
    .requiredOption("--cli <name>", "the [clis.<name>] profile or built-in recipe to launch")
    .option("--prompt <source>", 'kickoff prompt source: only "-" (stdin, piped)')
    .option("--window", "a new window (the default placement)")
    .addOption(
      new Option("--split <direction>", "split the --anchor pane").choices([...DIRECTIONS]),
    )
    .option("--anchor <target>", "the pane to split: %id or session:window.pane")
    .option("--background", "leave the selected window and pane as they are")
    .option("--cwd <dir>", "working directory of the agent")
    .option("--title <title>", "pane title (and window name for a new window)")
    .option("--session <name>", "session for the new window (created when it does not exist)")
    .action(async (_opts: unknown, cmd: Command) => {
      const o = cmd.opts() as Record<string, string | boolean | undefined>;
      await run(cmd, "drover.launch.v1", async (g) => {
        const server = selectServer(g);
        const insideServer = !g.socketName && !g.socketPath && !!Deno.env.get("TMUX");
        const { data, warnings } = await launch({
          cli: o.cli as string,
          prompt: o.prompt as string | undefined,
          window: o.window === true,
          split: o.split as string | undefined,
          anchor: o.anchor as string | undefined,
          background: o.background === true,
          cwd: o.cwd as string | undefined,
          title: o.title as string | undefined,
          session: o.session as string | undefined,
        }, {
          server,
          insideServer,
          currentPane: insideServer ? Deno.env.get("TMUX_PANE") : undefined,
          clis: (await loadLaunchConfig(g)).clis,
          readPrompt: () => readPrompt(),
        });
        const where = data.placement === "split"
          ? `split ${data.direction} of ${data.anchor?.pane_id}`
          : data.placement === "session"
          ? `new session ${data.session.name}`
          : `new window in ${data.session.name}`;
        const human = [
          `launched ${data.cli} in ${data.pane.id} (${data.pane.target}, window ${data.window.id}, ` +
          `session ${data.session.id}) — ${where}${data.background ? ", background" : ""}`,
        ];
        if (data.prompt) {
          human.push(`kickoff prompt: ${data.prompt.bytes} bytes via a private file`);
        }
        return { data, human, warnings };
      });
    });
}
