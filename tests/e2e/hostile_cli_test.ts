/**
 * CLI-level rules of issue 17: an unknown `--cli` is exit 5 on every command that takes it (before
 * tmux is touched), and text output never carries a capture's raw control bytes.
 */
import assert from "node:assert/strict";
import { drover, envelope } from "../helpers/drover.ts";
import { newPane, startTestServer } from "../helpers/tmux_server.ts";
import { plainFixture } from "../helpers/replay.ts";

const NO_SERVER = `drover-none-${Deno.pid}`;

Deno.test("--cli nosuch → PROFILE_NOT_FOUND (exit 5) on every command that takes --cli", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drover-cli-" });
  try {
    await Deno.writeTextFile(`${dir}/screen.txt`, "x\n");
    const cases: [string[], string?][] = [
      [["detect", "--cli", "nosuch", "-"], "hello\n"],
      [["profile", "show", "nosuch"]],
      [["profile", "test", "--cli", "nosuch", dir]],
      [["send", "%1", "--cli", "nosuch", "hello"]],
      [["wait", "%1", "--cli", "nosuch", "--until", "idle"]],
      [["capture", "%1", "--cli", "nosuch"]],
      [["approve", "%1", "--cli", "nosuch"]],
      [["panes", "--cli", "nosuch"]],
      [["launch", "--cli", "nosuch", "--session", "s"]],
    ];
    for (const [args, stdin] of cases) {
      const r = await drover(
        ["-L", NO_SERVER, "--json", ...args],
        stdin === undefined ? { env: { TMUX: "" } } : { stdin, env: { TMUX: "" } },
      );
      assert.equal(r.code, 5, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
      const e = envelope(r).error;
      assert.equal(e.code, "PROFILE_NOT_FOUND", args.join(" "));
      assert.match(e.message, /nosuch/);
    }
    // Known names still work: a shipped alias, and a CLI the configuration defines.
    for (const cli of ["claude", "claude-code", "codex", "gemini", "qwen", "opencode"]) {
      const r = await drover(["--json", "detect", "--cli", cli, "-"], { stdin: "x\n" });
      assert.equal(r.code, 0, `${cli}: ${r.stdout}`);
    }
    await Deno.writeTextFile(`${dir}/c.toml`, '[clis.mine]\ncommand = "mine"\n');
    const mine = await drover(["--config", `${dir}/c.toml`, "detect", "--cli", "mine", "-"], {
      stdin: "x\n",
    });
    assert.equal(mine.code, 0, mine.stdout + mine.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Every C0 control but \t and \n, DEL and a C1 control, as a screen may hold them. */
const CONTROLS = "bs[\b] del[\x7f] esc[\x1b[31m] cr[\r] bel[\x07] c1[\x9b]";

function rawControls(text: string): string[] {
  // deno-lint-ignore no-control-regex
  return [...text.matchAll(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g)].map((m) =>
    m[0].charCodeAt(0).toString(16)
  );
}

Deno.test("text output never prints raw control bytes from a capture or a title", async () => {
  await using srv = await startTestServer();
  const pane = await newPane(srv, `printf '%s\\n' '────────' '> typed' '────────'; sleep 100`);
  await srv.waitFor(pane, (s) => s.includes("> typed"));
  await srv.tmux("select-pane", "-t", pane, "-T", `title${CONTROLS}`);
  // A capture file can hold anything (tmux's own captures never hold raw controls): a recorded
  // Claude Code permission prompt with controls in its command and its options.
  const hostile = (await plainFixture("claude-code/2.1.197/bash-prompt@120x40"))
    .replace("build check ok", `build${CONTROLS} ok`)
    .replace("2. Yes, and", `2. Yes${CONTROLS}, and`);
  const base = ["-L", srv.name];
  const runs = [
    await drover([...base, "read", pane]),
    await drover([...base, "capture", pane]),
    await drover([...base, "panes"]),
    await drover([...base, "detect", "-"], { stdin: hostile }),
    await drover([...base, "detect", "--title", `t${CONTROLS}`, "-"], { stdin: hostile }),
    await drover([...base, "wait", pane, "--until", "idle", "--timeout", "1"]),
  ];
  for (const r of runs) {
    assert.deepEqual(rawControls(r.stdout), [], r.stdout);
    assert.deepEqual(rawControls(r.stderr), [], r.stderr);
  }
});
