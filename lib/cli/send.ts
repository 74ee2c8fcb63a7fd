/** `drover send TARGET [TEXT…]`: type text (argv or stdin) + Enter, verified to leave the input box. */
import { loadConfig } from "../config/load.ts";
import { invalidArgument } from "../errors.ts";
import { watchPane } from "../launch/observe.ts";
import { SEND_MAX_BYTES, sendText, validateSendText } from "../launch/send.ts";
import { stdinSource } from "../launch/prompt.ts";
import { pasteText } from "../tmux/create.ts";
import { sendKeys, sendLiteral } from "../tmux/send.ts";
import { selectServer } from "../tmux/server.ts";
import type { Invocation } from "./invocation.ts";
import type { CommandResult } from "./output.ts";

export interface SendData {
  pane_id: string;
  target: string;
  cli: string;
  cli_source: string;
  input: { source: "argv" | "stdin"; characters: number; bytes: number; method: "keys" | "paste" };
  enter_presses: number;
  verified: true;
  state_before: string;
  state_after: string;
}

async function stdinText(): Promise<string> {
  const src = stdinSource();
  if (src.isTerminal()) {
    throw invalidArgument(
      "no text given and stdin is a terminal; pass the text as arguments or pipe it in",
    );
  }
  const bytes = await src.read(SEND_MAX_BYTES);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidArgument("the text on stdin is not valid UTF-8");
  }
  // `echo text | drover send` should not submit an empty second line.
  return text.replace(/\r?\n$/, "");
}

export async function action({ args, opts: o, g }: Invocation): Promise<CommandResult<SendData>> {
  const target = args.target as string;
  const words = (args.text ?? []) as string[];
  const fromArgv = words.length > 0;
  const text = validateSendText(fromArgv ? words.join(" ") : await stdinText());
  const config = await loadConfig(g.config !== undefined ? { path: g.config } : {});
  const server = selectServer(g);
  const w = await watchPane(server, config, target, o.cli as string | undefined);
  const r = await sendText(text, target, {
    observe: () => w.look(),
    type: (t) =>
      t.includes("\n") ? pasteText(server, w.pane.id, t) : sendLiteral(server, w.pane.id, t),
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
