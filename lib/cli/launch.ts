/** `drover launch`: an agent CLI in an exact new tmux pane, optionally with a kickoff prompt. */
import { loadLaunchConfig } from "../launch/config.ts";
import { launch } from "../launch/launch.ts";
import { readPrompt } from "../launch/prompt.ts";
import { selectServer } from "../tmux/server.ts";
import type { Invocation } from "./invocation.ts";
import type { LAUNCH } from "./command_specs.ts";
import type { CommandResult } from "./output.ts";
import type { LaunchData } from "../contracts/launch.ts";

export async function action(
  { opts: o, g }: Invocation<typeof LAUNCH>,
): Promise<CommandResult<LaunchData>> {
  const server = selectServer(g);
  const insideServer = !g.socketName && !g.socketPath && !!Deno.env.get("TMUX");
  const { data, warnings } = await launch({
    cli: o.cli,
    prompt: o.prompt,
    window: o.window === true,
    split: o.split,
    anchor: o.anchor,
    background: o.background === true,
    cwd: o.cwd,
    title: o.title,
    session: o.session,
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
}
