/**
 * The kickoff prompt arrives byte-exact as the agent's last argv element, whatever the pane's
 * shell is, is never typed into the pane, and leaves no carrier behind (no file, no variable).
 */
import assert from "node:assert/strict";
import { envelope } from "../helpers/drover.ts";
import { startTestServer } from "../helpers/tmux_server.ts";
import { testWithTools } from "../helpers/tools.ts";
import { droverOn, fakeAgent, torturePrompt } from "./launch_helpers.ts";

// bash is required by the README; zsh and fish are optional (.ci/run installs them).
const SHELLS = ["bash", "zsh", "fish"];

for (const name of SHELLS) {
  testWithTools(
    `launch: a 100 KiB torture prompt arrives byte-exact with ${name} as default-shell`,
    [
      name,
    ],
    async (tools) => {
      const shell = tools[name];
      await using srv = await startTestServer();
      await srv.tmux("set-option", "-g", "default-shell", shell);
      await using agent = await fakeAgent();
      const carrierDir = await Deno.makeTempDir({ prefix: "drover-carrier-" });
      try {
        const prompt = torturePrompt();
        assert.equal(new TextEncoder().encode(prompt).length, 100 * 1024);
        const r = await droverOn(
          srv,
          agent,
          ["launch", "--cli", "fake", "--prompt", "-", "--session", "holder", "--background"],
          { stdin: prompt, env: { XDG_RUNTIME_DIR: carrierDir } },
        );
        const env = envelope(r);
        assert.equal(r.code, 0, r.stdout + r.stderr);
        assert.equal(env.ok, true);
        assert.equal(env.data.prompt.bytes, new TextEncoder().encode(prompt).length);

        const argv = await agent.argv();
        // The prompt starts with "-": positional form puts "--" before it.
        assert.deepEqual(argv.slice(0, 2), ["--fake-flag", "--"]);
        assert.equal(argv.length, 3);
        assert.ok(argv[2] === prompt, "prompt differs from what the agent received");

        // The carrier is gone: no file left, nothing in the agent's environment.
        assert.deepEqual(await Array.fromAsync(Deno.readDir(carrierDir)), []);
        const agentEnv = await agent.env();
        assert.ok(!agentEnv.includes("Grüße"), "prompt text leaked into the agent's environment");
        assert.ok(!/drover-prompt-/.test(agentEnv), "carrier path leaked into the environment");
        assert.match(agentEnv, new RegExp(`FAKE_AGENT_DIR=${agent.dir}`));

        // Never typed: the pane shows the agent's own output only.
        const screen = await srv.waitFor(env.data.pane.id, (s) => s.includes("fake-agent ready"));
        assert.ok(!screen.includes("Shell bait"), screen);
      } finally {
        await Deno.remove(carrierDir, { recursive: true });
      }
    },
    { hint: ".ci/run installs zsh and fish" },
  );
}

Deno.test("launch: a flag-form CLI gets --flag PROMPT, or --flag=PROMPT when the prompt starts with -", async () => {
  await using srv = await startTestServer();
  for (
    const [prompt, expected] of [
      ["plain start\n", ["--fake-flag", "--prompt-interactive", "plain start\n"]],
      ["-dash start\n", ["--fake-flag", "--prompt-interactive=-dash start\n"]],
    ] as const
  ) {
    await using agent = await fakeAgent({ prompt: "flag:--prompt-interactive" });
    const r = await droverOn(
      srv,
      agent,
      ["launch", "--cli", "fake", "--prompt", "-", "--session", "holder", "--background"],
      { stdin: prompt },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(await agent.argv(), expected);
  }
});

Deno.test("launch: without --prompt the CLI starts with its own argv only", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent({ args: ["--model", "x y", "it's"] });
  const r = await droverOn(srv, agent, ["launch", "--cli", "fake", "--session", "holder"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(envelope(r).data.prompt, null);
  assert.deepEqual(await agent.argv(), ["--model", "x y", "it's"]);
});
