/**
 * read / wait / send against a launched fake agent on a private tmux server. The fake draws an
 * open input box between rules (the shape Claude Code uses) and a busy line while it "works"; its
 * [clis.fake.prompt_profile] describes that screen, so the engine's detect() judges it.
 */
import assert from "node:assert/strict";
import { envelope } from "../helpers/drover.ts";
import { newPane, startTestServer } from "../helpers/tmux_server.ts";
import { droverOn, fakeAgent, launchedFake } from "./launch_helpers.ts";

Deno.test("read: snapshot, --last N, --wait-stable; validation", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const pane = await launchedFake(srv, agent);

  const snap = envelope(await droverOn(srv, agent, ["read", pane]));
  assert.equal(snap.data.mode, "snapshot");
  assert.match(snap.data.text, /fake-agent ready/);
  assert.equal(snap.data.stabilized, null);

  const stable = envelope(
    await droverOn(srv, agent, ["read", pane, "--wait-stable", "--stable-interval", "100"]),
  );
  assert.equal(stable.data.stabilized, true);
  assert.ok(stable.data.samples >= 9, JSON.stringify(stable.data)); // 1 + ceil(800/100)

  const last = envelope(await droverOn(srv, agent, ["read", pane, "--last", "2"]));
  assert.equal(last.data.mode, "last");
  assert.equal(last.data.line_count, 2);
  assert.match(last.data.text, /^> *\n─+\n$/);

  for (
    const bad of [
      ["--last", "0"],
      ["--last", "x"],
      ["--stable-interval", "100"],
      ["--wait-stable", "--stable-interval", "10"],
      ["--wait-stable", "--stable-period", "60001"],
      ["--wait-stable", "--wait-timeout", "0"],
    ]
  ) {
    const r = await droverOn(srv, agent, ["read", pane, ...bad]);
    assert.equal(r.code, 2, `${bad.join(" ")}: ${r.stdout}`);
    assert.equal(envelope(r).error.code, "INVALID_ARGUMENT");
  }
  const missing = await droverOn(srv, agent, ["read", "%999"]);
  assert.equal(missing.code, 4);
  assert.equal(envelope(missing).error.code, "TARGET_NOT_FOUND");
});

Deno.test("read --wait-stable on a pane that never settles reports stabilized:false, exit 0", async () => {
  await using srv = await startTestServer();
  const ticker = await newPane(srv, "while :; do date +%s%N; sleep 0.05; done");
  const r = await droverOn(srv, undefined, [
    "read",
    ticker,
    "--wait-stable",
    "--stable-interval",
    "100",
    "--wait-timeout",
    "1",
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const d = envelope(r).data;
  assert.equal(d.stabilized, false);
  assert.equal(d.waited_ms, 1000);
  assert.ok(d.text.length > 0);
});

Deno.test("send types literally, presses Enter and verifies; wait sees busy, idle and exit", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const pane = await launchedFake(srv, agent);

  const text = `it's "quoted" $HOME \\ ; ls -- Grüße 日本`;
  const s = await droverOn(srv, agent, ["send", pane, text]);
  assert.equal(s.code, 0, s.stdout + s.stderr);
  const sd = envelope(s).data;
  assert.equal(sd.verified, true);
  assert.equal(sd.input.source, "argv");
  assert.equal(sd.input.bytes, new TextEncoder().encode(text).length);
  await srv.waitFor(pane, (scr) => scr.includes(`reply: ${text}`));

  // stdin form, then the busy phase and back to idle.
  const slow = await droverOn(srv, agent, ["send", pane], { stdin: "slow task\n" });
  assert.equal(slow.code, 0, slow.stdout + slow.stderr);
  assert.equal(envelope(slow).data.input.source, "stdin");
  const busy = await droverOn(srv, agent, ["wait", pane, "--until", "busy", "--timeout", "10"]);
  // The busy phase lasts 2 s; a loaded machine may already be past it, which "changed" covers.
  if (busy.code !== 0) assert.equal(envelope(busy).error.code, "WAIT_TIMEOUT");
  const idle = await droverOn(srv, agent, ["wait", pane, "--until", "idle", "--timeout", "20"]);
  assert.equal(idle.code, 0, idle.stdout + idle.stderr);
  await srv.waitFor(pane, (scr) => scr.includes("done: slow task"));

  // exit: arm the wait, then make the agent quit; the pane closes with it.
  // The waiter starts first; the agent leaves 10 s after "quit later" was taken, so the waiter
  // has resolved the pane before it goes away even on a loaded machine.
  // The agent redraws an empty box at once, so one Enter is seen to take (a second Enter would
  // come 8 s later, racing the agent's exit).
  const exitWait = droverOn(srv, agent, ["wait", pane, "--until", "exit", "--timeout", "60"]);
  try {
    const q = await droverOn(srv, agent, ["send", pane, "quit later"]);
    assert.equal(q.code, 0, q.stdout + q.stderr);
    assert.equal(envelope(q).data.enter_presses, 1, q.stdout);
  } finally {
    await exitWait; // also when the send failed: the next test must not inherit the waiter
  }
  const ex = await exitWait;
  assert.equal(ex.code, 0, ex.stdout + ex.stderr);
  assert.equal(envelope(ex).data.state, "gone");
});

Deno.test("send refuses unsafe panes and bad input without typing anything", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const pane = await launchedFake(srv, agent);

  // Text already waiting in the box: sending would merge with it.
  await srv.tmux("send-keys", "-t", pane, "-l", "half typed");
  await srv.waitFor(pane, (s) => s.includes("> half typed"));
  const merged = await droverOn(srv, agent, ["send", pane, "more"]);
  assert.equal(merged.code, 8, merged.stdout);
  assert.equal(envelope(merged).error.code, "SEND_REFUSED");
  assert.ok(!(await srv.tmux("capture-pane", "-p", "-t", pane)).includes("more"));
  await srv.tmux("send-keys", "-t", pane, "C-u");

  // A bare shell: the text would run as a command.
  const shell = await newPane(srv, "env PS1='$ ' sh");
  await srv.waitFor(shell, (s) => s.includes("$"));
  const sh = await droverOn(srv, agent, ["send", shell, "--cli", "fake", "touch /tmp/x"]);
  assert.equal(envelope(sh).error.code, "SEND_REFUSED", sh.stdout);

  const cases: [string[], string | undefined, string][] = [
    [[pane], "", "EMPTY_INPUT"],
    [[pane], "   \n", "EMPTY_INPUT"],
    [[pane, "a\u0007b"], undefined, "INVALID_ARGUMENT"],
    [["%999", "hi"], undefined, "TARGET_NOT_FOUND"],
  ];
  for (const [args, stdin, code] of cases) {
    const r = await droverOn(srv, agent, ["send", ...args], stdin === undefined ? {} : { stdin });
    assert.equal(envelope(r).error?.code, code, `${args.join(" ")}: ${r.stdout}`);
  }
});

Deno.test("wait: validation and WAIT_TIMEOUT", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const pane = await launchedFake(srv, agent);
  const t = await droverOn(srv, agent, ["wait", pane, "--until", "prompt", "--timeout", "1"]);
  assert.equal(t.code, 7, t.stdout);
  assert.equal(envelope(t).error.code, "WAIT_TIMEOUT");
  for (const bad of [["--until", "done"], [], ["--until", "idle", "--timeout", "0"]]) {
    const r = await droverOn(srv, agent, ["wait", pane, ...bad]);
    assert.equal(r.code, 2, r.stdout);
    assert.equal(envelope(r).error.code, "INVALID_ARGUMENT");
  }
  // changed: any new output after arming.
  // The waiter's first capture is its baseline; on a loaded machine it may start late, so keep
  // changing the screen until it answers rather than guessing when it armed.
  let answered = false;
  const changed = droverOn(srv, agent, ["wait", pane, "--until", "changed", "--timeout", "60"])
    .finally(() => answered = true);
  for (let i = 0; i < 60 && !answered; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    if (!answered) await srv.tmux("send-keys", "-t", pane, "-l", "x");
  }
  const c = await changed;
  assert.equal(c.code, 0, c.stdout + c.stderr);
});
