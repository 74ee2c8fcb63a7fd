/**
 * The kickoff prompt: read from stdin only, validated completely before anything is created.
 *
 * The prompt ends up as ONE argv string of the agent process (the carrier in ./carrier.ts hands it
 * over with exec). Linux caps a single argv string at MAX_ARG_STRLEN = 32 pages = 131072 bytes
 * including its terminating NUL, so one argument can never exceed 131071 bytes, whatever ARG_MAX
 * says. A flag form may prepend "--prompt-interactive=" to the same string, so drover keeps a
 * margin and caps prompts at 120 KiB of UTF-8. The prompt never passes through a tmux command: tmux
 * 3.3a refuses any client command whose packed arguments exceed 16,364 bytes (MAX_IMSGSIZE 16384 minus
 * the 16-byte message header and the 4-byte argc), far below what prompts need.
 */
import { DroverError, invalidArgument } from "../errors.ts";
import { readUpTo } from "../io/capped.ts";

/** Largest accepted prompt, in bytes of UTF-8 (see the module comment for why). */
export const MAX_PROMPT_BYTES = 120 * 1024;

/** Linux MAX_ARG_STRLEN: one argv or environment string, terminating NUL included. */
export const LINUX_MAX_ARG_STRLEN = 128 * 1024;

/** tmux 3.3a: the packed arguments of one client command (each with its NUL) must fit this. */
export const TMUX_33A_COMMAND_CAP = 16_364;

export interface PromptSource {
  isTerminal(): boolean;
  read(max: number): Promise<Uint8Array>;
}

/**
 * stdin as a PromptSource. read(max) returns at most max + 1 bytes (more means "too large"), so a
 * huge pipe cannot exhaust memory; a directory on stdin is a usage error.
 */
export function stdinSource(): PromptSource {
  return {
    isTerminal: () => Deno.stdin.isTerminal(),
    read: (max: number) => readUpTo(Deno.stdin, max, "stdin"),
  };
}

/**
 * Validate raw prompt bytes. Throws INVALID_ARGUMENT (too large, NUL, not UTF-8) or EMPTY_INPUT
 * (nothing or only whitespace). The prompt is kept byte-exact: no trimming, no newline changes.
 */
export function validatePrompt(bytes: Uint8Array): string {
  if (bytes.length > MAX_PROMPT_BYTES) {
    throw invalidArgument(
      `the prompt is larger than ${MAX_PROMPT_BYTES} bytes (${MAX_PROMPT_BYTES / 1024} KiB), the ` +
        `most one argument can safely carry on Linux; put the text in a file and ask the agent to ` +
        `read it`,
      { limit_bytes: MAX_PROMPT_BYTES },
    );
  }
  if (bytes.includes(0)) {
    throw invalidArgument("the prompt contains a NUL byte, which no program argument can carry");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw invalidArgument("the prompt is not valid UTF-8");
  }
  if (text.trim() === "") {
    throw new DroverError("EMPTY_INPUT", "the prompt on stdin is empty; pipe the kickoff text in");
  }
  return text;
}

/** `--prompt -`: refuse a terminal before reading a byte, then read and validate. */
export async function readPrompt(source: PromptSource = stdinSource()): Promise<string> {
  if (source.isTerminal()) {
    throw invalidArgument(
      "--prompt - reads the prompt from stdin, but stdin is a terminal; pipe it in, e.g. " +
        "`drover launch --cli claude --prompt - < task.md`",
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await source.read(MAX_PROMPT_BYTES);
  } catch (e) {
    if (e instanceof DroverError) throw e;
    throw new DroverError("EMPTY_INPUT", `could not read the prompt from stdin: ${String(e)}`);
  }
  return validatePrompt(bytes);
}
