/** `drover wait TARGET --until ready|idle|prompt|busy|changed|exit [--timeout s]`. */
import type { Command } from "../deps/cli.ts";
import { loadConfig } from "../config/load.ts";
import { watchPane } from "../launch/observe.ts";
import { intFlag } from "../launch/read.ts";
import {
  CONDITIONS,
  parseCondition,
  WAIT_DEFAULT_TIMEOUT_S,
  WAIT_TIMEOUT_RANGE,
  waitFor,
  type WaitResult,
} from "../launch/wait.ts";
import { selectServer } from "../tmux/server.ts";
import { run } from "./context.ts";

export interface WaitData extends WaitResult {
  pane_id: string;
  target: string;
  cli: string;
  cli_source: string;
}

export function register(program: Command): void {
  program
    .command("wait")
    .description("wait until a pane's agent is ready, idle, at a prompt, busy, changed or exited")
    .argument("<target>", "pane: %id or session:window.pane")
    .option("--until <condition>", CONDITIONS.join("|"))
    .option(
      "--timeout <s>",
      `seconds, ${WAIT_TIMEOUT_RANGE.join("-")} (default ${WAIT_DEFAULT_TIMEOUT_S})`,
    )
    .option("--cli <name>", "CLI assumed when nothing else identifies the pane")
    .action(async (target: string, _o: unknown, cmd: Command) => {
      const o = cmd.opts() as { until?: string; timeout?: string; cli?: string };
      await run(cmd, "drover.wait.v1", async (g) => {
        const until = parseCondition(o.until);
        const timeoutS = intFlag("--timeout", o.timeout, WAIT_TIMEOUT_RANGE) ??
          WAIT_DEFAULT_TIMEOUT_S;
        const config = await loadConfig(g.config !== undefined ? { path: g.config } : {});
        const w = await watchPane(selectServer(g), config, target, o.cli);
        const r = await waitFor(until, () => w.look(), { timeoutS, target });
        const data: WaitData = {
          pane_id: w.pane.id,
          target: w.pane.target,
          cli: w.identified.cli,
          cli_source: w.identified.source,
          ...r,
        };
        return {
          data,
          human:
            `${w.pane.id} (${w.pane.target}) is ${until} after ${r.waited_ms} ms (state ${r.state})`,
        };
      });
    });
}
