/**
 * Issue 16, finding 1: a complete permission prompt printed where no prompt is live (agent output,
 * a tool result, a `cat` of a saved screen, streamed text, a plain shell) is never a live prompt.
 * The hand-made look-alikes (tests/fixtures/hand-made/lookalike/, spliced from real recorded
 * chrome) must be judged "no live prompt" by each CLI's own profile — while every REAL recorded
 * prompt of every CLI and version stays live (the fixture sweep below).
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { gate } from "../../lib/approve/gate.ts";
import { toJudged } from "../../lib/approve/judge.ts";
import { build, index, LOOKALIKE_DIR, lookalikes } from "../helpers/lookalikes.ts";
import { RECORDED_CLIS, recordedScreens } from "../helpers/recorded.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
const BUILT = lookalikes().map(build);

Deno.test("the committed look-alike files are exactly what tests/helpers/lookalikes.ts builds", async () => {
  for (const b of BUILT) {
    assert.equal(await Deno.readTextFile(`${FIXTURES}${b.rel}.txt`), b.plain, b.rel);
    assert.equal(await Deno.readTextFile(`${FIXTURES}${b.rel}.ansi.txt`), b.styled, b.rel);
  }
  assert.equal(await Deno.readTextFile(`${LOOKALIKE_DIR}index.json`), index(BUILT));
  const claude = new Set(BUILT.filter((b) => b.screen.cli === "claude").map((b) => b.screen.name));
  assert.ok(claude.size >= 6, `only ${claude.size} distinct Claude look-alike screens`);
  const provenance = await Deno.readTextFile(`${LOOKALIKE_DIR}PROVENANCE.md`);
  assert.match(provenance, /hand-made/i);
});

for (const b of BUILT) {
  const s = b.screen;
  Deno.test(`look-alike ${s.dir}/${s.name}@${s.size} is no live prompt (${s.shows})`, () => {
    const profile = resolveProfile(s.cli, EMPTY_CONFIG);
    const v = detect({ plain: b.plain, styled: b.styled }, profile);
    assert.equal(v.live_prompt, false, "live_prompt");
    assert.equal(v.permission_prompt, false, "permission_prompt");
    assert.ok(!["prompt", "dialog"].includes(v.state), `state ${v.state}`);
    assert.deepEqual(v.options, []);
    const g = gate(toJudged(v));
    assert.equal(g.ok, false);
    assert.equal(!g.ok && g.reason, "no-live-prompt");
  });

  Deno.test(`look-alike ${s.dir}/${s.name}@${s.size}: the same block with nothing below it IS a live prompt`, () => {
    // What makes the screen safe is what is drawn below the block, not a broken block.
    const profile = resolveProfile(s.cli, EMPTY_CONFIG);
    const cut = (t: string) => t.split("\n").slice(0, b.cut).join("\n") + "\n";
    const v = detect({ plain: cut(b.plain), styled: cut(b.styled) }, profile);
    assert.equal(v.live_prompt, true);
    assert.equal(v.permission_prompt, true);
  });
}

Deno.test("fixture sweep: every recorded prompt of every CLI and version stays a live permission prompt the gate answers", async () => {
  const all = await recordedScreens();
  const prompts = all.filter((r) => r.state === "prompt");
  const clis = new Set(prompts.map((r) => r.cli));
  assert.deepEqual(
    [...clis].sort(),
    Object.values(RECORDED_CLIS).sort(),
    "a CLI has no recorded prompt",
  );
  const wrong: string[] = [];
  for (const r of prompts) {
    const v = detect({ plain: r.plain, styled: r.styled }, resolveProfile(r.cli, EMPTY_CONFIG));
    const g = gate(toJudged(v));
    // A recorded prompt may be refused for its own reason (a broad grant, a first choice that is
    // no affirmative one-time choice) but never as "no live prompt".
    if (!v.live_prompt || !v.permission_prompt || (!g.ok && g.reason === "no-live-prompt")) {
      wrong.push(`${r.rel}: live=${v.live_prompt} permission=${v.permission_prompt}`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(prompts.length >= 30, `only ${prompts.length} recorded prompts`);
});

Deno.test("fixture sweep: every recorded dialog keeps its state; nothing recorded turns live that was not", async () => {
  const wrong: string[] = [];
  for (const r of await recordedScreens()) {
    const v = detect({ plain: r.plain, styled: r.styled }, resolveProfile(r.cli, EMPTY_CONFIG));
    if (v.state !== r.state) wrong.push(`${r.rel}: ${v.state}, recorded as ${r.state}`);
  }
  assert.deepEqual(wrong, []);
});
