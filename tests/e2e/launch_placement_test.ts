/**
 * Where launch puts the agent: exact ids from tmux, explicit splits that never fall back, a
 * background that leaves every selection alone, and nothing created on any rejected request.
 */
import assert from "node:assert/strict";
import { envelope } from "../helpers/drover.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";
import {
  droverOn,
  fakeAgent,
  paneCount,
  selection,
  selectionOf,
  windowCount,
} from "./launch_helpers.ts";

async function paneFacts(srv: TestServer, pane: string): Promise<Record<string, string>> {
  const keys = [
    "session_id",
    "session_name",
    "window_id",
    "window_index",
    "pane_id",
    "pane_index",
    "@drover-cli",
    "pane_title",
    "window_name",
    "pane_left",
    "pane_top",
    "pane_current_path",
  ];
  const out = await srv.tmux(
    "display-message",
    "-p",
    "-t",
    pane,
    keys.map((k) => `#{${k}}`).join("\t"),
  );
  const vals = out.replace(/\n$/, "").split("\t");
  return Object.fromEntries(keys.map((k, i) => [k, vals[i] ?? ""]));
}

Deno.test("launch --window --background: exact ids, @drover-cli, title, selection unchanged", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  // A second window and a split, so there is a selection worth disturbing.
  await srv.tmux("new-window", "-t", "holder:", "sleep 100000");
  await srv.tmux("split-window", "-t", "holder:1", "sleep 100000");
  const before = await selection(srv);
  const r = await droverOn(srv, agent, [
    "launch",
    "--cli",
    "fake",
    "--window",
    "--session",
    "holder",
    "--background",
    "--title",
    "worker one",
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const d = envelope(r).data;
  assert.equal(d.placement, "window");
  assert.equal(d.background, true);
  assert.equal(d.selection_preserved, true);
  assert.deepEqual(await selectionOf(srv, before), before);
  const f = await paneFacts(srv, d.pane.id);
  assert.equal(f.session_id, d.session.id);
  assert.equal(f.session_name, "holder");
  assert.equal(f.window_id, d.window.id);
  assert.equal(Number(f.window_index), d.window.index);
  assert.equal(Number(f.pane_index), d.pane.index);
  assert.equal(d.pane.target, `holder:${f.window_index}.${f.pane_index}`);
  assert.equal(f["@drover-cli"], "fake");
  assert.equal(f.pane_title, "worker one");
  assert.equal(f.window_name, "worker one");
});

Deno.test("launch without --background selects the new window", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const r = await droverOn(srv, agent, ["launch", "--cli", "fake", "--session", "holder"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const d = envelope(r).data;
  const active = await srv.tmux("display-message", "-p", "-t", "holder", "#{window_id}");
  assert.equal(active.trim(), d.window.id);
  assert.equal(d.selection_preserved, null);
});

for (const dir of ["right", "left", "up", "down"] as const) {
  Deno.test(`launch --split ${dir} --background splits exactly the anchor and selects nothing`, async () => {
    await using srv = await startTestServer();
    await using agent = await fakeAgent();
    // Two panes; the anchor is the one NOT selected, so "current pane" would be the wrong one.
    await srv.tmux("split-window", "-h", "-t", "holder:0.0", "sleep 100000");
    const anchor = (await srv.tmux("display-message", "-p", "-t", "holder:0.0", "#{pane_id}"))
      .trim();
    const windows = await windowCount(srv);
    const before = await selection(srv);
    const a0 = await paneFacts(srv, anchor);
    const r = await droverOn(srv, agent, [
      "launch",
      "--cli",
      "fake",
      "--split",
      dir,
      "--anchor",
      anchor,
      "--background",
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const d = envelope(r).data;
    assert.equal(d.placement, "split");
    assert.equal(d.direction, dir);
    assert.equal(d.anchor.pane_id, anchor);
    assert.equal(await windowCount(srv), windows, "a split must never become a new window");
    assert.deepEqual(await selectionOf(srv, before), before);
    assert.equal(d.selection_preserved, true);
    const n = await paneFacts(srv, d.pane.id);
    const a = await paneFacts(srv, anchor);
    assert.equal(n.window_id, a.window_id);
    const where = {
      right: Number(n.pane_left) > Number(a.pane_left),
      left: Number(n.pane_left) < Number(a.pane_left),
      down: Number(n.pane_top) > Number(a.pane_top),
      up: Number(n.pane_top) < Number(a.pane_top),
    }[dir];
    assert.ok(where, `new pane not ${dir} of the anchor: ${JSON.stringify({ n, a, a0 })}`);
  });
}

Deno.test("launch --split into a missing anchor fails with TARGET_NOT_FOUND and creates nothing", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const panes = await paneCount(srv);
  const windows = await windowCount(srv);
  for (const anchor of ["%999", "holder:7.0", "hold:0.0"]) {
    const r = await droverOn(
      srv,
      agent,
      ["launch", "--cli", "fake", "--split", "right", "--anchor", anchor, "--prompt", "-"],
      { stdin: "hello" },
    );
    assert.equal(r.code, 4, r.stdout + r.stderr);
    assert.equal(envelope(r).error.code, "TARGET_NOT_FOUND");
  }
  assert.equal(await paneCount(srv), panes);
  assert.equal(await windowCount(srv), windows);
});

Deno.test("launch --session NEW creates that session; --cwd sets the agent's directory", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const r = await droverOn(srv, agent, [
    "launch",
    "--cli",
    "fake",
    "--session",
    "agents",
    "--cwd",
    agent.dir,
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const d = envelope(r).data;
  assert.equal(d.placement, "session");
  assert.equal(d.session.name, "agents");
  assert.equal(d.cwd, await Deno.realPath(agent.dir));
  await agent.argv();
  const f = await paneFacts(srv, d.pane.id);
  assert.equal(f.pane_current_path, await Deno.realPath(agent.dir));
});

Deno.test("launch rejects bad requests before creating anything", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent({
    extraToml: '[clis.off]\ncommand = "true"\nenabled = false\n' +
      '[clis.mute]\ncommand = "true"\nprompt = "none"\n',
  });
  const big = "a".repeat(120 * 1024 + 1);
  const cases: { args: string[]; stdin?: string | Uint8Array; code: string; exit: number }[] = [
    { args: ["--prompt", "-"], stdin: big, code: "INVALID_ARGUMENT", exit: 2 },
    { args: ["--prompt", "-"], stdin: "ab\0cd", code: "INVALID_ARGUMENT", exit: 2 },
    { args: ["--prompt", "-"], stdin: "", code: "EMPTY_INPUT", exit: 2 },
    { args: ["--prompt", "-"], stdin: " \n\t\n", code: "EMPTY_INPUT", exit: 2 },
    {
      args: ["--prompt", "-"],
      stdin: new Uint8Array([0x68, 0xff, 0xfe]),
      code: "INVALID_ARGUMENT",
      exit: 2,
    },
    { args: ["--prompt", "inline text"], code: "INVALID_ARGUMENT", exit: 2 },
    { args: ["--split", "right"], code: "INVALID_ARGUMENT", exit: 2 },
    { args: ["--anchor", "%0"], code: "INVALID_ARGUMENT", exit: 2 },
    { args: ["--window", "--split", "up", "--anchor", "%0"], code: "INVALID_ARGUMENT", exit: 2 },
    { args: ["--cwd", "/nonexistent/dir"], code: "INVALID_ARGUMENT", exit: 2 },
  ];
  const windows = await windowCount(srv);
  for (const c of cases) {
    const r = await droverOn(
      srv,
      agent,
      ["launch", "--cli", "fake", "--session", "holder", ...c.args],
      c.stdin === undefined ? {} : { stdin: c.stdin },
    );
    const e = envelope(r);
    assert.equal(e.ok, false, `${c.args.join(" ")}: ${r.stdout}`);
    assert.equal(e.error.code, c.code, `${c.args.join(" ")}: ${r.stdout}`);
    assert.equal(r.code, c.exit, `${c.args.join(" ")}: ${r.stdout}`);
  }
  const profile = [
    { args: ["--cli", "off"], code: "PROFILE_NOT_FOUND", exit: 5 },
    { args: ["--cli", "nope"], code: "PROFILE_NOT_FOUND", exit: 5 },
    { args: ["--cli", "mute", "--prompt", "-"], code: "INVALID_ARGUMENT", exit: 2 },
  ];
  for (const c of profile) {
    const r = await droverOn(srv, agent, ["launch", ...c.args, "--session", "holder"], {
      stdin: "hi",
    });
    assert.equal(envelope(r).error?.code, c.code, r.stdout);
    assert.equal(r.code, c.exit);
  }
  // Outside tmux without --session there is no honest "here".
  const r = await droverOn(srv, agent, ["launch", "--cli", "fake"]);
  assert.equal(envelope(r).error.code, "INVALID_ARGUMENT");
  assert.equal(await windowCount(srv), windows);
});

Deno.test("concurrent launches into one new --session all land in it", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const runs = await Promise.all(
    [1, 2, 3].map(() =>
      droverOn(srv, agent, ["launch", "--cli", "fake", "--session", "racy", "--background"])
    ),
  );
  for (const r of runs) assert.equal(r.code, 0, r.stdout + r.stderr);
  const ids = runs.map((r) => envelope(r).data.pane.id).sort();
  const inSession = (await srv.tmux("list-panes", "-s", "-t", "=racy", "-F", "#{pane_id}"))
    .trim().split("\n").sort();
  assert.deepEqual(inSession, ids);
  assert.equal(runs.filter((r) => envelope(r).data.placement === "session").length, 1);
});
