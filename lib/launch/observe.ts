/**
 * One fresh look at a pane for wait/send: capture (plain + styled) and judge it with detect() on
 * the resolved profile of the pane's own CLI (identified as `panes` does: @drover-cli first).
 */
import type { Config } from "../config/load.ts";
import { detect, type PaneState, type Readiness, type Verdicts } from "../detect/mod.ts";
import { DroverError } from "../errors.ts";
import { viewTarget } from "../identify/context.ts";
import type { Identified } from "../identify/pane_cli.ts";
import { resolveProfile } from "../profile/resolve.ts";
import { capturePane } from "../tmux/capture.ts";
import { listPanes, type PaneInfo } from "../tmux/panes.ts";
import type { TmuxServer } from "../tmux/run.ts";

export interface Look {
  gone: boolean;
  text: string;
  verdicts: Verdicts | null;
  state: PaneState | "gone";
  readiness: Readiness;
  input_box: string | null;
  /** A stream error / retry line on screen (`stream_error`), else null. */
  stream_error: string | null;
  /** The pane's window has synchronize-panes on: a key would be broadcast. */
  synchronized: boolean;
  /** The pane's window ("@3"), "" when gone. */
  window: string;
}

export interface Watched {
  pane: PaneInfo;
  identified: Identified;
  look(): Promise<Look>;
}

const GONE: Look = {
  gone: true,
  text: "",
  verdicts: null,
  state: "gone",
  readiness: "indeterminate",
  input_box: null,
  stream_error: null,
  synchronized: false,
  window: "",
};

export async function watchPane(
  server: TmuxServer,
  config: Config,
  target: string,
  cliFlag?: string,
): Promise<Watched> {
  const view = await viewTarget(server, config, target, { cliFlag });
  const profile = resolveProfile(view.identified.cli, config);
  const id = view.pane.id;
  return {
    pane: view.pane,
    identified: view.identified,
    async look(): Promise<Look> {
      const panes = await listPanes(server, { session: view.pane.sessionName }).catch((e) => {
        // The session (or the whole server) closing with its last pane is the pane going away.
        if (
          e instanceof DroverError &&
          (e.code === "TARGET_NOT_FOUND" || e.code === "TMUX_UNAVAILABLE")
        ) return [];
        throw e;
      });
      const info = panes.find((p) => p.id === id);
      if (!info || info.dead) return GONE;
      let cap;
      try {
        cap = await capturePane(server, id, { styled: true });
      } catch (e) {
        if (e instanceof DroverError && e.code === "TARGET_NOT_FOUND") return GONE;
        throw e;
      }
      const v = detect(cap, profile, { title: info.title });
      return {
        gone: false,
        text: cap.plain,
        verdicts: v,
        state: v.state,
        readiness: v.readiness,
        input_box: v.input_box,
        stream_error: v.stream_error,
        synchronized: info.windowSynchronized,
        window: info.windowId,
      };
    },
  };
}
