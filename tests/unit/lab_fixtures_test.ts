// The lab's fixture comparison: volatile parts of real screens normalise away, a real change in a
// state-defining line shows as a short readable diff. Runs on the recorded Claude Code fixtures.
import assert from "node:assert/strict";
import {
  compareDefining,
  definingLines,
  fixtureDir,
  type Manifest,
  normalise,
  provenance,
  readManifest,
} from "../lab/harness/fixtures.ts";

Deno.test("normalise() hides timers, token counts, spinner verbs, temp paths, ports", () => {
  assert.equal(
    normalise("✢ Tomfoolering… (2s · ↓ 2 tokens)   "),
    normalise("* Waddling… (1m 6s · ↓ 210 tokens)"),
  );
  assert.equal(normalise("✻ Churned for 0s"), normalise("✻ Churned for 12s"));
  assert.equal(
    normalise("  ▘▘ ▝▝    /tmp/drover-cc-69ed3054bed0f0d5/project"),
    normalise("  ▘▘ ▝▝    /tmp/drover-cc-ff2e295fd1659ee/project"),
  );
  assert.equal(
    normalise("✻ API error · Retrying in 0s · attempt 1/10"),
    normalise("✻ API error · Retrying in 6s · attempt 5/10"),
  );
  assert.equal(
    normalise("inference gateway (127.0.0.1:34075)."),
    normalise("inference gateway (127.0.0.1:1234)."),
  );
  assert.equal(
    normalise("  ? for shortcuts · ← for agents                              ● high · /effort"),
    normalise("  ? for shortcuts · ← for agents"),
  );
  // Meaningful text survives.
  assert.notEqual(normalise(" ❯ 1. Yes"), normalise(" ❯ 2. Yes"));
  assert.notEqual(normalise("84% context used"), normalise("Do you want to proceed?"));
});

Deno.test("compareDefining(): same state lines pass, changed wording is a readable diff", () => {
  const fixture = [
    " Do you want to proceed?",
    " ❯ 1. Yes",
    "   2. Yes, and don’t ask again for: npm run *",
    "   3. No",
    "✻ Churned for 2s",
  ].join("\n");
  const same = fixture.replace("2s", "9s");
  const defining = ["Do you want to proceed?", "don’t ask again"];
  assert.deepEqual(compareDefining(fixture, same, defining).ok, true);
  const changed = fixture.replace(
    "don’t ask again for: npm run *",
    "don’t ask again for npm commands",
  );
  const cmp = compareDefining(fixture, changed, defining);
  assert.equal(cmp.ok, false);
  assert.match(
    cmp.diff,
    /- +2\. Yes, and don’t ask again for: npm run \*\n +\+ +2\. Yes, and don’t ask again for npm commands/,
  );
  const gone = compareDefining(
    fixture,
    changed.replace("don’t ask again", "always allow"),
    defining,
  );
  assert.match(gone.diff, /missing on the fresh screen: "don’t ask again"/);
  const moved = compareDefining(fixture, fixture.replace("Do you want", "Shall we"), ["proceed?"]);
  assert.equal(moved.ok, false);
  assert.match(moved.diff, /- +Do you want to proceed\?\n +\+ +Shall we to proceed\?/);
});

Deno.test("definingLines() keeps screen order", () => {
  assert.deepEqual(definingLines("a x\nb\nc y\n", ["y", "x"]), ["a x", "c y"]);
});

Deno.test("recorded Claude Code fixtures: manifest entries exist, name their state, match themselves", async () => {
  const dir = fixtureDir("claude-code", "2.1.197");
  const m = await readManifest(dir);
  if (!m) return; // not recorded in this checkout
  const states = new Set(["prompt", "dialog", "busy", "idle", "shell", "unavailable", "unknown"]);
  assert.ok(m.screens.length >= 50, `expected ≥ 25 screens × 2 sizes, got ${m.screens.length}`);
  for (const e of m.screens) {
    assert.ok(states.has(e.state), `${e.file}: state ${e.state}`);
    assert.match(e.file, /^[a-z0-9-]+@\d+x\d+\.txt$/);
    const plain = await Deno.readTextFile(`${dir}/${e.file}`);
    await Deno.stat(`${dir}/${e.styled}`);
    for (const d of e.defining) {
      assert.ok(plain.includes(d), `${e.file} lacks ${JSON.stringify(d)}`);
    }
    assert.ok(compareDefining(plain, plain, e.defining).ok);
  }
  const text = provenance(m as Manifest);
  assert.match(text, /capture-pane -p -J/);
  assert.match(text, /capture-pane -p -e -J/);
});
