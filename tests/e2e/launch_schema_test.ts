/**
 * Every `drover.*.v1` envelope the launch boundary prints — successes and typed errors — validates
 * against its JSON Schema in docs/schemas/. Real outputs from a private tmux server, not samples.
 */
import assert from "node:assert/strict";
import { Ajv } from "../../lib/deps/ajv.ts";
import { REPO_ROOT } from "../helpers/drover.ts";
import { startTestServer } from "../helpers/tmux_server.ts";
import { droverOn, fakeAgent } from "./launch_helpers.ts";

const SCHEMA_DIR = `${REPO_ROOT}docs/schemas/`;

async function validators() {
  const ajv = new Ajv({ allErrors: true, strict: true });
  const out = new Map<string, (v: unknown) => string | null>();
  for await (const e of Deno.readDir(SCHEMA_DIR)) {
    if (!e.name.endsWith(".json")) continue;
    const schema = JSON.parse(await Deno.readTextFile(SCHEMA_DIR + e.name));
    const v = ajv.compile(schema);
    out.set(
      e.name.replace(/\.json$/, ""),
      (x) => v(x) ? null : ajv.errorsText(v.errors, { separator: "\n" }),
    );
  }
  return out;
}

function check(
  vs: Map<string, (v: unknown) => string | null>,
  stdout: string,
  expectOk?: boolean,
): void {
  const env = JSON.parse(stdout);
  const v = vs.get(env.schema);
  assert.ok(v, `no schema file for ${env.schema} in docs/schemas/`);
  const err = v(env);
  assert.equal(err, null, `${env.schema} envelope does not match its schema:\n${err}\n${stdout}`);
  if (expectOk !== undefined) assert.equal(env.ok, expectOk, stdout);
}

Deno.test("launch/read/wait/send/clis outputs validate against docs/schemas", async () => {
  const vs = await validators();
  for (const id of ["launch", "read", "wait", "send", "clis"]) {
    assert.ok(vs.has(`drover.${id}.v1`), `docs/schemas/drover.${id}.v1.json is missing`);
  }
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const cache = await Deno.makeTempDir();
  try {
    const env = { XDG_CACHE_HOME: cache };
    const l = await droverOn(
      srv,
      agent,
      ["launch", "--cli", "fake", "--session", "holder", "--background", "--prompt", "-"],
      { stdin: "hello", env },
    );
    check(vs, l.stdout, true);
    const pane = JSON.parse(l.stdout).data.pane.id;
    const anchor = await droverOn(srv, agent, [
      "launch",
      "--cli",
      "fake",
      "--split",
      "down",
      "--anchor",
      pane,
      "--cwd",
      agent.dir,
      "--title",
      "t",
    ], { env });
    check(vs, anchor.stdout, true);
    check(
      vs,
      (await droverOn(srv, agent, ["launch", "--cli", "nope", "--session", "x"])).stdout,
      false,
    );
    check(
      vs,
      (await droverOn(srv, agent, ["wait", pane, "--until", "ready", "--timeout", "20"])).stdout,
      true,
    );
    check(vs, (await droverOn(srv, agent, ["read", pane])).stdout, true);
    check(
      vs,
      (await droverOn(srv, agent, ["read", pane, "--last", "3", "--wait-stable"])).stdout,
      true,
    );
    check(vs, (await droverOn(srv, agent, ["read", "%999"])).stdout, false);
    check(vs, (await droverOn(srv, agent, ["send", pane, "hi"])).stdout, true);
    check(vs, (await droverOn(srv, agent, ["send", pane], { stdin: "" })).stdout, false);
    check(
      vs,
      (await droverOn(srv, agent, ["wait", pane, "--until", "prompt", "--timeout", "1"])).stdout,
      false,
    );
    check(vs, (await droverOn(srv, agent, ["clis", "list"], { env })).stdout, true);
    check(vs, (await droverOn(srv, agent, ["clis", "list", "--no-probe"], { env })).stdout, true);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});
