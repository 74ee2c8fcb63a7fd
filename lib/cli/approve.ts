/**
 * `drover approve TARGET [--dry-run]`: the gated approval of DESIGN §6. A refusal is not an error:
 * it is reported with its reason and its own exit code (lib/approve/gate.ts APPROVE_EXIT).
 */
import { checkCliFlag, judgedByDefault } from "../profile/resolve.ts";
import { loadConfig } from "../config/discover.ts";
import { approve, type ApproveOutcome } from "../approve/approve.ts";
import { makeGateWords, makeJudge } from "../approve/judge.ts";
import { viewTarget } from "../identify/context.ts";
import { socketPath } from "../tmux/options.ts";
import { selectServer } from "../tmux/server.ts";
import { type CommandResult, printable } from "./output.ts";
import type { Invocation } from "./invocation.ts";
import type { APPROVE } from "./command_specs.ts";
import type { ApproveData } from "../contracts/approve.ts";

function optionsLine(o: ApproveOutcome): string | null {
  const opts = o.before?.options ?? [];
  if (opts.length === 0) return null;
  return "  options: " +
    opts.map((x) => `${x.selected ? "❯ " : ""}${x.number}. ${x.text}`).join(" | ");
}

export async function action(
  { args, opts: o, g }: Invocation<typeof APPROVE>,
): Promise<CommandResult<ApproveData>> {
  const target = args.target;
  const config = await loadConfig(g.config ? { path: g.config } : {});
  checkCliFlag(o.cli, config);
  const server = selectServer(g);
  const view = await viewTarget(server, config, target, {
    cliFlag: o.cli,
    orchestrator: o.orchestrator,
  });
  const judge = makeJudge(view.identified.cli, config, view.pane.title);
  const outcome = await approve({
    server,
    pane: view.pane,
    orchestrator: { is: view.role === "orchestrator", why: view.roleWhy },
    judge,
    words: makeGateWords(view.identified.cli, config),
    profileNote: judgedByDefault(view.identified.cli, config),
    dryRun: o.dryRun === true,
    socketPath: await socketPath(server),
  });
  const data: ApproveData = {
    pane_id: view.pane.id,
    target: view.pane.target,
    cli: view.identified.cli,
    cli_source: view.identified.source,
    role: view.role,
    ...outcome,
  };
  const head =
    `${view.pane.id} (${view.pane.target}) ${view.identified.cli} [${view.identified.source}], ${view.role}` +
    (outcome.before ? `, state ${outcome.before.state}` : "");
  const human = [head];
  const live = outcome.before?.live_prompt === true;
  if (live && outcome.before?.command) {
    human.push(`  command: ${printable(outcome.before.command)}`);
  }
  if (live && outcome.before?.file_path) {
    human.push(`  file: ${printable(outcome.before.file_path)}`);
  }
  const ol = live ? optionsLine(outcome) : null;
  if (ol) human.push(printable(ol));
  const verb = outcome.outcome === "refused" ? `refused (${outcome.reason})` : outcome.outcome;
  human.push(`${verb}: ${printable(outcome.message)}`);
  return { data, human, exitCode: outcome.exit_code };
}
