/**
 * The crontab line of docs/cron.md, run as cron runs it (tests/helpers/cron.ts): `env -i` with
 * the line's own PATH (/usr/bin:/bin), a HOME, no TMUX, no TERM, through /bin/sh, against a
 * default tmux server private to the test.
 */
import assert from "node:assert/strict";
import { cronBox } from "../helpers/cron.ts";
import { cleanupReplay, loadScreen, startReplay } from "../helpers/replay.ts";

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

Deno.test("cron: the docs/cron.md crontab line runs one tick under env -i (no TMUX, no TERM)", async () => {
  const { env: cronEnv, command } = await crontabFromDocs();
  assert.equal(cronEnv.PATH, "/usr/bin:/bin");
  assert.ok("DROVER" in cronEnv, "the crontab block sets DROVER");

  await using box = await cronBox();
  const { home, server: srv } = box;

  await Deno.mkdir(`${home}/.config/drover`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.config/drover/config.toml`,
    `[drive]\napprove = "allowlist"\nallow = ["npm run build"]\n`,
  );

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
    const out = await box.run(command, { ...cronEnv, DROVER: box.exe });
    const { stdout, stderr } = out;
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
  }
});
