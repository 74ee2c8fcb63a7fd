/**
 * Real outputs of the commands that need no tmux validate against the generated docs/schemas/
 * (launch_schema_test.ts does the same for the launch boundary on a private tmux server).
 */
import assert from "node:assert/strict";
import { Ajv } from "../../lib/deps/ajv.ts";
import { drover, REPO_ROOT } from "../helpers/drover.ts";

const FIX = `${REPO_ROOT}tests/fixtures/claude-code/2.1.197`;

Deno.test("detect, profile, config check, sweep-script, skill, profile test and usage errors match their schemas", async () => {
  const ajv = new Ajv({ allErrors: true, strict: true });
  const validators = new Map<string, (v: unknown) => boolean>();
  for await (const e of Deno.readDir(`${REPO_ROOT}docs/schemas`)) {
    if (!e.name.endsWith(".json")) continue;
    const s = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}docs/schemas/${e.name}`));
    validators.set(e.name.replace(/\.json$/, ""), ajv.compile(s));
  }
  const screens = await Deno.makeTempDir({ prefix: "drover-schema-screens-" });
  try {
    await Deno.copyFile(`${FIX}/bash-prompt@80x24.txt`, `${screens}/prompt-1.txt`);
    await Deno.copyFile(`${FIX}/ready@80x24.txt`, `${screens}/busy-1.txt`);
    const runs: [string[], boolean][] = [
      [["detect", `${FIX}/bash-prompt@80x24.txt`], true],
      [["detect", "/nonexistent/capture"], false],
      [["__prompt-profile", "--format", "json"], true],
      [["profile", "show", "codex", "--sources"], true],
      [["profile", "list"], true],
      [["config", "check"], true],
      [["config", "check", "--config", "/nonexistent/drover.toml"], false],
      [["sweep-script"], true],
      [["skill"], true],
      [["skill", "--install", "--dir", screens], true],
      [["skill", "--install", "--cli", "nope"], false],
      [["profile", "test", screens], true],
      [["bogus"], false],
      [["detect", "--clii", "x"], false],
    ];
    for (const [args, ok] of runs) {
      const r = await drover(["--json", ...args], { env: { XDG_CONFIG_HOME: screens } });
      const env = JSON.parse(r.stdout);
      assert.equal(env.ok, ok, `${args.join(" ")}: ${r.stdout.slice(0, 300)}`);
      const v = validators.get(env.schema);
      assert.ok(v, `no schema for ${env.schema}`);
      assert.ok(v(env), `${args.join(" ")}: ${ajv.errorsText((v as { errors?: [] }).errors)}`);
    }
  } finally {
    await Deno.remove(screens, { recursive: true });
  }
});
