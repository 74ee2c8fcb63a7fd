/** `drover skill` and `drover skill --install`: byte-exact text, the path reported, no silent overwrite. */
import assert from "node:assert/strict";
import { drover } from "../helpers/drover.ts";
import { SKILL_TEXT } from "../../lib/cli/skill.ts";

Deno.test("drover skill prints SKILL.md byte-exact", async () => {
  const r = await drover(["skill"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, SKILL_TEXT);
});

Deno.test("drover skill --install --dir D writes D/drover/SKILL.md; refuses a different file without --force", async () => {
  const d = await Deno.makeTempDir();
  try {
    const path = `${d}/drover/SKILL.md`;
    let r = await drover(["skill", "--install", "--dir", d, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).data.path, path);
    assert.equal(await Deno.readTextFile(path), SKILL_TEXT);

    r = await drover(["skill", "--install", "--dir", d]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /already current/);

    await Deno.writeTextFile(path, "my own edits\n");
    r = await drover(["skill", "--install", "--dir", d]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /exists with different content; pass --force/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    assert.equal(await Deno.readTextFile(path), "my own edits\n", "not overwritten");

    r = await drover(["skill", "--install", "--dir", d, "--force"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`wrote ${path}`));
    assert.equal(await Deno.readTextFile(path), SKILL_TEXT);

    r = await drover(["skill", "--install", "--cli", "nope"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--cli nope: no known skills folder.*pass --dir DIR/);

    // The default folder comes from HOME (a throwaway one here) and the named CLI.
    r = await drover(["skill", "--install", "--cli", "gemini"], { env: { HOME: d } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`wrote ${d}/\\.gemini/skills/drover/SKILL\\.md`));
    r = await drover(["skill", "--install"], { env: { HOME: d } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await Deno.readTextFile(`${d}/.claude/skills/drover/SKILL.md`), SKILL_TEXT);
  } finally {
    await Deno.remove(d, { recursive: true });
  }
});
