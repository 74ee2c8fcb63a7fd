// The lab's fixture comparison: volatile parts of real screens normalise away, a real change in a
// state-defining line shows as a short readable diff. Runs on every recorded fixture folder.
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
import { REPO_ROOT } from "../lab/harness/clis.ts";
import { stripAnsi } from "../../lib/detect/text.ts";

Deno.test("normalise() hides timers, token counts, spinner verbs, temp paths, ports", () => {
  assert.equal(
    normalise("✢ Tomfoolering… (2s · ↓ 2 tokens)   "),
    normalise("* Waddling… (1m 6s · ↓ 210 tokens)"),
  );
  assert.equal(normalise("✻ Churned for 0s"), normalise("✻ Churned for 12s"));
  // Qwen Code 0.15.10's random busy phrase, also when a long one squeezes out the spinner's gap
  // (seen at 80x24 in a lab run).
  assert.equal(
    normalise("  ⠋Why don't programmers like nature? It has too many bugs. (12s · esc to cancel)"),
    normalise("  ⠧ What's a computer's favorite snack? Microchips. (1s · esc to cancel)"),
  );
  assert.notEqual(
    normalise("  ⠋ Thinking (1s · esc to cancel)"),
    normalise("  ⠋ Thinking (1s · esc to interrupt)"),
  );

  // A fixed activity of several words: the glyph animates, the words are the state.
  assert.equal(
    normalise("✽ Compacting conversation… (3s · ↓ 5 tokens)"),
    normalise("· Compacting conversation… (4s · ↓ 9 tokens)"),
  );
  assert.notEqual(
    normalise("* Compacting conversation…"),
    normalise("* Summarising conversation…"),
  );
  assert.equal(
    normalise("  ▘▘ ▝▝    /tmp/drover-cc-69ed3054bed0f0d5/project"),
    normalise("  ▘▘ ▝▝    /tmp/drover-cc-ff2e295fd1659ee/project"),
  );
  // Copilot CLI 1.0.102: its spinner circles, its jittered retry wait, its scrollbar thumb.
  assert.equal(
    normalise("  ○ Working esc esc edit prompt  standin-model"),
    normalise("  ◎ Working esc esc edit prompt  standin-model"),
  );
  assert.equal(
    normalise("  ● Working esc esc edit prompt  standin-model"),
    normalise("  ◎ Working esc esc edit prompt  standin-model"),
  );
  assert.equal(
    normalise("retried 5 times (total retry wait time: 5.18 seconds) Last error: 429"),
    normalise("retried 5 times (total retry wait time: 5.41 seconds) Last error: 429"),
  );
  assert.equal(normalise("  Nothing is waiting now.  ┃"), normalise("  Nothing is waiting now."));
  assert.notEqual(normalise("  ◎ Working"), normalise("  ◎ Thinking"));
  const retry = "  ● Request failed due to a transient API error. Retrying...";
  assert.deepEqual(
    definingLines(`${retry}\n${retry}`, ["Retrying"]),
    definingLines(retry, ["Retrying"]),
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
  // 2.1.332 drops the agents hint and its effort hint between frames.
  assert.equal(
    normalise("  ⏸ manual mode on · esc to interrupt · ← for agents        ◐ medium · /effort"),
    normalise("  ⏸ manual mode on · esc to interrupt"),
  );
  assert.notEqual(
    normalise("  ⏸ manual mode on · esc to interrupt"),
    normalise("  ⏸ manual mode on · ? for shortcuts"),
  );
  assert.equal(
    normalise("  ⏵⏵ bypass permissions on (shift+tab to cycle)"),
    normalise("  ⏵⏵ bypass permissions on"),
  );
  assert.equal(
    normalise("  ✕ [API Error: 429 You exceeded your current quota  █"),
    normalise("  ✕ [API Error: 429 You exceeded your current quota"),
  );
  assert.equal(
    normalise("  Blocked by auto mode policy: The lab stand-in blocks this action.  │"),
    normalise("  Blocked by auto mode policy: The lab stand-in blocks this action."),
  );
  // A reset days ahead prints the date of the day the lab ran plus those days.
  assert.equal(
    normalise("  ⎿  You've hit your weekly limit · resets Dec 4, 5:12am (Asia/Colombo)"),
    normalise("  ⎿  You've hit your weekly limit · resets Jan 1, 12:13am (Asia/Colombo)"),
  );
  assert.equal(normalise("at Dec 4th, 2026 4:38 AM."), normalise("at Jan 2nd, 2027 11:05 PM."));
  assert.notEqual(
    normalise("resets Dec 4, 5:12am (Asia/Colombo)"),
    normalise("resets Dec 4, 5:12am (UTC)"),
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

/** Every recorded fixture folder: what is on disk under tests/fixtures/<cli>/<version>/, plus
 * every folder a profile names as its verification (`fixtures = …`), which must exist.
 * tests/fixtures/hand-made/ is no recording: its screens say so in their own PROVENANCE.md and
 * index, and the tests that build them check them. tests/fixtures/unseen/ holds the held-out
 * screens (tests/unit/unseen_screens_test.ts). tests/fixtures/field/ is the field corpus (issue 21): its
 * screens carry their provenance and verdicts in each folder's expected.json. */
async function fixtureFolders(): Promise<string[]> {
  const root = `${REPO_ROOT}/tests/fixtures`;
  const dirs = new Set<string>();
  for await (const cli of Deno.readDir(root)) {
    // unseen/: held-out recordings, one level deeper; tests/unit/unseen_screens_test.ts checks them.
    if (
      !cli.isDirectory || cli.name === "hand-made" || cli.name === "unseen" || cli.name === "field"
    ) {
      continue;
    }
    for await (const v of Deno.readDir(`${root}/${cli.name}`)) {
      if (v.isDirectory) dirs.add(`${cli.name}/${v.name}`);
    }
  }
  for await (const f of Deno.readDir(`${REPO_ROOT}/profiles`)) {
    if (!f.name.endsWith(".toml")) continue;
    const toml = await Deno.readTextFile(`${REPO_ROOT}/profiles/${f.name}`);
    for (const m of toml.matchAll(/^fixtures\s*=\s*"tests\/fixtures\/([^"]+)"/gm)) {
      const named = m[1].replace(/\/+$/, "");
      if (named.includes("/")) {
        dirs.add(named);
        continue;
      }
      // A profile verified on several versions names its CLI's folder: every version in its
      // verified_versions must have its own recorded folder.
      const vv = /^verified_versions\s*=\s*\[([^\]]*)\]/m.exec(toml);
      assert.ok(vv, `profiles/${f.name}: fixtures names ${named}/ but no verified_versions`);
      for (const v of vv[1].matchAll(/"([^"]+)"/g)) dirs.add(`${named}/${v[1]}`);
    }
  }
  return [...dirs].sort();
}

// Mutations this catches (each verified to fail the test):
// - a fixture folder without manifest.json (it used to pass silently: `if (!m) return`), also for
//   a folder a profile names but that is missing;
// - a styled capture whose state-defining lines differ from its plain capture (it used to compare
//   the plain fixture with itself, which can never fail);
// - a recorded screen left out of the manifest.
Deno.test("recorded fixtures, every CLI and version: manifest present and complete, plain and styled agree", async () => {
  const states = new Set(["prompt", "dialog", "busy", "idle", "shell", "unavailable", "unknown"]);
  const folders = await fixtureFolders();
  assert.ok(folders.length >= 5, `expected the five CLIs' fixtures, got ${folders.join(", ")}`);
  for (const rel of folders) {
    const [cli, version] = rel.split("/");
    const dir = fixtureDir(cli, version);
    const m = await readManifest(dir);
    assert.ok(
      m,
      `${rel}: no manifest.json (a fixture folder must say how each screen was recorded)`,
    );
    assert.equal(m.version, version, `${rel}: manifest version`);
    assert.ok(m.screens.length >= 2, `${rel}: only ${m.screens.length} screens`);
    const listed = new Set<string>();
    for (const e of m.screens) {
      assert.ok(states.has(e.state), `${rel}/${e.file}: state ${e.state}`);
      assert.match(e.file, /^[a-z0-9-]+@\d+x\d+\.txt$/);
      assert.equal(
        e.styled,
        e.file.replace(/\.txt$/, ".ansi.txt"),
        `${rel}/${e.file}: styled name`,
      );
      listed.add(e.file).add(e.styled);
      const plain = await Deno.readTextFile(`${dir}/${e.file}`);
      const styled = await Deno.readTextFile(`${dir}/${e.styled}`);
      assert.ok(e.defining.length > 0, `${rel}/${e.file}: no state-defining lines`);
      for (const d of e.defining) {
        assert.ok(plain.includes(d), `${rel}/${e.file} lacks ${JSON.stringify(d)}`);
      }
      // The two captures of one screen (plain -J and styled -e -J) show the same defining lines.
      const cmp = compareDefining(plain, stripAnsi(styled), e.defining);
      assert.ok(cmp.ok, `${rel}/${e.styled} disagrees with ${e.file}:\n${cmp.diff}`);
    }
    for await (const f of Deno.readDir(dir)) {
      if (f.name.endsWith(".txt")) {
        assert.ok(listed.has(f.name), `${rel}/${f.name} is not in the manifest`);
      }
    }
    const text = provenance(m as Manifest);
    assert.match(text, /capture-pane -p -J/);
    assert.match(text, /capture-pane -p -e -J/);
  }
});
