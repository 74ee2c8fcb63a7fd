/** `drover read TARGET [--last N] [--wait-stable …]`: a pane's text, optionally once it settled. */
import { DroverError } from "../errors.ts";
import { lastLines, readSettings, waitStable } from "../launch/read.ts";
import { capturePane } from "../tmux/capture.ts";
import { resolveTarget } from "../tmux/panes.ts";
import { selectServer } from "../tmux/server.ts";
import type { Invocation } from "./invocation.ts";
import type { READ } from "./command_specs.ts";
import { type CommandResult, printable } from "./output.ts";
import type { ReadData } from "../contracts/read.ts";

export async function action(
  { args, opts: o, g }: Invocation<typeof READ>,
): Promise<CommandResult<ReadData>> {
  const target = args.target;
  const s = readSettings({
    last: o.last,
    waitStable: o.waitStable === true,
    stableInterval: o.stableInterval,
    stablePeriod: o.stablePeriod,
    waitTimeout: o.waitTimeout,
  });
  const server = selectServer(g);
  const pane = await resolveTarget(server, target);
  const history = s.last === null ? 0 : s.last;
  const grab = async (): Promise<string | null> => {
    try {
      return (await capturePane(server, pane.id, { history })).plain;
    } catch (e) {
      if (e instanceof DroverError && e.code === "TARGET_NOT_FOUND") return null;
      throw e;
    }
  };
  let text: string;
  let stable: { stabilized: boolean; waited_ms: number; samples: number } | null = null;
  if (s.waitStable) {
    const r = await waitStable(grab, s);
    text = r.text;
    stable = r;
  } else {
    const t = await grab();
    if (t === null) {
      throw new DroverError("TARGET_NOT_FOUND", `pane ${target} vanished before it was read`);
    }
    text = t;
  }
  const lines = lastLines(text, s.last);
  const data: ReadData = {
    pane_id: pane.id,
    target: pane.target,
    mode: s.last === null ? "snapshot" : "last",
    last: s.last,
    line_count: lines.length,
    text: lines.length > 0 ? lines.join("\n") + "\n" : "",
    stabilized: stable?.stabilized ?? null,
    waited_ms: stable?.waited_ms ?? null,
    samples: stable?.samples ?? null,
  };
  const warnings = stable && !stable.stabilized
    ? [`${target} was still changing after ${s.timeoutS}s; this is the latest text`]
    : [];
  return { data, human: printable(lines.join("\n")), warnings };
}
