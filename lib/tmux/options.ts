/** Pane user options: drover marks the panes it launched (`@drover-cli`) so identification is exact. */
import { DroverError } from "../errors.ts";
import { data, fmt, paneId, word } from "./arg.ts";
import { isMissingTarget, tmux, type TmuxServer } from "./run.ts";

export const CLI_OPTION = "@drover-cli";

/**
 * Set on a pane when an approval's `1` landed in its input box (key-in-input): that text is
 * drover's own stray key, which no later drive tick may submit as typed-but-unsent input —
 * whichever approver (drover approve, sweep.sh approve, drive) sent it. Empty when unset.
 */
export const STRAY_KEY_OPTION = "@drover-stray-key";

function checkName(name: string): void {
  if (!/^@[A-Za-z0-9_-]+$/.test(name)) {
    throw new DroverError("INVALID_ARGUMENT", `not a tmux user option name: ${name}`);
  }
}

/** A pane option's value, or undefined when unset. */
export async function getPaneOption(
  server: TmuxServer,
  pane: string,
  name: string,
): Promise<string | undefined> {
  checkName(name);
  const args = [
    word("show-options"),
    word("-p"),
    word("-q"),
    word("-v"),
    word("-t"),
    paneId(pane),
    data(name),
  ];
  const r = await tmux(server, args, { allowFailure: true });
  if (r.code !== 0) {
    if (isMissingTarget(r.stderr)) {
      throw new DroverError(
        "TARGET_NOT_FOUND",
        `pane ${pane} no longer exists on this tmux server`,
      );
    }
    await tmux(server, args);
  }
  const v = r.stdout.replace(/\n$/, "");
  return v === "" ? undefined : v;
}

export async function setPaneOption(
  server: TmuxServer,
  pane: string,
  name: string,
  value: string,
): Promise<void> {
  checkName(name);
  // set-option takes its value verbatim (no format expansion without -F).
  const args = [word("set-option"), word("-p"), word("-t"), paneId(pane), data(name), data(value)];
  const r = await tmux(server, args, { allowFailure: true });
  if (r.code !== 0) {
    if (isMissingTarget(r.stderr)) {
      throw new DroverError(
        "TARGET_NOT_FOUND",
        `pane ${pane} no longer exists on this tmux server`,
      );
    }
    await tmux(server, args);
  }
}

/** The socket path of the server (claim files are keyed by it: pane ids are per server). */
export async function socketPath(server: TmuxServer): Promise<string> {
  const r = await tmux(server, [word("display-message"), word("-p"), fmt`#{socket_path}`]);
  return r.stdout.trim();
}

/**
 * True when a window created now would have synchronize-panes on: the global window option, which
 * every new window inherits. False when no server runs yet (a new server starts with it off).
 */
export async function newWindowsSynchronized(server: TmuxServer): Promise<boolean> {
  const args = [
    word("show-options"),
    word("-g"),
    word("-w"),
    word("-v"),
    word("synchronize-panes"),
  ];
  const r = await tmux(server, args, { allowFailure: true });
  return r.code === 0 && r.stdout.trim() === "on";
}
