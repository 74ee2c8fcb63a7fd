/** The optional-tool helper every test uses: PATH lookup, skip with a reason, strict mode fails. */
import assert from "node:assert/strict";
import {
  checkTools,
  findTool,
  missingReason,
  STRICT_SKIPS_ENV,
  strictSkips,
} from "../helpers/tools.ts";

Deno.test("tools: found on PATH like a shell finds them, missing ones named", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/tool-x`, "#!/bin/sh\n");
    await Deno.chmod(`${dir}/tool-x`, 0o755);
    await Deno.writeTextFile(`${dir}/not-exec`, "");
    const path = `/nonexistent:${dir}`;
    assert.equal(findTool("tool-x", path), `${dir}/tool-x`);
    assert.equal(findTool("not-exec", path), undefined, "a file without x bits is no tool");
    assert.equal(findTool("tool-x", "/nonexistent"), undefined);
    assert.equal(findTool(`${dir}/tool-x`, ""), `${dir}/tool-x`);
    const c = checkTools(["tool-x", "zz-none"], path);
    assert.deepEqual(c.paths, { "tool-x": `${dir}/tool-x` });
    assert.deepEqual(c.missing, ["zz-none"]);
    assert.equal(
      missingReason(["zsh", "fish"], ".ci/run installs them"),
      "needs zsh, fish, not found on PATH (.ci/run installs them)",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tools: strict mode is on for any value but empty and 0", () => {
  const env = (v: string | undefined) => (k: string) => k === STRICT_SKIPS_ENV ? v : undefined;
  assert.equal(strictSkips(env(undefined)), false);
  assert.equal(strictSkips(env("")), false);
  assert.equal(strictSkips(env("0")), false);
  assert.equal(strictSkips(env("1")), true);
});

/** A test module that needs a tool no machine has, run in a child `deno test`. */
async function runNeedy(strict: boolean): Promise<{ code: number; out: string }> {
  const dir = await Deno.makeTempDir();
  try {
    const helper = new URL("../helpers/tools.ts", import.meta.url).href;
    await Deno.writeTextFile(
      `${dir}/needy_test.ts`,
      `import { testWithTools } from ${JSON.stringify(helper)};\n` +
        `testWithTools("needs a tool", ["drover-no-such-tool"], () => {}, { hint: "install it" });\n` +
        `Deno.test("plain", () => {});\n`,
    );
    // CI runs this suite in strict mode; the lax child must not inherit it.
    const env: Record<string, string> = {
      NO_COLOR: "1",
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
    };
    if (strict) env[STRICT_SKIPS_ENV] = "1";
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "-A", "--no-check", `${dir}/needy_test.ts`],
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("tools: a missing tool skips with a printed reason; strict mode fails instead", async () => {
  const lax = await runNeedy(false);
  assert.equal(lax.code, 0, lax.out);
  assert.match(lax.out, /skipped: "needs a tool": needs drover-no-such-tool, not found on PATH/);
  assert.match(lax.out, /1 passed.*1 ignored/);
  const strict = await runNeedy(true);
  assert.notEqual(strict.code, 0, strict.out);
  assert.match(strict.out, /DROVER_STRICT_SKIPS=1 forbids skipping it/);
});
