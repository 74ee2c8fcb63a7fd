/** `drover panes [--session S]`: every pane with its CLI (and how it was identified), role, state, mode. */
import { checkCliFlag } from "../profile/resolve.ts";
import { DroverError, invalidArgument } from "../errors.ts";
import { readDuration } from "../config/duration.ts";
import { makeDetector, makeSummarizer, type Verdicts } from "../approve/judge.ts";
import type { PaneSummary } from "../detect/mod.ts";
import { loadConfig } from "../config/discover.ts";
import type { Config } from "../config/types.ts";
import { inventoryOf } from "../identify/context.ts";
import { scanProc } from "../identify/procs.ts";
import type { CliVersion } from "../identify/version.ts";
import { listPanes } from "../tmux/panes.ts";
import { capturePanes } from "../tmux/capture.ts";
import { describeServer, type TmuxServer } from "../tmux/run.ts";
import { selectServer } from "../tmux/server.ts";
import type { Invocation } from "./invocation.ts";
import { cellText, fit, width } from "../board/text.ts";
import type { CommandResult } from "./output.ts";

/** Version of `panes --format tsv` (read by sweep.sh). */
export const PANES_TSV_VERSION = 1;

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
  cli_source: string;
  cli_evidence: string;
  role: "orchestrator" | "agent";
  role_reason: string;
  state: string;
  mode: string;
  /** The CLI's version when it can be known cheaply (its processes, else its screen), else null. */
  cli_version: string | null;
  /** Where cli_version was read: "path" / "package" (the pane's processes), "screen", or null. */
  cli_version_source: string | null;
  /** Background work still pending (detect's `background`; the state is busy), else null. */
  background: string | null;
}

/** Columns the table's TITLE gets: titles are free text, and can be 25 KB long. */
export const TITLE_COLUMNS = 48;

/**
 * One table cell through the board's sanitiser (lib/board/text.ts, the one for everything the
 * board and the table print), padded to `n` columns — never cut: targets and CLI names are what
 * a person copies, and the pane id before them is the identifier anyway.
 */
function pad(s: string, n: number): string {
  const t = cellText(s);
  const w = width(t);
  return w >= n ? t + " " : t + " ".repeat(n - w);
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
        state: seen ? String(seen.state) : "gone",
        mode: seen ? String(seen.mode) : "unknown",
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

/** `--interval` of `--watch` in ms (default 2s), within 250ms–10m. */
function watchInterval(text: string | undefined): number {
  if (text === undefined) return 2000;
  return readDuration(text, "--interval", { min: 250, max: 600_000 });
}

export async function action({ opts, g }: Invocation): Promise<CommandResult> {
  const o = opts as {
    session?: string;
    cli?: string;
    format: string;
    formatVersion?: string;
    watch?: boolean;
    interval?: string;
    events?: string;
  };
  if (o.formatVersion !== undefined && o.formatVersion !== String(PANES_TSV_VERSION)) {
    throw new DroverError(
      "FORMAT_MISMATCH",
      `format version mismatch: the reader expects panes format ${o.formatVersion}, this ` +
        `drover prints format ${PANES_TSV_VERSION}; use the script from \`drover sweep-script\``,
    );
  }
  if (!o.watch && (o.interval !== undefined || o.events !== undefined)) {
    throw invalidArgument(`${o.interval !== undefined ? "--interval" : "--events"} needs --watch`);
  }
  const intervalMs = o.watch ? watchInterval(o.interval) : 0;
  const config = await loadConfig(g.config ? { path: g.config } : {});
  checkCliFlag(o.cli, config);
  const server = selectServer(g);
  // The live board needs a terminal; piped, with --json or --format tsv it is the one-shot table.
  if (o.watch && !g.json && o.format !== "tsv" && Deno.stdout.isTerminal()) {
    const { watch } = await import("./panes_watch.ts");
    return await watch({
      server,
      config,
      g,
      session: o.session,
      cli: o.cli,
      intervalMs,
      events: o.events,
    });
  }
  const rows = (await snapshotPanes(server, config, o)).map((s) => s.row);
  const data = { server: describeServer(server), session: o.session ?? null, panes: rows };
  if (o.format === "tsv" && !g.json) {
    // One row per pane, tab separated; titles and paths (free text) are left out.
    const clean = (s: string) => s.replace(/[\t\r\n]/g, " ");
    const lines = [`#drover-panes\t${PANES_TSV_VERSION}`];
    for (const r of rows) {
      lines.push(
        [
          r.id,
          r.target,
          r.session,
          r.window,
          r.pane,
          r.role,
          r.cli,
          r.cli_source,
          r.state,
          r.mode,
        ]
          .map((x) => clean(String(x))).join("\t"),
      );
    }
    return { data, human: lines };
  }
  if (rows.length === 0) {
    return { data, human: [`no panes${o.session ? ` in session ${o.session}` : ""}`] };
  }
  const human = [
    pad("PANE", 6) + pad("TARGET", 16) + pad("CLI", 30) + pad("ROLE", 13) + pad("STATE", 12) +
    pad("MODE", 13) + "TITLE",
  ];
  for (const r of rows) {
    human.push(
      pad(r.id, 6) + pad(r.target, 16) +
        pad(`${r.cli}${r.cli_version ? ` ${r.cli_version}` : ""} (${r.cli_source})`, 30) +
        pad(r.role, 13) + pad(r.state, 12) + pad(r.mode, 13) +
        fit(cellText(r.title), TITLE_COLUMNS),
    );
  }
  return { data, human };
}
