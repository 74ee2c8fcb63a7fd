/**
 * The replay double shows every recorded real screen byte-exact: the plain capture of the replayed
 * styled screen equals the recorded plain capture.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/tmux_server.ts";
import {
  cleanupReplay,
  loadScreen,
  manifestScreens,
  plainFixture,
  startReplay,
} from "../helpers/replay.ts";

// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;:]*m/g;

Deno.test("replay doubles reproduce every recorded Claude Code screen byte-exact", async () => {
  const screens = await manifestScreens("claude-code");
  assert.ok(screens.length > 0, "no recorded Claude Code screens under tests/fixtures/claude-code");
  await using srv = await startTestServer();
  const mismatched: string[] = [];
  let compared = 0;
  for (const [i, s] of screens.entries()) {
    const screen = await loadScreen(s.rel);
    const want = await plainFixture(s.rel);
    // A styled capture taken a moment after the plain one (a spinner ticked) cannot replay the
    // plain one; such pairs are compared against the styled text they really hold.
    const styledPlain = screen.text.replace(SGR, "");
    const trim = (x: string) => x.replace(/[ \n]+$/, "");
    const reference = trim(styledPlain.replace(/ +$/gm, "")) === trim(want.replace(/ +$/gm, ""))
      ? want
      : undefined;
    const r = await startReplay(srv, screen, { session: `r${i}` });
    try {
      const firstLine = want.split("\n").find((l) => l.trim() !== "") ?? "";
      const got = await srv.waitFor(
        r.paneId,
        (t) => firstLine === "" || t.includes(firstLine.trim()) || reference === undefined,
      ).then(() => srv.tmux("capture-pane", "-p", "-J", "-t", r.paneId));
      if (reference === undefined) continue;
      compared++;
      if (got !== reference) mismatched.push(s.rel);
    } finally {
      await cleanupReplay(r);
    }
  }
  assert.deepEqual(mismatched, []);
  assert.ok(compared >= screens.length - 2, `compared only ${compared} of ${screens.length}`);
});

Deno.test("replay double: switches screen on demand and on a key, records exact bytes", async () => {
  await using srv = await startTestServer();
  const r = await startReplay(srv, { text: "first screen\n", cols: 40, rows: 6 }, { session: "k" });
  try {
    await r.onKey("1", "answered\n");
    await r.show("second screen\n");
    await srv.waitFor(r.paneId, (t) => t.startsWith("second screen"));
    await srv.tmux("send-keys", "-t", r.paneId, "1");
    await srv.waitFor(r.paneId, (t) => t.startsWith("answered"));
    await srv.tmux("send-keys", "-t", r.paneId, "Enter", "C-c");
    const deadline = Date.now() + 5000;
    while ((await r.keys()).length < 3 && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 25));
    }
    assert.equal(await r.keys(), "1\r\x03");
  } finally {
    await cleanupReplay(r);
  }
});

Deno.test("replay doubles: settled() returns what was sent before it, its own sentinel left out, a stray control byte kept", async () => {
  await using srv = await startTestServer();
  const r = await startReplay(srv, await loadScreen("claude-code/2.1.197/ready@120x40"), {
    session: "s",
  });
  try {
    assert.equal(await r.settled(), "");
    await srv.tmux("send-keys", "-t", r.paneId, "-l", "ab");
    await srv.tmux("send-keys", "-t", r.paneId, "Enter");
    // What a sender finished typing is all there once settled() returns, in order.
    assert.equal(await r.settled(), "ab\r");
    // A control byte that is not one of the double's own sentinels is the sender's: it stays.
    await srv.tmux("send-keys", "-t", r.paneId, "-H", "1f");
    assert.equal(await r.settled(), "ab\r\x1f");
    assert.equal(await r.keys(), "ab\r\x1f");
  } finally {
    await cleanupReplay(r);
  }
});
