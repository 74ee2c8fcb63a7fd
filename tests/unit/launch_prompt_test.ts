import assert from "node:assert/strict";
import { DroverError } from "../../lib/errors.ts";
import {
  LINUX_MAX_ARG_STRLEN,
  MAX_PROMPT_BYTES,
  type PromptSource,
  readPrompt,
  validatePrompt,
} from "../../lib/launch/prompt.ts";

const enc = (s: string) => new TextEncoder().encode(s);

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DroverError) return e.code;
    throw e;
  }
  return "OK";
}

Deno.test("validatePrompt keeps the bytes exactly (no trim, no newline changes)", () => {
  const p = "  lead\r\n\ttab \"q\" 'q' $X \\ é 日本\n\n";
  assert.equal(validatePrompt(enc(p)), p);
});

Deno.test("validatePrompt: size limit, NUL, UTF-8, empty", () => {
  assert.equal(code(() => validatePrompt(new Uint8Array(MAX_PROMPT_BYTES).fill(0x61))), "OK");
  assert.equal(
    code(() => validatePrompt(new Uint8Array(MAX_PROMPT_BYTES + 1).fill(0x61))),
    "INVALID_ARGUMENT",
  );
  assert.equal(code(() => validatePrompt(enc("a\0b"))), "INVALID_ARGUMENT");
  assert.equal(code(() => validatePrompt(new Uint8Array([0x61, 0xc3]))), "INVALID_ARGUMENT");
  assert.equal(code(() => validatePrompt(new Uint8Array())), "EMPTY_INPUT");
  assert.equal(code(() => validatePrompt(enc(" \n\t\r\n"))), "EMPTY_INPUT");
});

Deno.test("readPrompt refuses a terminal on stdin without reading from it", async () => {
  let read = false;
  const tty: PromptSource = {
    isTerminal: () => true,
    read: () => {
      read = true;
      return Promise.resolve(enc("x"));
    },
  };
  await assert.rejects(
    readPrompt(tty),
    (e) => e instanceof DroverError && e.code === "INVALID_ARGUMENT",
  );
  assert.equal(read, false);
});

Deno.test("readPrompt reads a pipe and validates it", async () => {
  const pipe: PromptSource = { isTerminal: () => false, read: () => Promise.resolve(enc("go\n")) };
  assert.equal(await readPrompt(pipe), "go\n");
});

Deno.test("the documented limit is honest: Linux refuses one argv string of 128 KiB", async () => {
  // MAX_ARG_STRLEN counts the terminating NUL: 131071 bytes pass, 131072 fail with E2BIG.
  const run = async (n: number) =>
    await new Deno.Command("/bin/true", { args: ["x".repeat(n)], stdout: "null", stderr: "null" })
      .output();
  assert.equal((await run(LINUX_MAX_ARG_STRLEN - 1)).code, 0);
  await assert.rejects(run(LINUX_MAX_ARG_STRLEN));
  // The prompt cap leaves room for a "--prompt-interactive=" prefix on the same argument.
  assert.ok(MAX_PROMPT_BYTES + 64 < LINUX_MAX_ARG_STRLEN);
});
