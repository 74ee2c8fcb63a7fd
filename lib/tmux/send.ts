/** Keystrokes into a pane: literal text (never interpreted as key names) and named keys. */
import { DroverError } from "../errors.ts";
import { isMissingTarget, tmux, type TmuxServer } from "./run.ts";

async function sendKeysRaw(server: TmuxServer, paneId: string, args: string[]): Promise<void> {
  const r = await tmux(server, ["send-keys", "-t", paneId, ...args], { allowFailure: true });
  if (r.code === 0) return;
  if (isMissingTarget(r.stderr)) {
    throw new DroverError(
      "TARGET_NOT_FOUND",
      `pane ${paneId} no longer exists on this tmux server`,
    );
  }
  await tmux(server, ["send-keys", "-t", paneId, ...args]);
}

/** Type text exactly as given (`send-keys -l`); "--" so text starting with "-" is not a flag. */
export async function sendLiteral(server: TmuxServer, paneId: string, text: string): Promise<void> {
  if (text === "") return;
  await sendKeysRaw(server, paneId, ["-l", "--", text]);
}

/** Press named keys ("Enter", "C-u", "1"), each as its own key. */
export async function sendKeys(server: TmuxServer, paneId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await sendKeysRaw(server, paneId, ["--", ...keys]);
}
