/**
 * drover runs with one set of V8 flags wherever it runs as a product (tools/compile.ts V8_FLAGS):
 * the binary bakes them in, the tests start drover with them (tests/helpers/drover.ts), and the
 * two places a user starts it from source — the `drover` task and the cron wrapper of
 * docs/cron.md — must say the same, or Deno's code cache, which V8 keys by its flags, is rebuilt
 * whenever a differently started drover ran last.
 */
import assert from "node:assert/strict";
import { V8_FLAGS } from "../../tools/compile.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("the drover task and the docs/cron.md wrapper start drover with tools/compile.ts V8_FLAGS", async () => {
  const deno = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const task: string = typeof deno.tasks.drover === "string"
    ? deno.tasks.drover
    : deno.tasks.drover.command;
  assert.ok(task.split(/\s+/).includes(V8_FLAGS), `deno.json tasks.drover: ${task}`);

  const cron = await Deno.readTextFile(new URL("docs/cron.md", ROOT));
  const wrapper = cron.split("\n").find((l) => /exec \S*deno run .*main\.ts/.test(l));
  assert.ok(wrapper, "docs/cron.md has no `exec … deno run … main.ts` wrapper line");
  assert.ok(wrapper.split(/\s+/).includes(V8_FLAGS), `docs/cron.md: ${wrapper.trim()}`);
});
