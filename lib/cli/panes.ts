/** `drover panes [--session S]`: every pane with its CLI (and how it was identified), role, state, mode. */
import { loadConfig } from "../config/load.ts";
import { DroverError } from "../errors.ts";
import { makeDetector } from "../approve/judge.ts";
import { inventory } from "../identify/context.ts";
import { capturePanes } from "../tmux/capture.ts";
import { describeServer } from "../tmux/run.ts";
import { selectServer } from "../tmux/server.ts";
import type { Invocation } from "./invocation.ts";
import { type CommandResult, printable } from "./output.ts";

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
}

function pad(s: string, n: number): string {
  return s.length >= n ? s + " " : s + " ".repeat(n - s.length);
}

export async function action({ opts, g }: Invocation): Promise<CommandResult> {
  const o = opts as {
    session?: string;
    cli?: string;
    format: string;
    formatVersion?: string;
  };
  if (o.formatVersion !== undefined && o.formatVersion !== String(PANES_TSV_VERSION)) {
    throw new DroverError(
      "FORMAT_MISMATCH",
      `format version mismatch: the reader expects panes format ${o.formatVersion}, this ` +
        `drover prints format ${PANES_TSV_VERSION}; use the script from \`drover sweep-script\``,
    );
  }
  const config = await loadConfig(g.config ? { path: g.config } : {});
  const server = selectServer(g);
  const views = await inventory(server, config, { session: o.session, cliFlag: o.cli });
  const caps = await capturePanes(server, views.map((v) => v.pane.id), { styled: true });
  const rows: PaneRow[] = [];
  for (const v of views) {
    const cap = caps.get(v.pane.id);
    const verdicts = cap ? makeDetector(v.identified.cli, config, v.pane.title)(cap) : undefined;
    rows.push({
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
      state: verdicts ? String(verdicts.state) : "gone",
      mode: verdicts ? String(verdicts.mode) : "unknown",
    });
  }
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
    pad("PANE", 6) + pad("TARGET", 16) + pad("CLI", 22) + pad("ROLE", 13) + pad("STATE", 12) +
    pad("MODE", 13) + "TITLE",
  ];
  for (const r of rows) {
    human.push(
      pad(r.id, 6) + pad(r.target, 16) + pad(`${r.cli} (${r.cli_source})`, 22) +
        pad(r.role, 13) + pad(r.state, 12) + pad(r.mode, 13) + printable(r.title),
    );
  }
  return { data, human };
}
