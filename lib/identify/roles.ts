/**
 * Pane roles. The orchestrator is the pane that gets nudges and never gets an approval: the
 * configured `[drive].orchestrator` target, else the session's first pane (pane 0 of window 0 with
 * tmux's default numbering). A configured orchestrator replaces the default only in its own
 * session; every other session keeps its default, so a config naming one session cannot open the
 * first pane of another to approvals.
 */
import { firstPaneOf, type PaneInfo, parseTarget } from "../tmux/panes.ts";

export type Role = "orchestrator" | "agent";

export interface OrchestratorSet {
  /** Pane ids that are orchestrators. */
  ids: Set<string>;
  /** How each was chosen, for people. */
  why: Map<string, string>;
}

/**
 * Orchestrators among `panes` (all panes of the sessions in question). `configured` is the
 * [drive].orchestrator (or a --orchestrator flag); one that names no existing pane leaves the
 * defaults in force.
 */
export function orchestrators(panes: PaneInfo[], configured?: string): OrchestratorSet {
  const ids = new Set<string>();
  const why = new Map<string, string>();
  let configuredPane: PaneInfo | undefined;
  if (configured) {
    try {
      const t = parseTarget(configured);
      configuredPane = panes.find((p) =>
        t.kind === "id"
          ? p.id === t.id
          : p.sessionName === t.session && p.windowIndex === t.window && p.paneIndex === t.pane
      );
    } catch {
      configuredPane = undefined;
    }
  }
  if (configuredPane) {
    ids.add(configuredPane.id);
    why.set(configuredPane.id, `configured orchestrator (${configured})`);
  }
  for (const session of new Set(panes.map((p) => p.sessionName))) {
    if (configuredPane && configuredPane.sessionName === session) continue;
    const first = firstPaneOf(panes, session);
    if (first) {
      ids.add(first.id);
      why.set(first.id, `default orchestrator (first pane of session ${session})`);
    }
  }
  return { ids, why };
}

export function roleOf(pane: PaneInfo, set: OrchestratorSet): Role {
  return set.ids.has(pane.id) ? "orchestrator" : "agent";
}
