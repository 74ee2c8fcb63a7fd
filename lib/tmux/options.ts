/** Pane user options: drover marks the panes it launched (`@drover-cli`) so identification is exact. */
import { DroverError } from "../errors.ts";
import { isMissingTarget, tmux, type TmuxServer } from "./run.ts";

export const CLI_OPTION = "@drover-cli";

function checkName(name: string): void {
  if (!/^@[A-Za-z0-9_-]+$/.test(name)) {
    throw new DroverError("INVALID_ARGUMENT", `not a tmux user option name: ${name}`);
  }
}

/** A pane option's value, or undefined when unset. */
export async function getPaneOption(
  server: TmuxServer,
  paneId: string,
  name: string,
): Promise<string | undefined> {
  checkName(name);
  const r = await tmux(server, ["show-options", "-p", "-q", "-v", "-t", paneId, name], {
    allowFailure: true,
  });
  if (r.code !== 0) {
    if (isMissingTarget(r.stderr)) {
      throw new DroverError(
        "TARGET_NOT_FOUND",
        `pane ${paneId} no longer exists on this tmux server`,
      );
    }
    await tmux(server, ["show-options", "-p", "-q", "-v", "-t", paneId, name]);
  }
  const v = r.stdout.replace(/\n$/, "");
  return v === "" ? undefined : v;
}

export async function setPaneOption(
  server: TmuxServer,
  paneId: string,
  name: string,
  value: string,
): Promise<void> {
  checkName(name);
  const r = await tmux(server, ["set-option", "-p", "-t", paneId, name, value], {
    allowFailure: true,
  });
  if (r.code !== 0) {
    if (isMissingTarget(r.stderr)) {
      throw new DroverError(
        "TARGET_NOT_FOUND",
        `pane ${paneId} no longer exists on this tmux server`,
      );
    }
    await tmux(server, ["set-option", "-p", "-t", paneId, name, value]);
  }
}

/** The socket path of the server (claim files are keyed by it: pane ids are per server). */
export async function socketPath(server: TmuxServer): Promise<string> {
  const r = await tmux(server, ["display-message", "-p", "#{socket_path}"]);
  return r.stdout.trim();
}
