/** `drover panes [--session S]`: every pane with its CLI (and how it was identified), role, state, mode. */
import { checkCliFlag } from "../profile/resolve.ts";
import { DroverError, invalidArgument } from "../errors.ts";
import { readDuration } from "../config/duration.ts";
import { loadConfig } from "../config/discover.ts";
import { describeServer } from "../tmux/run.ts";
import { selectServer } from "../tmux/server.ts";
import type { Invocation } from "./invocation.ts";
import type { PANES } from "./command_specs.ts";
import { cellText, fit, width } from "../board/text.ts";
import type { CommandResult } from "./output.ts";
import type { PanesData } from "../contracts/panes.ts";
import { snapshotPanes } from "./panes_snapshot.ts";

/** Version of `panes --format tsv` (read by sweep.sh). */
export const PANES_TSV_VERSION = 1;

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

/** `--interval` of `--watch` in ms (default 2s), within 250ms–10m. */
function watchInterval(text: string | undefined): number {
  if (text === undefined) return 2000;
  return readDuration(text, "--interval", { min: 250, max: 600_000 });
}

/** The table's data, or the live board's (which drew itself and prints no envelope). */
export async function action(
  { opts: o, g }: Invocation<typeof PANES>,
): Promise<CommandResult<PanesData> | CommandResult<{ watched: true }>> {
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
  const data: PanesData = {
    server: describeServer(server),
    session: o.session ?? null,
    panes: rows,
  };
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
