/**
 * `drover capture TARGET [--lines N]`: the capture drover judges (visible screen, wrapped lines
 * joined), optionally with N lines of scrollback above it.
 */
import { checkCliFlag } from "../profile/resolve.ts";
import { loadConfig } from "../config/discover.ts";
import { invalidArgument } from "../errors.ts";
import { viewTarget } from "../identify/context.ts";
import { capturePane, type PaneCapture } from "../tmux/capture.ts";
import { selectServer } from "../tmux/server.ts";
import type { PaneView } from "../identify/context.ts";
import { type CommandResult, type GlobalOptions, printable } from "./output.ts";
import type { Invocation } from "./invocation.ts";
import type { CAPTURE } from "./command_specs.ts";
import type { CaptureData } from "../contracts/capture.ts";
import { parseScreenState, saveScreen } from "./profile_test_cmd.ts";

function parseLines(v: string | undefined): number {
  if (v === undefined) return 0;
  if (!/^[0-9]+$/.test(v) || Number(v) > 100_000) {
    throw invalidArgument(`--lines must be a whole number from 0 to 100000 (got "${v}")`);
  }
  return Number(v);
}

/** Shared by capture's extensions (e.g. saving a screen for `profile test`). */
export async function captureTarget(
  g: GlobalOptions,
  target: string,
  opts: { lines?: string; cli?: string },
): Promise<{ view: PaneView; cap: PaneCapture; data: CaptureData }> {
  const lines = parseLines(opts.lines);
  const config = await loadConfig(g.config ? { path: g.config } : {});
  checkCliFlag(opts.cli, config);
  const server = selectServer(g);
  const view = await viewTarget(server, config, target, { cliFlag: opts.cli });
  const cap = await capturePane(server, view.pane.id, { styled: true, history: lines });
  const data: CaptureData = {
    pane_id: view.pane.id,
    target: view.pane.target,
    cli: view.identified.cli,
    cli_source: view.identified.source,
    size: `${view.pane.width}x${view.pane.height}`,
    history_lines: lines,
    plain: cap.plain,
    styled: cap.styled ?? "",
  };
  return { view, cap, data };
}

export async function action(
  { args, opts: o, g }: Invocation<typeof CAPTURE>,
): Promise<CommandResult<CaptureData>> {
  const target = args.target;
  if (o.as !== undefined && o.save === undefined) {
    throw invalidArgument("--as needs --save DIR");
  }
  const state = o.save !== undefined ? parseScreenState(o.as) : undefined;
  const { data } = await captureTarget(g, target, o);
  if (o.save !== undefined && state !== undefined) {
    const saved = await saveScreen(o.save, state, data.plain, data.styled);
    return {
      data: { ...data, saved: { ...saved, state } },
      human: `saved ${saved.plain} (+ ${saved.styled.split("/").pop()}) as ${state}`,
    };
  }
  // The screen as captured; output.ts escapes control characters, the newlines stay.
  return { data, human: printable(data.plain.replace(/\n$/, "")) };
}
