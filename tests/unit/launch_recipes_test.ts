import assert from "node:assert/strict";
import { DroverError } from "../../lib/errors.ts";
import {
  allRecipes,
  formatPromptForm,
  lookupRecipe,
  parsePromptForm,
  promptArgv,
} from "../../lib/launch/recipes.ts";
import { LAUNCH_SNIPPET } from "../../lib/launch/carrier.ts";

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DroverError) return e.code;
    throw e;
  }
  return "OK";
}

Deno.test("built-in recipes: executable and prompt form per known CLI", () => {
  const table = Object.fromEntries(
    allRecipes().map((r) => [r.name, `${r.command} ${formatPromptForm(r.prompt)}`]),
  );
  assert.equal(table.claude, "claude positional");
  assert.equal(table.codex, "codex positional");
  assert.equal(table.gemini, "gemini flag:--prompt-interactive");
  assert.equal(table.qwen, "qwen flag:--prompt-interactive");
  assert.equal(table.opencode, "opencode flag:--prompt");
  assert.equal(table.copilot, "copilot flag:--interactive");
  // Its positional prompt alone runs headless, every tool auto-approved: -i keeps it in its TUI.
  assert.equal(table.cline, "cline positional");
  assert.deepEqual(allRecipes().find((r) => r.name === "cline")?.args, ["-i"]);
  assert.equal(table.amp, "amp none");
});

Deno.test("the prompt is always the final argv element", () => {
  for (const r of allRecipes()) {
    if (r.prompt.kind === "none") continue;
    for (const prompt of ["do it", "-starts with dash", "--help"]) {
      const { argv, promptPrefix } = promptArgv(r, prompt);
      const final = [...argv, promptPrefix + prompt];
      assert.equal(final[0], r.command);
      assert.ok(final.at(-1)!.endsWith(prompt));
      if (r.prompt.kind === "flag") {
        const joined = prompt.startsWith("-")
          ? final.at(-1) === `${r.prompt.flag}=${prompt}`
          : final.at(-2) === r.prompt.flag && final.at(-1) === prompt;
        assert.ok(joined, `${r.name}: ${JSON.stringify(final)}`);
      } else if (prompt.startsWith("-")) {
        assert.equal(final.at(-2), "--", r.name);
      }
    }
  }
});

Deno.test("a CLI that cannot take a prompt is INVALID_ARGUMENT", () => {
  assert.equal(code(() => promptArgv(lookupRecipe("amp"), "x")), "INVALID_ARGUMENT");
});

Deno.test("[clis.<name>] overrides a built-in field by field and adds new CLIs", () => {
  const clis = {
    claude: { args: ["--model", "opus"], env: { FOO: "bar" } },
    mine: { command: "/opt/mine/bin/agent", prompt: "flag:--task" },
  };
  const c = lookupRecipe("claude", clis);
  assert.equal(c.command, "claude");
  assert.deepEqual(c.args, ["--model", "opus"]);
  assert.deepEqual(c.env, { FOO: "bar" });
  assert.equal(c.source, "builtin+config");
  const m = lookupRecipe("mine", clis);
  assert.deepEqual(promptArgv(m, "go"), {
    argv: ["/opt/mine/bin/agent", "--task"],
    promptPrefix: "",
  });
  assert.equal(m.source, "config");
});

Deno.test("lookup: exact name, disabled, alias, ambiguity, unknown", () => {
  assert.equal(lookupRecipe("claude-code").name, "claude");
  assert.equal(
    code(() => lookupRecipe("codex", { codex: { enabled: false } })),
    "PROFILE_NOT_FOUND",
  );
  assert.equal(code(() => lookupRecipe("nope")), "PROFILE_NOT_FOUND");
  const two = { a: { command: "/x/agent" }, b: { command: "/y/agent" } };
  assert.equal(code(() => lookupRecipe("agent", two)), "PROFILE_NOT_UNIQUE");
  // A disabled entry does not take part in name uniqueness.
  assert.equal(
    lookupRecipe("agent", {
      a: { command: "/x/agent" },
      b: { command: "/y/agent", enabled: false },
    })
      .name,
    "a",
  );
});

Deno.test("prompt forms are validated", () => {
  assert.deepEqual(parsePromptForm("flag:--prompt", "t"), { kind: "flag", flag: "--prompt" });
  for (const bad of ["flag:", "flag:prompt", "flag:--a b", "positional ", "stdin"]) {
    assert.equal(code(() => parsePromptForm(bad, "t")), "INVALID_ARGUMENT", bad);
  }
});

Deno.test("the carrier snippet hands a file's exact bytes over as the last argument and deletes it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const prompt = "-x \"q\" '$HOME' \\ \t\n日本\n\n";
    const file = `${dir}/p`;
    await Deno.writeTextFile(file, prompt);
    const out = await new Deno.Command("/bin/sh", {
      args: ["-c", LAUNCH_SNIPPET, "drover-launch", file, "--flag=", "printf", "%s|%s"],
      stdout: "piped",
    }).output();
    // One argument for a two-%s format prints "<prefix+prompt>|": it arrived as ONE argument.
    assert.equal(new TextDecoder().decode(out.stdout), `--flag=${prompt}|`);
    assert.equal(await Deno.stat(file).then(() => true, () => false), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
