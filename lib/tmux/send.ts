/**
 * Input into a pane: text delivered byte-exact, and named keys.
 *
 * Text never travels as a tmux argument: an argument is parsed by tmux (a trailing `;` ends the
 * command) and one client command is capped at about 16 KiB. Instead the text goes to a uniquely
 * named paste buffer through tmux's stdin (`load-buffer -b NAME -`) and is pasted from there in
 * the same tmux call (`paste-buffer -d`, which also deletes the buffer). Pasting writes the bytes
 * to the pane as they are, exactly what typing them would write; with `bracketed` the text is
 * wrapped as one bracketed paste when the application asked for bracketed paste (so newlines do
 * not submit early), and tmux turns each newline into the carriage return a terminal sends.
 */
import { DroverError } from "../errors.ts";
import { data, paneId, SEP, word } from "./arg.ts";
import { nonce } from "./panes.ts";
import { isMissingTarget, tmux, tmuxFailure, type TmuxServer } from "./run.ts";

function paneGone(id: string): DroverError {
  return new DroverError("TARGET_NOT_FOUND", `pane ${id} no longer exists on this tmux server`);
}

/** Deliver `text` to the pane byte-exact (see the module comment). */
export async function typeText(
  server: TmuxServer,
  pane: string,
  text: string,
  opts: { bracketed?: boolean } = {},
): Promise<void> {
  if (text === "") return;
  const id = paneId(pane);
  const buffer = data(`drover-${nonce()}`);
  const paste = opts.bracketed
    ? [word("paste-buffer"), word("-p"), word("-d")]
    : [word("paste-buffer"), word("-d")];
  const args = [
    word("load-buffer"),
    word("-b"),
    buffer,
    word("-"),
    SEP,
    ...paste,
    word("-b"),
    buffer,
    word("-t"),
    id,
  ];
  const r = await tmux(server, args, { stdin: text, allowFailure: true });
  if (r.code === 0) return;
  // The paste did not happen; the loaded buffer must not linger on the server.
  await tmux(server, [word("delete-buffer"), word("-b"), buffer], { allowFailure: true });
  if (isMissingTarget(r.stderr)) throw paneGone(pane);
  throw tmuxFailure(server, args, r);
}

/** Press named keys ("Enter", "C-u", "1"), each as its own key. */
export async function sendKeys(server: TmuxServer, pane: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const args = [word("send-keys"), word("-t"), paneId(pane), word("--"), ...keys.map(data)];
  const r = await tmux(server, args, { allowFailure: true });
  if (r.code === 0) return;
  if (isMissingTarget(r.stderr)) throw paneGone(pane);
  throw tmuxFailure(server, args, r);
}
