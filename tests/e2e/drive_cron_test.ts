/**
 * The crontab line of docs/cron.md, run as cron runs it: `env -i` with the line's own PATH
 * (/usr/bin:/bin), a HOME, no TMUX, no TERM, through /bin/sh. `$DROVER` points at the binary
 * under test (DROVER_BIN) or, from a source checkout, at the wrapper script docs/cron.md shows.
 *
 * The tmux server is the *default* server the line talks to, made private to this test with
 * TMUX_TMPDIR (tmux's own variable for where its sockets live), so no real session is touched.
 */
import assert from "node:assert/strict";
import { MAIN, V8_FLAGS } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, startReplay } from "../helpers/replay.ts";
import type { TestServer } from "../helpers/tmux_server.ts";

const DOC = new URL("../../docs/cron.md", import.meta.url);

/** The env lines and the command of the fenced crontab block after the marker comment. */
export async function crontabFromDocs(): Promise<{ env: Record<string, string>; command: string }> {
  const text = await Deno.readTextFile(DOC);
  const at = text.indexOf("<!-- drover:crontab");
  assert.ok(at >= 0, "docs/cron.md has no <!-- drover:crontab marker");
  const block = /```crontab\n([\s\S]*?)```/.exec(text.slice(at));
  assert.ok(block, "no ```crontab block after the marker");
  const env: Record<string, string> = {};
  let command = "";
  for (const line of block[1].split("\n")) {
    const t = line.trim();
    if (t === "" || t.startsWith("#")) continue;
    const assign = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(t);
    if (assign) {
      env[assign[1]] = assign[2];
      continue;
    }
    const m = /^(\S+\s+){5}(.+)$/.exec(t);
    assert.ok(m, `not a crontab schedule line: ${t}`);
    assert.equal(command, "", "more than one schedule line");
    command = m[2];
  }
  assert.ok(command !== "", "no schedule line");
  return { env, command };
}

async function tmuxAt(socket: string, tmpdir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-S", socket, "-f", "/dev/null", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { TMUX_TMPDIR: tmpdir, TERM: "xterm-256color" },
  }).output();
  const dec = new TextDecoder();
  if (out.code !== 0) throw new Error(`tmux ${args.join(" ")}: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout);
}

Deno.test("cron: the docs/cron.md crontab line runs one tick under env -i (no TMUX, no TERM)", async () => {
  const { env: cronEnv, command } = await crontabFromDocs();
  assert.equal(cronEnv.PATH, "/usr/bin:/bin");
  assert.ok("DROVER" in cronEnv, "the crontab block sets DROVER");

  const home = await Deno.makeTempDir({ prefix: "drover-cron-home-" });
  const tmuxTmp = await Deno.makeTempDir({ prefix: "drover-cron-tmux-" });
  const uid = Deno.uid() ?? 0;
  const sockDir = `${tmuxTmp}/tmux-${uid}`;
  await Deno.mkdir(sockDir, { mode: 0o700 });
  const socket = `${sockDir}/default`;

  // What the docs tell users to install: the compiled binary, or the deno wrapper script.
  let exe = Deno.env.get("DROVER_BIN");
  if (!exe) {
    exe = `${home}/drover`;
    // HOME is a throwaway here, so the wrapper names the deno cache this checkout already filled
    // (a real user's cron HOME is their own, with the same cache).
    const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
    await Deno.writeTextFile(
      exe,
      `#!/bin/sh\nDENO_DIR='${denoDir}' exec '${Deno.execPath()}' run -A --quiet ${V8_FLAGS} '${MAIN}' "$@"\n`,
    );
    await Deno.chmod(exe, 0o755);
  }

  await Deno.mkdir(`${home}/.config/drover`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.config/drover/config.toml`,
    `[drive]\napprove = "allowlist"\nallow = ["npm run build"]\n`,
  );

  const srv: TestServer = {
    name: "default",
    tmux: (...args: string[]) => tmuxAt(socket, tmuxTmp, ...args),
    waitFor: () => Promise.reject(new Error("unused")),
    async [Symbol.asyncDispose]() {
      await tmuxAt(socket, tmuxTmp, "kill-server").catch(() => "");
    },
  };
  const size = "80x24";
  const orch = await startReplay(srv, await loadScreen(`claude-code/2.1.197/ready@${size}`), {
    session: "agents",
  });
  const typed = await startReplay(
    srv,
    await loadScreen(`claude-code/2.1.197/pasted-text@${size}`),
    {
      session: "agents",
      newWindow: true,
    },
  );
  const prompt = await startReplay(
    srv,
    await loadScreen(`claude-code/2.1.197/bash-prompt-npm@${size}`),
    { session: "agents", newWindow: true },
  );
  await prompt.onKey("1", await loadScreen(`claude-code/2.1.197/bash-answered@${size}`));
  try {
    const env = { ...cronEnv, DROVER: exe, HOME: home, TMUX_TMPDIR: tmuxTmp };
    const out = await new Deno.Command("/usr/bin/env", {
      args: ["-i", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), "/bin/sh", "-c", command],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
    }).output();
    const dec = new TextDecoder();
    const stdout = dec.decode(out.stdout);
    const stderr = dec.decode(out.stderr);
    assert.equal(out.code, 0, `${stdout}\n${stderr}`);
    assert.doesNotMatch(stderr, /Failed to resolve|NotCapable|NotFound/);

    const wait = async (p: typeof typed, n: number) => {
      const deadline = Date.now() + 8000;
      while ((await p.keys()).length < n && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 300));
      return await p.keys();
    };
    assert.equal(await wait(typed, 1), "\r");
    assert.equal(await wait(prompt, 1), "1");
    assert.equal(await orch.keys(), "");
    // One concise line per action on stdout (cron mails it), and the events file.
    assert.match(stdout, /input-submitted/);
    assert.match(stdout, /approved/);
    const events = (await Deno.readTextFile(`${home}/.local/state/drover/agents.events.jsonl`))
      .trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(events.every((e) => e.schema === "drover.event.v1"));
    assert.deepEqual(
      events.map((e) => e.event).filter((e) => e !== "drive-started" && e !== "drive-stopped")
        .sort(),
      ["approved", "input-submitted"],
    );
  } finally {
    for (const p of [orch, typed, prompt]) await cleanupReplay(p);
    await srv[Symbol.asyncDispose]();
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.remove(tmuxTmp, { recursive: true }).catch(() => {});
  }
});
