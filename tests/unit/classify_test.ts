/**
 * `drover __classify`'s judgement (lib/drive/classify.ts): drive's decision for an agent pane on
 * one capture, and the one versioned line sweep.sh reads. Recorded screens (styled, as drive
 * captures them).
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { stripAnsi } from "../../lib/detect/text.ts";
import { classifyCapture, classifyLine } from "../../lib/drive/classify.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { CLASSIFY } from "../../lib/contracts/classify.ts";
import { drover } from "../helpers/drover.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

async function judge(cli: string, rel: string, allow: string[]) {
  const styled = await Deno.readTextFile(`${FIXTURES}${rel}.ansi.txt`);
  const plain = stripAnsi(styled);
  const c = classifyCapture(
    detect({ plain, styled }, resolveProfile(cli, EMPTY_CONFIG)),
    plain,
    allow,
  );
  return { c, line: classifyLine(c), fields: classifyLine(c).split("\t") };
}

Deno.test("classify: the line has 7 tab-separated fields, none empty, versioned", async () => {
  for (
    const [cli, rel] of [
      ["claude", "claude-code/2.1.197/bash-prompt-npm@120x40"],
      ["claude", "claude-code/2.1.197/ready@120x40"],
      ["claude", "claude-code/2.1.197/trust-dialog@120x40"],
      ["opencode", "opencode/1.18.33/shell-prompt-rm@120x40"],
    ]
  ) {
    const { line, fields } = await judge(cli, rel, ["npm run build"]);
    assert.equal(fields.length, 7, line);
    assert.equal(fields[0], "drover-classify/1");
    assert.ok(fields.every((f) => f !== "" && !/[\n\r]/.test(f)), line);
  }
});

Deno.test("classify: approvals carry option 1, its key and the allowlist entries", async () => {
  const npm = await judge("claude", "claude-code/2.1.197/bash-prompt-npm@120x40", [
    "npm run build",
    "npm run build",
  ]);
  assert.deepEqual(npm.fields.slice(1), ["approve", "allowlisted", "1", "1", "-", "npm run build"]);
  // OpenCode's un-numbered row: Enter, because the styled capture shows "Allow once" selected.
  const oc = await judge("opencode", "opencode/1.18.33/shell-prompt@120x40", ["touch"]);
  assert.deepEqual(oc.fields.slice(1), ["approve", "allowlisted", "1", "Enter", "-", "touch"]);
  // The same screen without its styles shows nothing selected: the gate refuses.
  const plain = await Deno.readTextFile(`${FIXTURES}opencode/1.18.33/shell-prompt@120x40.txt`);
  const bare = classifyCapture(
    detect({ plain }, resolveProfile("opencode", EMPTY_CONFIG)),
    plain,
    ["touch"],
  );
  assert.equal(classifyLine(bare).split("\t").slice(1, 3).join(" "), "refuse no-option-1");
});

// Mutation caught (verified): planPane judging "the command does not stand alone" before the
// danger rules — Gemini's boxed prompt shows its command on more lines, and `rm -rf build` then
// read as merely not allowlisted.
Deno.test("classify: a dangerous command is escalated as danger on every CLI's real prompt, allowlisted or not", async () => {
  for (
    const [cli, rel] of [
      ["codex", "codex/0.171.0/shell-prompt-rm@120x40"],
      ["gemini", "gemini/0.61.0/shell-prompt-rm@120x40"],
      ["gemini", "gemini/0.61.0/shell-prompt-rm@80x24"],
      ["qwen", "qwen/0.15.10/shell-prompt-rm@120x40"],
      ["opencode", "opencode/1.18.33/shell-prompt-rm@120x40"],
    ]
  ) {
    const { fields, line } = await judge(cli, rel, ["rm"]);
    assert.deepEqual(
      fields.slice(1, 6),
      ["escalate", "danger", "-", "-", "recursive-delete"],
      line,
    );
  }
});

Deno.test("classify: dialogs, unavailable CLIs and screens with no live prompt", async () => {
  const d = await judge("claude", "claude-code/2.1.197/trust-dialog@120x40", []);
  assert.deepEqual(d.fields.slice(1, 3), ["refuse", "dialog"]);
  const u = await judge("claude", "claude-code/2.1.197/credit-400@120x40", []);
  assert.deepEqual(u.fields.slice(1, 3), ["escalate", "cli-unavailable"]);
  assert.match(u.fields[6], /Credit balance too low/);
  const r = await judge("claude", "claude-code/2.1.197/ready@120x40", []);
  assert.deepEqual(r.fields.slice(1), ["no-op", "not-live", "-", "-", "-", "nothing"]);
  const t = await judge("claude", "claude-code/2.1.197/typed-input@120x40", []);
  assert.deepEqual(t.fields.slice(1), ["no-op", "not-live", "-", "-", "-", "submit"]);
  const n = await judge("claude", "claude-code/2.1.197/bash-prompt-npm@120x40", []);
  assert.deepEqual(n.fields.slice(1, 3), ["escalate", "not-allowlisted"]);
});

Deno.test("classify: a field never holds a tab or a newline", () => {
  const line = classifyLine({
    verb: "escalate",
    reason: "not-allowlisted",
    detail: "a\tb\nc\r\nd",
    command: null,
  });
  assert.equal(line, "drover-classify/1\tescalate\tnot-allowlisted\t-\t-\t-\ta b c d");
});

Deno.test("classify: drover __classify --json prints an envelope its contract accepts", async () => {
  const styled = await Deno.readTextFile(
    `${FIXTURES}opencode/1.18.33/shell-prompt@120x40.ansi.txt`,
  );
  const r = await drover(["--json", "__classify", "--cli", "opencode", "--allow", "touch"], {
    stdin: styled,
  });
  assert.equal(r.code, 0, r.stderr);
  const env = CLASSIFY.schema.parse(JSON.parse(r.stdout)) as { data: { line: string } };
  assert.equal(env.data.line, "drover-classify/1\tapprove\tallowlisted\t1\tEnter\t-\ttouch");
  const plain = await drover(["__classify", "--cli", "opencode", "--allow", "touch"], {
    stdin: styled,
  });
  assert.equal(plain.stdout, env.data.line + "\n");
});

// Issue 25: `node -e …` on the real Claude Code prompts, with `node -e` (and `node`) allowlisted,
// was approved; it escalates as opaque, the form in the RULE field, on both versions.
Deno.test("classify: inline code on a real prompt escalates as opaque, whatever prefix is allowlisted", async () => {
  for (const v of ["2.1.197", "2.1.332"]) {
    const { fields, line } = await judge("claude", `claude-code/${v}/bash-prompt@120x40`, [
      "node -e",
      "node",
    ]);
    assert.deepEqual(fields.slice(1, 6), ["escalate", "opaque", "-", "-", "node -e"], line);
    assert.match(fields[6], /^node -e console\.log\('build check ok: 3 files'\)$/, line);
    // an entry equal to the whole command approves it
    const whole = await judge("claude", `claude-code/${v}/bash-prompt@120x40`, [
      `node -e "console.log('build check ok: 3 files')"`,
    ]);
    assert.deepEqual(whole.fields.slice(1, 3), ["approve", "allowlisted"], whole.line);
  }
});
