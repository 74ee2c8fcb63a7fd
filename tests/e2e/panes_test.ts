/** `drover panes` and `drover capture` on a private tmux server. */
import assert from "node:assert/strict";
import { drover, envelope } from "../helpers/drover.ts";
import { startTestServer } from "../helpers/tmux_server.ts";
import {
  cleanupReplay,
  loadScreen,
  manifestScreens,
  pick,
  plainFixture,
  startReplay,
} from "../helpers/replay.ts";

// The 2.1.197 screens: the assertions below read that version off their banners.
const SCREENS = await manifestScreens("claude-code", "2.1.197");

Deno.test("panes: CLI with its source, role, state and mode for every pane of a session", async () => {
  await using srv = await startTestServer();
  const tmp = await Deno.makeTempDir();
  const ready = pick(SCREENS, /^ready$/, { size: "120x40" })!;
  const prompt = pick(SCREENS, /^bash-prompt$/, { size: "120x40" })!;
  const orch = await startReplay(srv, await loadScreen(ready.rel), { session: "agents" });
  const agent = await startReplay(srv, await loadScreen(prompt.rel), {
    session: "agents",
    newWindow: true,
  });
  try {
    await srv.tmux("set-option", "-p", "-t", agent.paneId, "@drover-cli", "claude");
    // A process named like a known CLI, and one running a CLI's script under "node".
    await Deno.mkdir(`${tmp}/bin`);
    await Deno.mkdir(`${tmp}/lib/node_modules/@google/gemini-cli/dist`, { recursive: true });
    for (const name of ["codex", "node"]) {
      await Deno.writeTextFile(`${tmp}/bin/${name}`, "#!/bin/bash\nsleep 100000\n");
      await Deno.chmod(`${tmp}/bin/${name}`, 0o755);
    }
    await srv.tmux("new-window", "-d", "-t", "agents:", `${tmp}/bin/codex`);
    await srv.tmux(
      "new-window",
      "-d",
      "-t",
      "agents:",
      `${tmp}/bin/node ${tmp}/lib/node_modules/@google/gemini-cli/dist/index.js`,
    );
    await new Promise((r) => setTimeout(r, 500));
    const r = await drover(["-L", srv.name, "--json", "panes", "--session", "agents"]);
    assert.equal(r.code, 0, r.stderr);
    const env = envelope(r);
    assert.equal(env.schema, "drover.panes.v1");
    const rows = env.data.panes;
    assert.equal(rows.length, 4);
    const by = (id: string) => rows.find((x: { id: string }) => x.id === id);
    assert.equal(by(orch.paneId).role, "orchestrator");
    assert.equal(by(orch.paneId).state, "idle");
    assert.equal(by(agent.paneId).role, "agent");
    assert.equal(by(agent.paneId).state, "prompt");
    assert.deepEqual([by(agent.paneId).cli, by(agent.paneId).cli_source], [
      "claude",
      "pane-option",
    ]);
    assert.deepEqual(
      [rows[2].cli, rows[2].cli_source],
      ["codex", "process"],
      JSON.stringify(rows[2]),
    );
    assert.deepEqual([rows[3].cli, rows[3].cli_source], ["gemini", "process"]);
    assert.deepEqual([by(orch.paneId).cli, by(orch.paneId).cli_source], ["claude", "fallback"]);
    const flagged = envelope(
      await drover(["-L", srv.name, "--json", "panes", "--session", "agents", "--cli", "qwen"]),
    );
    assert.deepEqual(
      [flagged.data.panes[0].cli, flagged.data.panes[0].cli_source],
      ["qwen", "flag"],
    );
    const human = await drover(["-L", srv.name, "panes", "--session", "agents"]);
    assert.match(human.stdout, /agents:1\.0\s+claude 2\.1\.197 \(pane-option\)\s+agent\s+prompt/);
    const tsv = await drover(["-L", srv.name, "panes", "--session", "agents", "--format", "tsv"]);
    assert.equal(tsv.stdout.split("\n")[0], "#drover-panes\t1");
    const missing = await drover(["-L", srv.name, "panes", "--session", "nope"]);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /TARGET_NOT_FOUND.*nope/);
  } finally {
    await cleanupReplay(orch);
    await cleanupReplay(agent);
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("panes: the CLI version from the pane's processes (a versioned path, a package), else its banner", async () => {
  await using srv = await startTestServer();
  const tmp = await Deno.makeTempDir();
  const ready = pick(SCREENS, /^ready$/, { size: "120x40" })!;
  const banner = await startReplay(srv, await loadScreen(ready.rel), { session: "v" });
  try {
    // An npm install run through node (.bin symlink → the package's script), and a native
    // binary kept under a versioned path and started through a symlink, as installers do.
    const pkg = `${tmp}/lib/node_modules/@qwen-code/qwen-code`;
    await Deno.mkdir(pkg, { recursive: true });
    await Deno.mkdir(`${tmp}/lib/node_modules/.bin`);
    await Deno.writeTextFile(
      `${pkg}/package.json`,
      '{"name":"@qwen-code/qwen-code","version":"9.8.7"}',
    );
    await Deno.writeTextFile(`${pkg}/cli.js`, "");
    await Deno.symlink(`${pkg}/cli.js`, `${tmp}/lib/node_modules/.bin/qwen`);
    await Deno.mkdir(`${tmp}/share/claude/versions`, { recursive: true });
    await Deno.mkdir(`${tmp}/bin`);
    const sleeper = "#!/bin/bash\nsleep 100000\n";
    await Deno.writeTextFile(`${tmp}/share/claude/versions/3.4.5`, sleeper);
    await Deno.chmod(`${tmp}/share/claude/versions/3.4.5`, 0o755);
    await Deno.symlink(`${tmp}/share/claude/versions/3.4.5`, `${tmp}/bin/claude`);
    await Deno.writeTextFile(`${tmp}/bin/node`, sleeper);
    await Deno.chmod(`${tmp}/bin/node`, 0o755);
    await srv.tmux(
      "new-window",
      "-d",
      "-t",
      "v:",
      `${tmp}/bin/node ${tmp}/lib/node_modules/.bin/qwen`,
    );
    await srv.tmux("new-window", "-d", "-t", "v:", `${tmp}/bin/claude`);
    await new Promise((r) => setTimeout(r, 500));
    const env = envelope(await drover(["-L", srv.name, "--json", "panes", "--session", "v"]));
    const rows = env.data.panes as Record<string, unknown>[];
    const pick3 = (r: Record<string, unknown>) => [r.cli, r.cli_version, r.cli_version_source];
    // The replayed Claude Code 2.1.197 welcome screen: only its banner tells the version.
    assert.deepEqual(pick3(rows[0]), ["claude", "2.1.197", "screen"]);
    assert.deepEqual(pick3(rows[1]), ["qwen", "9.8.7", "package"]);
    assert.deepEqual(pick3(rows[2]), ["claude", "3.4.5", "path"]);
    const human = await drover(["-L", srv.name, "panes", "--session", "v"]);
    assert.match(human.stdout, /v:1\.0\s+qwen 9\.8\.7 \(process\)/);
  } finally {
    await cleanupReplay(banner);
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("capture prints the screen drover judges; --json has plain and styled; --lines adds history", async () => {
  await using srv = await startTestServer();
  const s = pick(SCREENS, /^bash-prompt$/, { size: "80x24" })!;
  const pane = await startReplay(srv, await loadScreen(s.rel), { session: "c" });
  try {
    const want = await plainFixture(s.rel);
    await srv.waitFor(pane.paneId, (t) => t.includes("Do you want to proceed?"));
    const r = await drover(["-L", srv.name, "capture", "c:0.0"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, want.replace(/\n$/, "") + "\n");
    const j = envelope(await drover(["-L", srv.name, "--json", "capture", pane.paneId]));
    assert.equal(j.schema, "drover.capture.v1");
    assert.equal(j.data.plain, want);
    assert.ok(j.data.styled.includes("\x1b["));
    assert.equal(j.data.size, "80x24");
    const h = envelope(
      await drover(["-L", srv.name, "--json", "capture", pane.paneId, "--lines", "50"]),
    );
    assert.equal(h.data.history_lines, 50);
    assert.ok(h.data.plain.endsWith(want), "the history sits above the same screen");
    const bad = await drover(["-L", srv.name, "capture", pane.paneId, "--lines", "x"]);
    assert.equal(bad.code, 2);
    const gone = await drover(["-L", srv.name, "capture", "%99"]);
    assert.equal(gone.code, 4);
  } finally {
    await cleanupReplay(pane);
  }
});

Deno.test("panes over many panes costs a constant number of tmux processes (batched)", async () => {
  await using srv = await startTestServer();
  const tmp = await Deno.makeTempDir();
  const doubles = [];
  try {
    const s = pick(SCREENS, /^bash-prompt$/, { size: "80x24" })!;
    const screen = await loadScreen(s.rel);
    doubles.push(await startReplay(srv, screen, { session: "many" }));
    for (let i = 0; i < 7; i++) {
      doubles.push(await startReplay(srv, screen, { session: "many", newWindow: true }));
    }
    // A tmux on PATH that logs each invocation, then runs the real one.
    const real = new TextDecoder().decode(
      (await new Deno.Command("sh", { args: ["-c", "command -v tmux"], stdout: "piped" }).output())
        .stdout,
    ).trim();
    await Deno.mkdir(`${tmp}/bin`);
    await Deno.writeTextFile(
      `${tmp}/bin/tmux`,
      `#!/bin/sh\necho x >> '${tmp}/calls'\nexec '${real}' "$@"\n`,
    );
    await Deno.chmod(`${tmp}/bin/tmux`, 0o755);
    const r = await drover(["-L", srv.name, "--json", "panes", "--session", "many"], {
      env: { PATH: `${tmp}/bin:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(envelope(r).data.panes.length, 8);
    assert.ok(
      envelope(r).data.panes.slice(1).every((p: { state: string }) => p.state === "prompt"),
    );
    const calls = (await Deno.readTextFile(`${tmp}/calls`)).trim().split("\n").length;
    assert.ok(calls <= 2, `${calls} tmux processes for 8 panes (want: one list, one capture)`);
  } finally {
    for (const d of doubles) await cleanupReplay(d);
    await Deno.remove(tmp, { recursive: true });
  }
});
