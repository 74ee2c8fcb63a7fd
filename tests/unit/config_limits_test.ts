/**
 * Configuration limits (issue 17): a file over 1 MiB, too many or too long markers are refused with
 * `file:line: field: reason`, exit 2 — and no reason echoes a large value.
 */
import assert from "node:assert/strict";
import { DroverError } from "../../lib/errors.ts";
import { loadConfig } from "../../lib/config/discover.ts";
import { CONFIG_MAX_BYTES, parseConfig } from "../../lib/config/load.ts";
import { PROFILE_LIMITS } from "../../lib/profile/schema.ts";

function configError(text: string): DroverError {
  try {
    parseConfig(text, "/x/config.toml");
  } catch (e) {
    assert.ok(e instanceof DroverError, String(e));
    assert.equal(e.code, "CONFIG_INVALID");
    assert.equal(e.exitCode, 2);
    return e;
  }
  throw new Error("expected CONFIG_INVALID");
}

const list = (n: number, f = (i: number) => `marker ${i}`) =>
  "[" + Array.from({ length: n }, (_, i) => JSON.stringify(f(i))).join(", ") + "]";

Deno.test("limits: markers per field, marker length, markers per profile", () => {
  const many = configError(
    `[clis.a.prompt_profile]\napproval_markers = ${list(PROFILE_LIMITS.markersPerField + 1)}\n`,
  );
  assert.match(
    many.message,
    /^\/x\/config\.toml:2: clis\.a\.prompt_profile\.approval_markers: too many markers; at most 64 per field$/,
  );
  const long = configError(
    `[clis.a.prompt_profile]\napproval_markers = ["ok", "${"x".repeat(5000)}"]\n`,
  );
  assert.match(
    long.message,
    /^\/x\/config\.toml:2: clis\.a\.prompt_profile\.approval_markers\[1\]: marker is 5000 characters long; at most 256 are allowed$/,
  );
  const fields = [
    "approval_markers",
    "readiness_markers",
    "live_prompt_markers",
    "mid_response_markers",
    "dialog_markers",
  ];
  const total = configError(
    "[clis.a.prompt_profile]\n" + fields.map((f) => `${f} = ${list(60)}`).join("\n") + "\n",
  );
  assert.match(total.message, /clis\.a\.prompt_profile: 300 markers in one profile; at most 256/);
  // At the limits everything is accepted.
  const ok = parseConfig(
    `[clis.a.prompt_profile]\napproval_markers = ${list(64, (i) => `${i}`.padEnd(256, "x"))}\n`,
    "/x/config.toml",
  );
  assert.equal(ok.clis.a.promptProfile.approval_markers?.length, 64);
});

Deno.test("limits: a configuration over 1 MiB is refused before it is parsed", async () => {
  const big = `# ${"x".repeat(CONFIG_MAX_BYTES)}\n`;
  assert.match(configError(big).message, /^\/x\/config\.toml:1: \(file\): larger than 1 MiB/);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/big.toml`, big);
    await assert.rejects(
      () => loadConfig({ path: `${dir}/big.toml` }),
      (e: unknown) =>
        e instanceof DroverError && e.code === "CONFIG_INVALID" &&
        /larger than 1 MiB/.test(e.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("limits: no reason echoes a huge value", () => {
  const huge = "y".repeat(200_000);
  for (
    const text of [
      `[clis.a]\nprompt = "${huge}"\n`,
      `[drive]\napprove = "${huge}"\n`,
      `[drive]\nnudge_every = "${huge}"\n`,
      `[clis.a.prompt_profile]\nfile_prompt_pattern = '(${huge}'\n`,
      `[clis.a.prompt_profile]\napproval_markers = ["${huge}"]\n`,
      `[clis.a.prompt_profile]\n${huge} = 1\n`,
    ]
  ) {
    const e = configError(text);
    assert.ok(e.message.length < 1000, `${e.message.length} chars: ${e.message.slice(0, 200)}`);
    assert.doesNotMatch(e.message, /y{100}/);
    assert.doesNotMatch(e.message, /\n\s+at /, "no stack");
  }
});
