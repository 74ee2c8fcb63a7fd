/**
 * What `drover panes` knows of each pane: one tmux list and one batched capture, each pane
 * identified and judged. The one-shot table (panes.ts) and the live board (panes_watch.ts) both
 * read it.
 */
import { makeDetector, makeSummarizer } from "../detect/factory.ts";
import type { Config } from "../config/types.ts";
import type { Mode, PaneState, PaneSummary, Verdicts } from "../detect/mod.ts";
import { inventoryOf } from "../identify/context.ts";
import type { CliSource } from "../identify/pane_cli.ts";
import { scanProc } from "../identify/procs.ts";
import type { CliVersion, VersionSource } from "../identify/version.ts";
import { capturePanes } from "../tmux/capture.ts";
import { listPanes } from "../tmux/panes.ts";
import type { TmuxServer } from "../tmux/run.ts";

export interface PaneRow {
  id: string;
  target: string;
  session: string;
  window: number;
  pane: number;
  title: string;
  command: string;
  path: string;
  pid: number;
  size: string;
  active: boolean;
  cli: string;
  cli_source: CliSource;
  cli_evidence: string;
  role: "orchestrator" | "agent";
  role_reason: string;
  state: PaneState | "gone";
  mode: Mode;
  /** The CLI's version when it can be known cheaply (its processes, else its screen), else null. */
  cli_version: string | null;
  /** Where cli_version was read: "path" / "package" (the pane's processes), "screen", or null. */
  cli_version_source: VersionSource | null;
  /** Background work still pending (detect's `background`; the state is busy), else null. */
  background: string | null;
}

/**
 * One pane as `panes` sees it: its row, and (for the board) the detector verdicts behind it;
 * none when the pane is gone or only the row was asked for.
 */
export interface PaneSnapshot {
  row: PaneRow;
  verdicts: Verdicts | undefined;
}

export interface SnapshotOptions {
  session?: string;
  cli?: string;
  /**
   * For the live board: capture the styled form (-e) too and run every detector, since the board
   * shows a prompt's command (read from the styled form) and why a pane is stuck. A row's state,
   * mode and version need neither (tests/unit/panes_plain_test.ts), so the one-shot table
   * captures plain screens — half the bytes for tmux to print and drover to read — and runs
   * `summarize()`, which skips the verdicts a row does not show.
   */
  board?: boolean;
}

/**
 * Every pane with its verdicts: one tmux list and one batched capture. The process table is
 * scanned while tmux lists the panes, and the panes are identified (their processes' argv read)
 * and their detectors built while tmux captures them.
 */
export async function snapshotPanes(
  server: TmuxServer,
  config: Config,
  o: SnapshotOptions,
): Promise<PaneSnapshot[]> {
  const listing = listPanes(server, o.session === undefined ? {} : { session: o.session });
  const scanned = scanProc();
  const panes = await listing;
  // The capture first: tmux starts on it before the (synchronous) /proc reads of identification.
  const [caps, views] = await Promise.all([
    capturePanes(server, panes.map((p) => p.id), { styled: o.board === true }),
    inventoryOf(panes, config, { session: o.session, cliFlag: o.cli, versions: true, scanned })
      // Each pane's detector too: its profile's matchers are built while tmux is still capturing.
      .then((vs) =>
        vs.map((v) => ({
          ...v,
          detect: o.board === true
            ? makeDetector(v.identified.cli, config, v.pane.title)
            : makeSummarizer(v.identified.cli, config, v.pane.title),
        }))
      ),
  ]);
  return views.map((v) => {
    const cap = caps.get(v.pane.id);
    const seen: PaneSummary | Verdicts | undefined = cap ? v.detect(cap) : undefined;
    return {
      verdicts: o.board === true ? seen as Verdicts | undefined : undefined,
      row: {
        id: v.pane.id,
        target: v.pane.target,
        session: v.pane.sessionName,
        window: v.pane.windowIndex,
        pane: v.pane.paneIndex,
        title: v.pane.title,
        command: v.pane.currentCommand,
        path: v.pane.currentPath,
        pid: v.pane.pid,
        size: `${v.pane.width}x${v.pane.height}`,
        active: v.pane.active && v.pane.windowActive,
        cli: v.identified.cli,
        cli_source: v.identified.source,
        cli_evidence: v.identified.evidence,
        role: v.role,
        role_reason: v.roleWhy,
        state: seen ? seen.state : "gone",
        mode: seen ? seen.mode : "unknown",
        ...versionOf(v.version, seen),
        background: seen?.background ?? null,
      },
    };
  });
}

/** The pane's CLI version: from its processes, else from its screen (the banner), else null. */
function versionOf(
  fromProcs: CliVersion | null | undefined,
  seen: PaneSummary | undefined,
): Pick<PaneRow, "cli_version" | "cli_version_source"> {
  if (fromProcs) return { cli_version: fromProcs.version, cli_version_source: fromProcs.source };
  const screen = seen?.cli_version ?? null;
  return { cli_version: screen, cli_version_source: screen === null ? null : "screen" };
}
