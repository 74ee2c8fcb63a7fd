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
    const env = { XDG_CACHE_HOME: cache, SHELL: "/bin/sh" };
    const l = await droverOn(
      srv,
      agent,
      ["launch", "--cli", "fake", "--session", "holder", "--background", "--prompt", "-"],
      { stdin: "hello", env },
    );
    check(vs, l.stdout, true);
    const launched = JSON.parse(l.stdout).data;
    const pane = launched.pane.id;
    // .data.target (what the skill teaches) carries exactly the ids of the flat fields.
    assert.deepEqual(launched.target, {
      session: launched.session,
      window: launched.window,
      pane: launched.pane,
    });
    assert.match(launched.target.pane.id, /^%\d+$/);
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
    const split = JSON.parse(anchor.stdout).data;
    assert.equal(split.target.pane.id, split.pane.id);
    assert.notEqual(split.target.pane.id, pane);
    assert.equal(split.target.window.id, launched.target.window.id, "a split stays in its window");
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

Deno.test("detect/panes/capture/approve/drive/profile/config outputs and drive events validate too", async () => {
  const vs = await validators();
  const fixtures = `${REPO_ROOT}tests/fixtures/claude-code/2.1.197/`;
  const screens: string[] = [];
  for await (const e of Deno.readDir(fixtures)) {
    if (e.name.endsWith(".txt") && !e.name.endsWith(".ansi.txt")) screens.push(e.name);
  }
  screens.sort();
  assert.ok(screens.length > 0, "no recorded Claude Code screens to run detect on");
  // A spread of states, not all of them: each is one drover process.
  const pick = screens.filter((_, i) => i % Math.ceil(screens.length / 6) === 0);
  await using srv = await startTestServer();
  for (const s of pick) {
    check(
      vs,
      (await droverOn(srv, undefined, ["detect", "--cli", "claude", fixtures + s])).stdout,
      true,
    );
  }
  const prompt = screens.find((s) => s.startsWith("bash-prompt@120x40")) ?? pick[0]!;
  await srv.tmux(
    "new-window",
    "-d",
    "-t",
    "holder:",
    `printf '%s' "$(cat '${fixtures}${prompt}')"; sleep 100000`,
  );
  await srv.waitFor("holder:1.0", (t) => t.trim() !== "");
  const state = await Deno.makeTempDir();
  try {
    check(vs, (await droverOn(srv, undefined, ["panes"])).stdout, true);
    check(vs, (await droverOn(srv, undefined, ["panes", "--session", "nope"])).stdout, false);
    check(
      vs,
      (await droverOn(srv, undefined, ["capture", "holder:1.0", "--lines", "5"])).stdout,
      true,
    );
    check(
      vs,
      (await droverOn(srv, undefined, ["approve", "holder:1.0", "--dry-run"])).stdout,
      true,
    );
    check(
      vs,
      (await droverOn(srv, undefined, ["approve", "holder:0.0", "--dry-run"])).stdout,
      true,
    );
    const events = `${state}/events.jsonl`;
    const d = await droverOn(srv, undefined, [
      "drive",
      "--session",
      "holder",
      "--once",
      "--events",
      events,
      "--state",
      state,
    ]);
    const last = d.stdout.trim().split("\n").at(-1)!;
    check(vs, last);
    const lines = (await Deno.readTextFile(events)).trim().split("\n");
    assert.ok(lines.length >= 2, "drive --once wrote no events");
    const ev = vs.get("drover.event.v1")!;
    for (const line of lines) assert.equal(ev(JSON.parse(line)), null, line);
  } finally {
    await Deno.remove(state, { recursive: true });
  }
  for (
    const args of [
      ["config", "check"],
      ["profile", "list"],
      ["profile", "show", "claude"],
      ["__prompt-profile", "--format", "json"],
      ["sweep-script"],
    ]
  ) {
    check(vs, (await droverOn(srv, undefined, args)).stdout, true);
  }
});
