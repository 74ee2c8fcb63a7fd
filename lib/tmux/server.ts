/**
 * Which tmux server a command talks to: -S path, else -L name, else the server of $TMUX (when
 * drover runs inside tmux), else tmux's default. Made explicit so every message can name it.
 */
import type { TmuxServer } from "./run.ts";

export interface ServerSelection {
  socketName?: string;
  socketPath?: string;
}

export function selectServer(sel: ServerSelection, env = Deno.env.toObject()): TmuxServer {
  if (sel.socketPath) return { socketPath: sel.socketPath };
  if (sel.socketName) return { socketName: sel.socketName };
  // $TMUX is "socket_path,server_pid,session_index"; a socket path may itself hold commas, so
  // only the last two fields are split off.
  const inside = env.TMUX;
  if (inside) {
    const parts = inside.split(",");
    const path = parts.length >= 3 ? parts.slice(0, -2).join(",") : parts[0];
    if (path) return { socketPath: path };
  }
  return {};
}
