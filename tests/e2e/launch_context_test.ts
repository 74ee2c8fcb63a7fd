/**
 * Launch from the places people run it: inside tmux (no --session: the session of $TMUX_PANE), from
 * a terminal with nothing piped (refused before reading), a foreground split (selected), and
 * `clis list` with configured, disabled and probed entries.
 */
import assert from "node:assert/strict";
import { drover, droverCommand, envelope } from "../helpers/drover.ts";
import { startTestServer } from "../helpers/tmux_server.ts";
import { droverOn, fakeAgent, windowCount } from "./launch_helpers.ts";

Deno.test("inside tmux, launch without --session opens a window in the caller's own session", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  await srv.tmux("new-session", "-d", "-s", "mine", "sleep 100000");
  const [socket, pane, sessionId] = (await srv.tmux(
    "display-message",
    "-p",
    "-t",
    "mine",
    "#{socket_path}\t#{pane_id}\t#{session_id}",
  )).trim().split("\t");
  // No -L: the server comes from $TMUX, the session from $TMUX_PANE, as in a pane of that server.
  const r = await drover(["--config", agent.config, "--json", "launch", "--cli", "fake"], {
    env: { TMUX: `${socket},${Deno.pid},0`, TMUX_PANE: pane! },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const d = envelope(r).data;
  assert.equal(d.session.id, sessionId);
  assert.equal(d.session.name, "mine");
  assert.equal(d.placement, "window");
});

Deno.test("a terminal on stdin is refused before reading, and nothing is created", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const windows = await windowCount(srv);
  const [exe, pre] = droverCommand();
  const argv = [exe, ...pre, "-L", srv.name, "--config", agent.config, "--json", "launch"]
    .concat(["--cli", "fake", "--session", "holder", "--prompt", "-"]);
  const quoted = argv.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  // script(1) gives the command a pseudo-terminal as stdin; if drover read from it, it would hang
  // until the timeout below instead of answering at once.
  const out = await new Deno.Command("script", {
    args: ["-qec", quoted, "/dev/null"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", TMUX: "", TMUX_PANE: "" },
    signal: AbortSignal.timeout(60_000),
  }).spawn();
  await out.stdin.close();
  const res = await out.output();
  const text = new TextDecoder().decode(res.stdout);
  assert.equal(res.code, 2, text);
  assert.match(text, /"code":"INVALID_ARGUMENT"/);
  assert.match(text, /stdin is a terminal/);
  assert.equal(await windowCount(srv), windows);
});

Deno.test("a foreground split selects the new pane", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const anchor = (await srv.tmux("display-message", "-p", "-t", "holder:0.0", "#{pane_id}")).trim();
  const r = await droverOn(srv, agent, [
    "launch",
    "--cli",
    "fake",
    "--split",
    "right",
    "--anchor",
    anchor,
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const d = envelope(r).data;
  const active = await srv.tmux("display-message", "-p", "-t", "holder", "#{pane_id}");
  assert.equal(active.trim(), d.pane.id);
});

Deno.test("clis list: built-ins and [clis.*], enabled or not, with a cached login-shell probe", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent({
    extraToml: '[clis.off]\ncommand = "definitely-missing-cli-xyz"\nenabled = false\n',
  });
  const cache = await Deno.makeTempDir();
  try {
    const env = { XDG_CACHE_HOME: cache, SHELL: "/bin/sh" };
    const r = await droverOn(srv, agent, ["clis", "list"], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const d = envelope(r).data;
    const by = Object.fromEntries(d.clis.map((c: { name: string }) => [c.name, c]));
    assert.equal(by.fake.enabled, true);
    assert.equal(by.fake.source, "config");
    assert.deepEqual(by.fake.env, ["FAKE_AGENT_DIR"]);
    assert.equal(by.fake.availability.status, "available");
    assert.equal(by.off.enabled, false);
    assert.equal(by.off.availability.status, "unavailable");
    assert.equal(by.claude.prompt, "positional");
    assert.equal(by.amp.prompt, "none");
    // The answer is cached; --no-probe reads only the cache, and launch shows it as advisory.
    const cached = envelope(await droverOn(srv, agent, ["clis", "list", "--no-probe"], { env }));
    assert.equal(
      cached.data.clis.find((c: { name: string }) => c.name === "fake").availability.status,
      "available",
    );
    const l = await droverOn(srv, agent, [
      "launch",
      "--cli",
      "fake",
      "--session",
      "holder",
      "--background",
    ], {
      env,
    });
    assert.equal(envelope(l).data.availability, "available");
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});
