/** `drover send TARGET [TEXT…]`: type text (argv or stdin) + Enter, verified to leave the input box. */
import { checkCliFlag } from "../profile/resolve.ts";
import { loadConfig } from "../config/discover.ts";
import { invalidArgument } from "../errors.ts";
import { watchPane } from "../launch/observe.ts";
import { SEND_MAX_BYTES, sendText, sendTooLarge, validateSendText } from "../launch/send.ts";
import { stdinSource } from "../launch/prompt.ts";
import { sendKeys, typeText } from "../tmux/send.ts";
import { selectServer } from "../tmux/server.ts";
import type { Invocation } from "./invocation.ts";
import type { SEND } from "./command_specs.ts";
import type { CommandResult } from "./output.ts";
import type { SendData } from "../contracts/send.ts";

async function stdinText(): Promise<string> {
  const src = stdinSource();
  if (src.isTerminal()) {
    throw invalidArgument(
      "no text given and stdin is a terminal; pass the text as arguments or pipe it in",
    );
  }
  const bytes = await src.read(SEND_MAX_BYTES);
  // Checked before decoding: the read stops one byte past the limit, maybe inside a character.
  if (bytes.length > SEND_MAX_BYTES) throw sendTooLarge();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidArgument("the text on stdin is not valid UTF-8");
  }
  // `echo text | drover send` should not submit an empty second line.
  return text.replace(/\r?\n$/, "");
}

export async function action(
  { args, opts: o, g }: Invocation<typeof SEND>,
): Promise<CommandResult<SendData>> {
  const target = args.target;
  const words = args.text;
  const fromArgv = words.length > 0;
  const text = validateSendText(fromArgv ? words.join(" ") : await stdinText());
  const config = await loadConfig(g.config !== undefined ? { path: g.config } : {});
  checkCliFlag(o.cli, config);
  const server = selectServer(g);
  const w = await watchPane(server, config, target, o.cli);
  const r = await sendText(text, target, {
    observe: () => w.look(),
    // One line arrives as typed bytes; several as one bracketed paste (when the CLI asked for
    // bracketed paste), so a newline cannot submit the first line early.
    type: (t) => typeText(server, w.pane.id, t, { bracketed: t.includes("\n") }),
    enter: () => sendKeys(server, w.pane.id, ["Enter"]),
  });
  const data: SendData = {
    pane_id: w.pane.id,
    target: w.pane.target,
    cli: w.identified.cli,
    cli_source: w.identified.source,
    input: {
      source: fromArgv ? "argv" : "stdin",
      characters: [...text].length,
      bytes: new TextEncoder().encode(text).length,
      method: r.method,
    },
    enter_presses: r.enter_presses,
    verified: true,
    state_before: r.state_before,
    state_after: r.state_after,
  };
  return {
    data,
    human: `sent ${data.input.bytes} bytes to ${w.pane.id} (${w.pane.target}); it left the ` +
      `input box after ${r.enter_presses} Enter`,
  };
}
