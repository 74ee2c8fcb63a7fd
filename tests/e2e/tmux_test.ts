import assert from "node:assert/strict";
import { startTestServer } from "../helpers/tmux_server.ts";
import { cleanupReplay, startReplay } from "../helpers/replay.ts";
import { capturePane, capturePanes } from "../../lib/tmux/capture.ts";
import { listPanes, parseTarget, resolveTarget } from "../../lib/tmux/panes.ts";
import { sendKeys, typeText } from "../../lib/tmux/send.ts";
import { getPaneOption, setPaneOption, socketPath } from "../../lib/tmux/options.ts";
import { selectServer } from "../../lib/tmux/server.ts";
import { setPaneTitle } from "../../lib/tmux/create.ts";
import { tmux } from "../../lib/tmux/run.ts";
import { word } from "../../lib/tmux/arg.ts";
import { DroverError } from "../../lib/errors.ts";

const screen = (text: string, cols = 80, rows = 12) => ({ text, cols, rows });

Deno.test("listPanes: one call gives ids, indexes, title, command, path, pid, size, @drover-cli", async () => {
  await using srv = await startTestServer();
  const a = await startReplay(srv, screen("alpha\n"), { session: "agents", title: "orch" });
  const b = await startReplay(srv, screen("beta\n"), { session: "agents", newWindow: true });
  try {
    await setPaneOption({ socketName: srv.name }, b.paneId, "@drover-cli", "codex");
    const panes = await listPanes({ socketName: srv.name }, { session: "agents" });
    assert.equal(panes.length, 2);
    const [p0, p1] = panes;
    assert.equal(p0.id, a.paneId);
    assert.equal(p0.target, "agents:0.0");
    assert.equal(p0.title, "orch");
    assert.equal(p0.width, 80);
    assert.equal(p0.height, 12);
    assert.ok(p0.pid > 0);
    assert.ok(p0.currentCommand.length > 0);
    assert.ok(p0.currentPath.startsWith("/"));
    assert.equal(p0.droverCli, "");
    assert.equal(p1.id, b.paneId);
    assert.equal(p1.windowIndex, 1);
    assert.equal(p1.droverCli, "codex");
    assert.equal(await getPaneOption({ socketName: srv.name }, b.paneId, "@drover-cli"), "codex");
    assert.equal(await getPaneOption({ socketName: srv.name }, a.paneId, "@drover-cli"), undefined);
    const all = await listPanes({ socketName: srv.name });
    assert.ok(all.length >= 3, "holder session included without --session");
  } finally {
    await cleanupReplay(a);
    await cleanupReplay(b);
  }
});

Deno.test("resolveTarget matches exactly: no session-name prefix matching", async () => {
  await using srv = await startTestServer();
  const a = await startReplay(srv, screen("x\n"), { session: "agents-long" });
  try {
    const s = { socketName: srv.name };
    assert.equal((await resolveTarget(s, "agents-long:0.0")).id, a.paneId);
    assert.equal((await resolveTarget(s, a.paneId)).target, "agents-long:0.0");
    await assert.rejects(
      () => resolveTarget(s, "agents:0.0"),
      (e: unknown) =>
        e instanceof DroverError && e.code === "TARGET_NOT_FOUND" && /agents:0\.0/.test(e.message),
    );
    await assert.rejects(
      () => resolveTarget(s, "agents-long:0.7"),
      (e: unknown) => e instanceof DroverError && e.code === "TARGET_NOT_FOUND",
    );
    await assert.rejects(
      () => resolveTarget(s, "%999"),
      (e: unknown) => e instanceof DroverError && e.code === "TARGET_NOT_FOUND",
    );
    assert.throws(
      () => parseTarget("agents"),
      (e: unknown) => e instanceof DroverError && e.code === "INVALID_ARGUMENT",
    );
  } finally {
    await cleanupReplay(a);
  }
});

Deno.test("capturePanes: many panes, plain and styled, in one call; a vanished pane is skipped", async () => {
  await using srv = await startTestServer();
  const a = await startReplay(srv, screen("first pane\n\x1b[2mdim hint\x1b[0m\n"), {
    session: "s1",
  });
  const b = await startReplay(srv, screen("second pane\n"), { session: "s2" });
  try {
    const s = { socketName: srv.name };
    await srv.waitFor(a.paneId, (t) => t.includes("dim hint"));
    const caps = await capturePanes(s, [a.paneId, "%999", b.paneId], { styled: true });
    assert.equal(caps.size, 2);
    assert.ok(caps.get(a.paneId)!.plain.startsWith("first pane\ndim hint\n"));
    assert.ok(caps.get(a.paneId)!.styled!.includes("\x1b[2mdim hint"));
    assert.ok(caps.get(b.paneId)!.plain.startsWith("second pane\n"));
    assert.equal(
      caps.get(a.paneId)!.plain.split("\n").length,
      13,
      "12 screen lines + final newline",
    );
    await assert.rejects(
      () => capturePane(s, "%999"),
      (e: unknown) => e instanceof DroverError && e.code === "TARGET_NOT_FOUND",
    );
  } finally {
    await cleanupReplay(a);
    await cleanupReplay(b);
  }
});

Deno.test("capture joins wrapped lines (-J) and can include history", async () => {
  await using srv = await startTestServer();
  const long = "x".repeat(100);
  const a = await startReplay(srv, screen(`${long}\nend\n`, 40, 8), { session: "w" });
  try {
    const s = { socketName: srv.name };
    await srv.waitFor(a.paneId, (t) => t.includes("end"));
    const c = await capturePane(s, a.paneId);
    assert.equal(c.plain.split("\n")[0], long);
    const h = await capturePane(s, a.paneId, { history: 5 });
    assert.ok(h.plain.split("\n").length >= c.plain.split("\n").length);
  } finally {
    await cleanupReplay(a);
  }
});

Deno.test("typeText and sendKeys deliver exact bytes; no paste buffer is left behind", async () => {
  await using srv = await startTestServer();
  const a = await startReplay(srv, screen("keys\n"), { session: "k" });
  try {
    const s = { socketName: srv.name };
    // tmux would end a command at a trailing ";" and expand #{…} in a format position.
    await typeText(s, a.paneId, "-l $(x) 'q' Enter #{pane_id} a\\; b;");
    await sendKeys(s, a.paneId, ["1", "Enter", "C-u"]);
    const want = "-l $(x) 'q' Enter #{pane_id} a\\; b;1\r\x15";
    const deadline = Date.now() + 5000;
    while ((await a.keys()) !== want && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(await a.keys(), want);
    assert.equal(await srv.tmux("list-buffers"), "");
    await assert.rejects(
      () => typeText(s, "%999", "lost;"),
      (e: unknown) => e instanceof DroverError && e.code === "TARGET_NOT_FOUND",
    );
    assert.equal(await srv.tmux("list-buffers"), "", "a failed paste left its buffer");
  } finally {
    await cleanupReplay(a);
  }
});

Deno.test("option values and pane titles round-trip hostile strings literally", async () => {
  await using srv = await startTestServer();
  const a = await startReplay(srv, screen("opts\n"), { session: "o" });
  try {
    const s = { socketName: srv.name };
    for (const v of ["x;", "a\\;", ";", "#{pane_id}", "#(true)", "##", "mid;dle \\"]) {
      await setPaneOption(s, a.paneId, "@drover-cli", v);
      assert.equal(await getPaneOption(s, a.paneId, "@drover-cli"), v);
      await setPaneTitle(s, a.paneId, v);
      assert.equal((await listPanes(s, { session: "o" }))[0]!.title, v);
    }
  } finally {
    await cleanupReplay(a);
  }
});

Deno.test("tmux output past its cap is abandoned with a usage error, not buffered", async () => {
  await using srv = await startTestServer();
  const s = { socketName: srv.name };
  const keys = await tmux(s, [word("list-keys")]);
  assert.ok(keys.stdout.length > 2000);
  await assert.rejects(
    () => tmux(s, [word("list-keys")], { maxOutput: 1000 }),
    (e: unknown) =>
      e instanceof DroverError && e.code === "INVALID_ARGUMENT" &&
      /more than 1000 bytes for one list-keys/.test(e.message),
  );
});

Deno.test("server selection: -S over -L over $TMUX; no server → TMUX_UNAVAILABLE", async () => {
  assert.deepEqual(selectServer({ socketPath: "/p", socketName: "n" }, {}), { socketPath: "/p" });
  assert.deepEqual(selectServer({ socketName: "n" }, { TMUX: "/x,1,0" }), { socketName: "n" });
  assert.deepEqual(selectServer({}, { TMUX: "/tmp/tmux-0/a,b,123,0" }), {
    socketPath: "/tmp/tmux-0/a,b",
  });
  assert.deepEqual(selectServer({}, {}), {});
  await assert.rejects(
    () => listPanes({ socketName: `drover-none-${Deno.pid}-${Date.now()}` }),
    (e: unknown) =>
      e instanceof DroverError && e.code === "TMUX_UNAVAILABLE" && /-L drover-none/.test(e.message),
  );
  await using srv = await startTestServer();
  assert.match(await socketPath({ socketName: srv.name }), new RegExp(srv.name + "$"));
});
