/**
 * What panes / capture / approve share: the pane inventory of a server or session with each pane's
 * CLI (and how it was identified) and role, from one list-panes call and one process-table scan.
 */
import type { Config } from "../config/load.ts";
import { DroverError } from "../errors.ts";
import { listPanes, type PaneInfo, resolveTarget } from "../tmux/panes.ts";
import type { TmuxServer } from "../tmux/run.ts";
import { cliNames, type Identified, identifyPane, needsProcessTable } from "./pane_cli.ts";
import { type ProcTable, readArgvs, readProcTable, subtree } from "./procs.ts";
import { type CliVersion, processVersion } from "./version.ts";
import { orchestrators, type Role, roleOf } from "./roles.ts";

export interface PaneView {
  pane: PaneInfo;
  identified: Identified;
  role: Role;
  /** Why the pane is an orchestrator (empty for agents). */
  roleWhy: string;
  /** The CLI's version from the pane's processes (only with `versions`); null when unknown. */
  version?: CliVersion | null;
}

export interface InventoryOptions {
  session?: string;
  cliFlag?: string;
  /** Orchestrator target overriding [drive].orchestrator. */
  orchestrator?: string;
  /**
   * Also read each pane's CLI version from its processes: the argv of every pane's process tree
   * (not only of the panes identification needs) and a few small file reads per pane.
   */
  versions?: boolean;
  /**
   * The process table already scanned (procs.ts `scanProc`, e.g. while tmux listed the panes);
   * only the argv of the panes' processes is still read. Default: scanned here.
   */
  scanned?: ProcTable;
}

export async function inventory(
  server: TmuxServer,
  config: Config,
  opts: InventoryOptions = {},
): Promise<PaneView[]> {
  const panes = await listPanes(
    server,
    opts.session === undefined ? {} : { session: opts.session },
  );
  return await inventoryOf(panes, config, opts);
}

/** The inventory of panes already listed (a caller may capture them meanwhile). */
export async function inventoryOf(
  panes: PaneInfo[],
  config: Config,
  opts: InventoryOptions = {},
): Promise<PaneView[]> {
  const roots = panes.filter((p) => opts.versions || needsProcessTable(p, config))
    .map((p) => p.pid);
  const procs = roots.length === 0
    ? undefined
    : opts.scanned
    ? readArgvs(opts.scanned, roots)
    : await readProcTable(roots);
  const orch = orchestrators(panes, opts.orchestrator ?? config.drive.orchestrator);
  const views: PaneView[] = panes.map((pane) => ({
    pane,
    identified: identifyPane({ pane, config, cliFlag: opts.cliFlag, procs }),
    role: roleOf(pane, orch),
    roleWhy: orch.why.get(pane.id) ?? "",
  }));
  if (opts.versions && procs) {
    await Promise.all(views.map(async (v) => {
      v.version = await processVersion(
        subtree(procs, v.pane.pid),
        cliNames(v.identified.cli, config),
      );
    }));
  }
  return views;
}

/** One pane by target, with its CLI and its role judged against its whole session. */
export async function viewTarget(
  server: TmuxServer,
  config: Config,
  target: string,
  opts: Omit<InventoryOptions, "session"> = {},
): Promise<PaneView> {
  const pane = await resolveTarget(server, target);
  const all = await inventory(server, config, { ...opts, session: pane.sessionName });
  const view = all.find((v) => v.pane.id === pane.id);
  if (view) return view;
  throw new DroverError("TARGET_NOT_FOUND", `pane ${target} vanished while it was being inspected`);
}
