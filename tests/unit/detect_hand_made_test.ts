/**
 * Hand-made variants of recorded real Claude Code screens (tests/fixtures/hand-made/claude-code/,
 * PROVENANCE.md names each source screen and edit): shapes real users' screens have that the lab
 * cannot produce — a custom status line instead of the footer while busy, a task list pushing the
 * busy line up, a reduced-motion spinner, a usage-limit menu with the upgrade first. The embedded
 * profile must judge them by shape, and the approve gate must refuse every one of them.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { toJudged } from "../../lib/approve/judge.ts";
import { gate } from "../../lib/approve/gate.ts";
import { gateWordsFor } from "../../lib/profile/gate_words.ts";

const DIR = new URL("../fixtures/hand-made/claude-code/", import.meta.url).pathname;

interface HandMade {
  file: string;
  scenario: string;
  state: string;
  source: string;
  edit: string;
  expect: Record<string, unknown>;
}

const manifest = JSON.parse(Deno.readTextFileSync(DIR + "manifest.json"));
const profile = resolveProfile("claude", EMPTY_CONFIG);
const words = gateWordsFor(profile);

Deno.test("the hand-made screens are labelled and derive from recorded ones", () => {
  assert.equal(manifest.hand_made, true);
  const prov = Deno.readTextFileSync(DIR + "PROVENANCE.md");
  assert.match(prov, /Hand-made, not recorded/);
  for (const s of manifest.screens as HandMade[]) {
    assert.ok(prov.includes(s.file), `${s.file} is not in PROVENANCE.md`);
    const source = new URL(`../fixtures/claude-code/${s.source}.txt`, import.meta.url);
    assert.ok(Deno.statSync(source).isFile, `${s.file}: source ${s.source} is not recorded`);
  }
});

for (const s of manifest.screens as HandMade[]) {
  Deno.test(`hand-made ${s.file}: ${s.state}`, () => {
    const plain = Deno.readTextFileSync(DIR + s.file);
    const v = detect({ plain }, profile);
    assert.equal(v.state, s.state, `state of ${s.file}`);
    assert.equal(v.permission_prompt, false, "never a permission prompt");
    for (const [k, want] of Object.entries(s.expect)) {
      assert.deepEqual((v as unknown as Record<string, unknown>)[k], want, `${k} of ${s.file}`);
    }
    const g = gate(toJudged(v, { plain }, words), words);
    assert.equal(g.ok, false, `the gate must refuse ${s.file}`);
  });
}
