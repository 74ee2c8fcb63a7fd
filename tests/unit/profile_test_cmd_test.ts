/**
 * `drover profile test --cli NAME DIR` and `capture --save DIR --as STATE`'s file naming: a folder
 * of real screens named by state passes with the shipped profile, and a deliberately wrong marker
 * is reported as a mismatch naming the field (exit 1).
 */
import assert from "node:assert/strict";
import { drover, REPO_ROOT } from "../helpers/drover.ts";
import { saveScreen, screenFiles } from "../../lib/cli/profile_test_cmd.ts";

const CODEX = `${REPO_ROOT}tests/fixtures/codex/0.171.0`;

/** Copy real Codex screens into a folder named the way a user would save them. */
async function screenDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "drover-profile-test-" });
  const pick: Record<string, string> = {
    "prompt-1": "shell-prompt@120x40",
    "prompt-2": "shell-prompt-rm@80x24",
    "idle-1": "ready@120x40",
    "idle-2": "typed-input@80x24",
    "busy-1": "busy@120x40",
    "dialog-1": "trust-dialog@80x24",
    "unavailable-1": "quota-exceeded@120x40",
  };
  for (const [name, fx] of Object.entries(pick)) {
    await Deno.copyFile(`${CODEX}/${fx}.txt`, `${dir}/${name}.txt`);
    await Deno.copyFile(`${CODEX}/${fx}.ansi.txt`, `${dir}/${name}.ansi.txt`);
  }
  await Deno.writeTextFile(`${dir}/README.txt`, "not a screen");
  return dir;
}

Deno.test("screenFiles: <state>-*.txt are screens, .ansi.txt are companions, others skipped", () => {
  const r = screenFiles([
    "prompt-1.txt",
    "prompt-1.ansi.txt",
    "busy-x.txt",
    "notes.txt",
    "weird-1.txt",
  ]);
  assert.deepEqual(r.screens, [
    { file: "busy-x.txt", state: "busy", styled: null },
    { file: "prompt-1.txt", state: "prompt", styled: "prompt-1.ansi.txt" },
  ]);
  assert.deepEqual(r.skipped, ["notes.txt", "weird-1.txt"]);
});

Deno.test("saveScreen numbers screens per state and never overwrites", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drover-save-" });
  try {
    const a = await saveScreen(`${dir}/new`, "busy", "one\n", "\x1b[1mone\x1b[0m\n");
    const b = await saveScreen(`${dir}/new`, "busy", "two\n", "two\n");
    const c = await saveScreen(`${dir}/new`, "idle", "three\n", "three\n");
    assert.equal(a.plain, `${dir}/new/busy-1.txt`);
    assert.equal(b.plain, `${dir}/new/busy-2.txt`);
    assert.equal(c.plain, `${dir}/new/idle-1.txt`);
    assert.equal(await Deno.readTextFile(a.styled), "\x1b[1mone\x1b[0m\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("profile test: real Codex screens pass with the shipped codex profile", async () => {
  const dir = await screenDir();
  try {
    const r = await drover(["profile", "test", "--cli", "codex", dir, "--json"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const env = JSON.parse(r.stdout);
    assert.equal(env.schema, "drover.profile-test.v1");
    assert.equal(env.data.mismatches, 0);
    assert.equal(env.data.screens.length, 7);
    assert.deepEqual(env.data.skipped, ["README.txt"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("profile test: a deliberately wrong marker is a mismatch naming the field", async () => {
  const dir = await screenDir();
  const cfg = `${dir}/config.toml`;
  // Codex's real question is "Would you like to run the following command?": this marker is wrong.
  await Deno.writeTextFile(
    cfg,
    `[clis.codex]\ncommand = "codex"\n\n[clis.codex.prompt_profile]\n` +
      `approval_markers = ["Would you like to delete the following file?"]\n`,
  );
  try {
    const r = await drover(["--config", cfg, "profile", "test", "--cli", "codex", dir]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /MISMATCH\s+prompt-1\.txt: expected prompt, detected dialog/);
    assert.match(r.stdout, /MISMATCH\s+prompt-2\.txt: expected prompt, detected dialog/);
    assert.match(
      r.stdout,
      /approval_markers = \["Would you like to delete the following file\?"\]\s+\(config /,
    );
    assert.match(r.stdout, /live_prompt_markers "Would you like to run the following command\?"/);
    assert.match(r.stdout, /ok\s+busy-1\.txt: busy/);
    assert.match(r.stdout, /2 of 7 screen\(s\) do not match/);

    const j = await drover(["--config", cfg, "--json", "profile", "test", "--cli", "codex", dir]);
    assert.equal(j.code, 1);
    const data = JSON.parse(j.stdout).data;
    assert.equal(data.mismatches, 2);
    const bad = data.screens.find((s: { file: string }) => s.file === "prompt-1.txt");
    assert.ok(bad.fields.includes("approval_markers"));
    assert.equal(bad.actual, "dialog");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("profile test: an empty or missing folder is a usage error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drover-empty-" });
  try {
    const r = await drover(["profile", "test", "--cli", "codex", dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no screens in .*prompt-1\.txt/);
    const m = await drover(["profile", "test", "--cli", "codex", `${dir}/nope`]);
    assert.equal(m.code, 2);
    assert.match(m.stderr, /cannot read screen folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
