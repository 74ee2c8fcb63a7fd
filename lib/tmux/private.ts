/**
 * A private tmux server that drover owns from start to end (`drover verify`): `-L <name>` with no
 * configuration file read, a holder session that keeps it alive while CLI sessions come and go,
 * sessions of an exact size, and kill-server at the end. Nothing here touches the user's server.
 */
import { DroverError } from "../errors.ts";
import { data, fmt, num, paneId as paneArg, text, word } from "./arg.ts";
import { nonce } from "./panes.ts";
import { tmux, type TmuxServer } from "./run.ts";
import { clip } from "../base/clip.ts";

/** A server started by {@link startPrivateServer}: `-L name`, never the user's. */
export interface PrivateServer extends TmuxServer {
  socketName: string;
}

/** A name no other server uses: `<prefix>-<pid>-<random>`. */
export function privateServerName(prefix: string): string {
  return `${prefix.replace(/[^A-Za-z0-9_-]/g, "_")}-${Deno.pid}-${nonce().slice(0, 8)}`;
}

/**
 * Start `-L name` with `-f /dev/null` semantics: tmux reads no ~/.tmux.conf for a server it starts
 * with an explicit config of /dev/null, so the user's key bindings and options never apply.
 */
export async function startPrivateServer(name: string): Promise<PrivateServer> {
  const server: PrivateServer = { socketName: name };
  await tmux(server, [
    word("-f"),
    word("/dev/null"),
    word("new-session"),
    word("-d"),
    word("-s"),
    word("_holder"),
    word("-x"),
    num(80),
    word("-y"),
    num(24),
    word("--"),
    word("sleep"),
    word("86400"),
  ]);
  // A CLI that exits leaves its last screen readable (and its exit status) instead of vanishing.
  await tmux(server, [word("set-option"), word("-g"), word("remain-on-exit"), word("on")]);
  await tmux(server, [word("set-option"), word("-g"), word("history-limit"), num(5000)]);
  return server;
}

export interface SizedSession {
  session: string;
  paneId: string;
}

/**
 * A detached session of exactly cols x rows whose pane execs `argv` directly (more than one
 * element, so no shell parses it), pinned to that size.
 */
export async function newSizedSession(
  server: PrivateServer,
  spec: { session: string; cols: number; rows: number; cwd?: string; argv: string[] },
): Promise<SizedSession> {
  if (spec.argv.length < 2) throw new Error("newSizedSession needs at least two argv elements");
  const args = [
    word("new-session"),
    word("-d"),
    word("-P"),
    word("-F"),
    fmt`#{pane_id}`,
    word("-s"),
    text(spec.session),
    word("-x"),
    num(spec.cols),
    word("-y"),
    num(spec.rows),
    ...(spec.cwd !== undefined ? [word("-c"), text(spec.cwd)] : []),
    word("--"),
    ...spec.argv.map(data),
  ];
  const r = await tmux(server, args, { allowFailure: true });
  const id = r.stdout.trim();
  if (r.code !== 0 || !/^%[0-9]+$/.test(id)) {
    throw new DroverError(
      "CREATE_FAILED",
      `tmux could not start a session on -L ${server.socketName}: ${
        clip(r.stderr.trim() || `exit ${r.code}`, 300)
      }`,
    );
  }
  // Detached sessions keep -x/-y only while nothing resizes them: pin it.
  await tmux(server, [
    word("set-option"),
    word("-t"),
    paneArg(id),
    word("window-size"),
    word("manual"),
  ]);
  return { session: spec.session, paneId: id };
}

/** End one session (its pane's process gets SIGHUP). Quiet when it is already gone. */
export async function killSession(server: PrivateServer, session: string): Promise<void> {
  await tmux(server, [word("kill-session"), word("-t"), data(`=${session}`)], {
    allowFailure: true,
  });
}

/** End the whole private server. Quiet when it is already gone. */
export async function killServer(server: PrivateServer): Promise<void> {
  await tmux(server, [word("kill-server")], { allowFailure: true, timeoutMs: 5000 }).catch(
    () => {},
  );
}

/** `#{pane_pid}` of every pane of the server (empty when the server is gone). */
export async function panePids(server: PrivateServer): Promise<number[]> {
  const r = await tmux(server, [word("list-panes"), word("-a"), word("-F"), fmt`#{pane_pid}`], {
    allowFailure: true,
  }).catch(() => undefined);
  if (!r || r.code !== 0) return [];
  return r.stdout.split("\n").map((l) => Number(l.trim())).filter((n) =>
    Number.isInteger(n) && n > 1
  );
}

/** Whether a pane's process has exited, and its status once tmux has recorded it. */
export async function paneExit(
  server: PrivateServer,
  paneId: string,
): Promise<{ dead: boolean; status?: number }> {
  const r = await tmux(server, [
    word("display-message"),
    word("-p"),
    word("-t"),
    paneArg(paneId),
    fmt`#{pane_dead}:#{pane_dead_status}`,
  ], { allowFailure: true });
  if (r.code !== 0) return { dead: true };
  const [dead, status] = r.stdout.trim().split(":");
  return dead === "1"
    ? { dead: true, ...(status ? { status: Number(status) } : {}) }
    : { dead: false };
}
