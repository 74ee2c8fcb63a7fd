/**
 * Hostile strings in every launch argument stay data (issue 17): tmux expands `#(…)` (a shell
 * command) and `#{…}` in session names, window names, start directories and pane titles, and an
 * argv element ending in `;` ends a tmux command. None of that may happen through drover.
 */
import assert from "node:assert/strict";
import { envelope } from "../helpers/drover.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";
import { droverOn, type FakeAgent, fakeAgent } from "./launch_helpers.ts";

/** A string that runs `touch $DROVER_MARK-<tag>` if tmux ever format-expands it. */
const bait = (tag: string) => `#(touch "$DROVER_MARK-${tag}")#{pane_id}`;

async function arm(srv: TestServer, agent: FakeAgent): Promise<void> {
  // #() jobs see the server's global environment.
  await srv.tmux("set-environment", "-g", "DROVER_MARK", `${agent.dir}/ran`);
}

/** Nothing ran: no marker file, after giving tmux's #() jobs time to start. */
async function nothingRan(agent: FakeAgent): Promise<void> {
  await new Promise((r) => setTimeout(r, 700));
  const ran: string[] = [];
  for await (const e of Deno.readDir(agent.dir)) if (e.name.startsWith("ran")) ran.push(e.name);
  assert.deepEqual(ran, [], `tmux ran commands from drover's arguments: ${ran.join(", ")}`);
}

async function facts(srv: TestServer, pane: string): Promise<Record<string, string>> {
  const keys = ["session_name", "window_name", "pane_title", "pane_current_path", "@drover-cli"];
  const out = await srv.tmux(
    "display-message",
    "-p",
    "-t",
    pane,
    keys.map((k) => `#{${k}}`).join("\u001f"),
  );
  const vals = out.replace(/\n$/, "").split("\u001f");
  return Object.fromEntries(keys.map((k, i) => [k, vals[i] ?? ""]));
}

/** {@link facts} once tmux can name the pane's directory: it reads it from the pane's process,
 * which on a loaded machine may not have started yet right after the split. */
async function settledFacts(srv: TestServer, pane: string): Promise<Record<string, string>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const f = await facts(srv, pane);
    if (f.pane_current_path !== "" || Date.now() > deadline) return f;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const HOSTILE_ARGS = [
  "--model;",
  "run-shell",
  'touch "$DROVER_MARK-args"',
  "a\\;",
  ";",
  "#{pane_id}",
  bait("argv"),
  "-x;;",
];

Deno.test("launch: #(…), #{…} and trailing ; in session, title, cwd, args and env run nothing and arrive literal", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent({
    args: HOSTILE_ARGS,
    env: { HOSTILE_ENV: `v;${bait("env")};` },
  });
  await arm(srv, agent);
  // tmux escapes "$NAME" in session names (launch refuses those), so this bait spells it $(…).
  const session = `S #(touch "$(printenv DROVER_MARK)-session")#{pane_id} s;`;
  const title = `T ${bait("title")} fix;`;
  const cwd = `${agent.dir}/d ${bait("cwd")} x;`;
  await Deno.mkdir(cwd);
  const real = await Deno.realPath(cwd);

  // A new session (new-session -s -n -c), then a window in it (has-session, new-window -t -n -c),
  // then a split of that window's pane (split-window -c, select-pane -T).
  const made = await droverOn(srv, agent, [
    "launch",
    "--cli",
    "fake",
    "--session",
    session,
    "--title",
    title,
    "--cwd",
    cwd,
    "--background",
  ]);
  assert.equal(made.code, 0, made.stdout + made.stderr);
  const d = envelope(made).data;
  assert.equal(d.placement, "session");
  assert.equal(d.session.name, session);
  assert.deepEqual(await agent.argv(), HOSTILE_ARGS);
  assert.match(await agent.env(), /^HOSTILE_ENV=v;#\(touch "\$DROVER_MARK-env"\)#\{pane_id\};$/m);
  assert.deepEqual(await settledFacts(srv, d.pane.id), {
    session_name: session,
    window_name: title,
    pane_title: title,
    pane_current_path: real,
    "@drover-cli": "fake",
  });

  const win = await droverOn(srv, agent, [
    "launch",
    "--cli",
    "fake",
    "--session",
    session,
    "--window",
    "--title",
    title,
    "--cwd",
    cwd,
    "--background",
  ]);
  assert.equal(win.code, 0, win.stdout + win.stderr);
  const w = envelope(win).data;
  assert.equal(w.placement, "window");
  assert.equal(w.session.id, d.session.id);
  assert.equal((await facts(srv, w.pane.id)).window_name, title);

  const split = await droverOn(srv, agent, [
    "launch",
    "--cli",
    "fake",
    "--split",
    "right",
    "--anchor",
    w.pane.id,
    "--title",
    title,
    "--cwd",
    cwd,
    "--background",
  ]);
  assert.equal(split.code, 0, split.stdout + split.stderr);
  const sf = await settledFacts(srv, envelope(split).data.pane.id);
  assert.equal(sf.pane_title, title);
  assert.equal(sf.pane_current_path, real);

  // The same name as a target elsewhere: panes --session, read session:w.p, drive --session.
  const panes = await droverOn(srv, agent, ["panes", "--session", session]);
  assert.equal(panes.code, 0, panes.stdout);
  assert.equal(envelope(panes).data.panes.length, 3);
  const read = await droverOn(srv, agent, ["read", `${session}:${d.window.index}.0`]);
  assert.equal(read.code, 0, read.stdout);
  assert.equal(envelope(read).data.pane_id, d.pane.id);
  const state = await Deno.makeTempDir({ prefix: "drover-hostile-state-" });
  try {
    const drive = await droverOn(srv, agent, [
      "drive",
      "--session",
      session,
      "--once",
      "--state",
      state,
    ]);
    assert.equal(drive.code, 0, drive.stdout + drive.stderr);
  } finally {
    await Deno.remove(state, { recursive: true });
  }
  await nothingRan(agent);
});

Deno.test("launch --title 'fix;' works and the window is named exactly that", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  for (const title of ["fix;", "a\\;", ";", "#{pane_id}", "##", "#"]) {
    const r = await droverOn(srv, agent, [
      "launch",
      "--cli",
      "fake",
      "--session",
      "holder",
      "--title",
      title,
      "--background",
    ]);
    assert.equal(r.code, 0, `${title}: ${r.stdout}${r.stderr}`);
    const f = await facts(srv, envelope(r).data.pane.id);
    assert.equal(f.window_name, title);
    assert.equal(f.pane_title, title);
  }
});

Deno.test("launch refuses a session name tmux would rewrite, before creating anything", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  for (const session of ["a$HOME", "a${x}", "b\\c", "tab\tx"]) {
    const r = await droverOn(srv, agent, ["launch", "--cli", "fake", "--session", session]);
    assert.equal(r.code, 2, `${session}: ${r.stdout}${r.stderr}`);
    assert.equal(envelope(r).error.code, "INVALID_ARGUMENT");
  }
  assert.equal((await srv.tmux("list-sessions", "-F", "#{session_name}")).trim(), "holder");
});

// Found by the issue-17 audit: a 100 KB session name came back whole in the error message.
Deno.test("a 100 KB session name or target is refused with a short message", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent();
  const huge = "b".repeat(100_000);
  const r = await droverOn(srv, agent, ["launch", "--cli", "fake", "--session", huge]);
  assert.notEqual(r.code, 0);
  assert.ok(r.stdout.length < 1000, `${r.stdout.length} bytes: ${r.stdout.slice(0, 300)}`);
  for (
    const args of [["read", `${huge}:0.0`], ["read", `${huge};`], ["panes", "--session", huge]]
  ) {
    const x = await droverOn(srv, agent, args);
    assert.ok([1, 2, 4].includes(x.code), `${args[0]}: exit ${x.code}`);
    assert.ok(x.stdout.length < 1000, `${args[0]}: ${x.stdout.length} bytes`);
  }
  assert.equal((await srv.tmux("list-sessions", "-F", "#{session_name}")).trim(), "holder");
});
