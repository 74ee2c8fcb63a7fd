/**
 * Ending what a verify run started: a session's pane and what its CLI left behind, and the whole
 * private server with every process tree still on it (CLIs that ignore SIGHUP included).
 */
import { endProcesses, processesNaming, processTree } from "../proc/tree.ts";
import { resolveTarget } from "../tmux/panes.ts";
import { killServer, killSession, panePids, type PrivateServer } from "../tmux/private.ts";

/** Kill the server and every process tree still on it (CLIs that ignore SIGHUP included). */
export async function shutdown(server: PrivateServer): Promise<void> {
  const trees: number[] = [];
  for (const pid of await panePids(server)) trees.push(...await processTree(pid));
  await killServer(server);
  await endProcesses(trees);
}

/**
 * End a session: its pane's process tree, and what the CLI started outside it that names the
 * session's own folder `root` (Cline's hub daemon detaches and outlives the CLI).
 */
export async function endSession(
  server: PrivateServer,
  session: string,
  paneId: string | undefined,
  root: string,
) {
  let tree: number[] = [];
  if (paneId) {
    const pane = await resolveTarget(server, paneId).catch(() => undefined);
    if (pane && pane.pid > 1) tree = await processTree(pane.pid);
  }
  await killSession(server, session);
  await endProcesses([...tree, ...await processesNaming(root)]);
}
