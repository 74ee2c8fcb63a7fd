/** `drover wait TARGET --until ready|idle|prompt|busy|changed|exit [--timeout s]`. */
import { checkCliFlag } from "../profile/resolve.ts";
import { loadConfig } from "../config/discover.ts";
import { watchPane } from "../launch/observe.ts";
import { intFlag } from "../launch/read.ts";
import {
  parseCondition,
  WAIT_DEFAULT_TIMEOUT_S,
  WAIT_TIMEOUT_RANGE,
  waitFor,
} from "../launch/wait.ts";
import { selectServer } from "../tmux/server.ts";
import type { Invocation } from "./invocation.ts";
import type { WAIT } from "./command_specs.ts";
import type { CommandResult } from "./output.ts";
import type { WaitData } from "../contracts/wait.ts";

export async function action(
  { args, opts: o, g }: Invocation<typeof WAIT>,
): Promise<CommandResult<WaitData>> {
  const target = args.target;
  const until = parseCondition(o.until);
  const timeoutS = intFlag("--timeout", o.timeout, WAIT_TIMEOUT_RANGE) ??
    WAIT_DEFAULT_TIMEOUT_S;
  const config = await loadConfig(g.config !== undefined ? { path: g.config } : {});
  checkCliFlag(o.cli, config);
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
    human: `${w.pane.id} (${w.pane.target}) is ${until} after ${r.waited_ms} ms (state ${r.state})`,
  };
}
