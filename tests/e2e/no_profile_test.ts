/**
 * Issue 27, item 6: a pane whose CLI has no profile (here a process named `aider`, configured as
 * `[clis.aider]` with no profile of its own and identified as `aider (process)`) is judged with the
 * embedded Claude Code default; every refusal read off its
 * screen says so, and how to add a profile. Real tmux; the pane logs every key it gets.
 */
import assert from "node:assert/strict";
import { drover, envelope } from "../helpers/drover.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";

const REPLAY = new URL("../helpers/replay.sh", import.meta.url).pathname;

/**
 * HAND-MADE, not recorded (no Copilot CLI is installed here): a GitHub Copilot CLI 1.0.102
 * command prompt drawn after the shape the lab notes record for it (boxed, an inner box with the
 * command, "Do you want to run this command?", options 1–3, the navigation footer).
 */
const COPILOT_PROMPT = [
  "● I'll list the files to see what is here.",
  "",
  "╭────────────────────────────────────────────────────────────────────────────╮",
  "│ Run shell command                                                          │",
  "│ ╭────────────────────────────────────────────────────────────────────────╮ │",
  "│ │ ls -la                                                                 │ │",
  "│ ╰────────────────────────────────────────────────────────────────────────╯ │",
  "│                                                                            │",
  "│ Do you want to run this command?                                           │",
  "│                                                                            │",
  "│ ❯ 1. Yes                                                                   │",
  "│   2. Yes, and don't ask again for `ls` commands in this folder             │",
  "│   3. No, and tell Copilot what to do differently (Esc to stop)             │",
  "│                                                                            │",
  "│ ↑/↓ to navigate · enter to select · esc to cancel                          │",
  "╰────────────────────────────────────────────────────────────────────────────╯",
].join("\n");

/** A pane in session `s` whose process is an executable named `aider`; its key log. */
async function aiderPane(
  srv: TestServer,
  dir: string,
): Promise<{ id: string; keys(): Promise<string> }> {
  await Deno.writeTextFile(`${dir}/screen`, COPILOT_PROMPT);
  // Configured, with no profile of its own: identified by its process, judged by the default.
  await Deno.writeTextFile(`${dir}/bare.toml`, `[clis.aider]\ncommand = "aider"\n`);
  // The replay double under the name the pane is identified by (bash runs it as a script).
  await Deno.writeTextFile(`${dir}/aider`, `#!/bin/bash\nbash ${REPLAY} ${dir}\n`);
  await Deno.chmod(`${dir}/aider`, 0o755);
  const id = (await srv.tmux(
    "new-session",
    "-d",
    "-P",
    "-F",
    "#{pane_id}",
    "-s",
    "s",
    "-x",
    "80",
    "-y",
    "24",
    `${dir}/aider`,
  )).trim();
  await srv.waitFor(id, (s) => s.includes("Do you want to run this command?"));
  return {
    id,
    keys: () => Deno.readTextFile(`${dir}/keys`).catch(() => ""),
  };
}

const NOTE =
  /No profile describes aider: the embedded Claude Code default judged this screen.*\[clis\.aider\.prompt_profile\].*docs\/profiles\.md/;

Deno.test("approve on a CLI without a profile: the refusal says the Claude default judged the screen, and how to add a profile", async () => {
  await using srv = await startTestServer({ width: 80, height: 24 });
  const dir = await Deno.makeTempDir({ prefix: "drover-aider-" });
  try {
    const pane = await aiderPane(srv, dir);
    // A second window so the aider pane is not the session's orchestrator.
    await srv.tmux("new-window", "-d", "-t", "s:", "sleep 100000");
    await srv.tmux("swap-window", "-s", "s:0", "-t", "s:1");
    const env = { XDG_RUNTIME_DIR: dir };
    const cfg = ["--config", `${dir}/bare.toml`];
    const json = await drover(["-L", srv.name, ...cfg, "--json", "approve", pane.id], { env });
    const data = envelope(json).data;
    assert.equal(data.cli, "aider");
    assert.equal(data.cli_source, "process");
    assert.equal(data.outcome, "refused");
    assert.equal(json.code, 13, json.stdout);
    assert.match(data.message, NOTE);

    const human = await drover(["-L", srv.name, ...cfg, "approve", pane.id], { env });
    assert.equal(human.code, 13);
    assert.match(human.stdout, /aider \[process\], agent/);
    assert.match(human.stdout, NOTE);
    assert.equal(await pane.keys(), "", "nothing was sent");

    // The same screen judged for a CLI that has a profile: no such note.
    await srv.tmux("set-option", "-p", "-t", pane.id, "@drover-cli", "claude");
    const claude = await drover(["-L", srv.name, ...cfg, "--json", "approve", pane.id], {
      env,
    });
    assert.equal(envelope(claude).data.cli, "claude");
    assert.equal(claude.code, 13);
    assert.doesNotMatch(envelope(claude).data.message, /No profile describes/);

    // A profile of its own in the configuration: judged by it, no note either.
    await srv.tmux("set-option", "-p", "-u", "-t", pane.id, "@drover-cli");
    await Deno.writeTextFile(
      `${dir}/config.toml`,
      `[clis.aider]\ncommand = "aider"\n[clis.aider.prompt_profile]\n` +
        `approval_markers = ["do you want to run this command?"]\n`,
    );
    const own = await drover(
      ["-L", srv.name, "--config", `${dir}/config.toml`, "--json", "approve", pane.id, "--dry-run"],
      { env },
    );
    assert.equal(envelope(own).data.cli, "aider");
    assert.doesNotMatch(envelope(own).data.message, /No profile describes/);
    assert.equal(await pane.keys(), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("drive on a CLI without a profile: its dialog escalation says the Claude default judged the screen", async () => {
  await using srv = await startTestServer({ width: 80, height: 24 });
  const dir = await Deno.makeTempDir({ prefix: "drover-aider-" });
  try {
    const pane = await aiderPane(srv, dir);
    await srv.tmux("new-window", "-d", "-t", "s:", "sleep 100000");
    await srv.tmux("swap-window", "-s", "s:0", "-t", "s:1");
    const run = await drover(
      [
        "-L",
        srv.name,
        "--config",
        `${dir}/bare.toml`,
        "--json",
        "drive",
        "--session",
        "s",
        "--once",
        "--approve",
        "allowlist",
        "--allow",
        "ls",
        "--state",
        `${dir}/state`,
      ],
      { env: { XDG_RUNTIME_DIR: dir } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const events = run.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
      .filter((e) => e.schema === "drover.event.v1");
    const esc = events.find((e) => e.event === "escalated" && e.pane === pane.id);
    assert.ok(esc, run.stdout);
    assert.equal(esc.cli, "aider");
    assert.equal(esc.reason, "dialog");
    assert.match(esc.message, NOTE);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await pane.keys(), "", "nothing was sent");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
