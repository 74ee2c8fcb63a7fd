/**
 * The field corpus (issue 21): the variant screens under tests/fixtures/field — recorded by the
 * lab, or hand-made from the wording users' real captures show — each named in an `expected.json`
 * beside it (`"<name>@<size>": {state, verdicts?, provenance}`), found by walking the tree.
 * Every screen is judged by detect() and summarize(), on its plain capture and (when recorded) its
 * styled one, with the profile of the CLI its top folder names. The rule of the unseen-screens
 * test applies: no non-prompt screen is ever judged a permission prompt, at least 98 % of the
 * state verdicts are right, and every verdict an entry lists is exactly what detect() says (the
 * ones a `panes` row shows, summarize() too).
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { type Capture, detect, type DetectOptions, summarize } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { RECORDED_CLIS as CLIS } from "../helpers/recorded.ts";

const FIELD = new URL("../fixtures/field/", import.meta.url).pathname;

interface Entry {
  state: string;
  verdicts?: Record<string, unknown>;
  provenance: Record<string, unknown>;
}

interface FieldScreen {
  /** Path under field/, without ".txt". */
  name: string;
  cli: string;
  captures: { form: "plain" | "styled"; capture: Capture }[];
  entry: Entry;
}

/** Every `expected.json` under `dir`, recursively, with the screens it names. */
function* expectedUnder(dir: string, rel: string): Generator<FieldScreen> {
  const entries = [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (e.isDirectory) yield* expectedUnder(`${dir}${e.name}/`, `${rel}${e.name}/`);
  }
  if (!entries.some((e) => e.isFile && e.name === "expected.json")) return;
  const top = rel.split("/")[0];
  const cli = CLIS[top];
  assert.ok(cli, `tests/fixtures/field/${top}: no CLI mapped for it in this test`);
  const table = JSON.parse(Deno.readTextFileSync(`${dir}expected.json`)) as Record<string, Entry>;
  for (const [name, entry] of Object.entries(table)) {
    assert.ok(entry.provenance, `${rel}${name}: expected.json gives no provenance`);
    const plain = Deno.readTextFileSync(`${dir}${name}.txt`);
    const captures: FieldScreen["captures"] = [{ form: "plain", capture: { plain } }];
    try {
      const styled = Deno.readTextFileSync(`${dir}${name}.ansi.txt`);
      captures.push({ form: "styled", capture: { plain, styled } });
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    yield { name: `${rel}${name}`, cli, captures, entry };
  }
}

/** The clock a screen is judged at: its provenance's capture time when it gives one. */
function optsOf(entry: Entry): DetectOptions {
  const at = entry.provenance.now ?? entry.provenance.captured_at;
  return typeof at === "string" && !Number.isNaN(Date.parse(at))
    ? { now: Date.parse(at), timeZone: "UTC" }
    : {};
}

/** The verdicts a `panes` row shows, which summarize() must give as detect() does. */
const SUMMARY_FIELDS = new Set(["state", "mode", "cli_version", "background"]);

Deno.test("field corpus: no false prompt, >= 98 % of states right, every listed verdict exact", () => {
  const screens = [...expectedUnder(FIELD, "")];
  assert.ok(screens.length > 0, "no expected.json under tests/fixtures/field");
  let judged = 0;
  let right = 0;
  const wrong: string[] = [];
  const falsePrompts: string[] = [];
  const verdictMisses: string[] = [];
  for (const sc of screens) {
    const profile = resolveProfile(sc.cli, EMPTY_CONFIG);
    const opts = optsOf(sc.entry);
    for (const { form, capture } of sc.captures) {
      const full = detect(capture, profile, opts);
      const row = summarize(capture, profile, opts);
      for (const [how, state] of [["detect", full.state], ["summarize", row.state]] as const) {
        judged++;
        if (state === sc.entry.state) right++;
        else wrong.push(`${sc.name} (${form}, ${how}): ${state}, expected ${sc.entry.state}`);
        if (state === "prompt" && sc.entry.state !== "prompt") {
          falsePrompts.push(`${sc.name} (${form}, ${how})`);
        }
      }
      if (full.permission_prompt && sc.entry.state !== "prompt") {
        falsePrompts.push(`${sc.name} (${form}, detect permission_prompt)`);
      }
      for (const [k, want] of Object.entries(sc.entry.verdicts ?? {})) {
        const got = (full as unknown as Record<string, unknown>)[k];
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          verdictMisses.push(
            `${sc.name} (${form}) ${k}: ${JSON.stringify(got)}, want ${JSON.stringify(want)}`,
          );
        }
        if (!SUMMARY_FIELDS.has(k)) continue;
        const gotRow = (row as unknown as Record<string, unknown>)[k];
        if (JSON.stringify(gotRow) !== JSON.stringify(want)) {
          verdictMisses.push(
            `${sc.name} (${form}) summarize ${k}: ${JSON.stringify(gotRow)}, want ${
              JSON.stringify(want)
            }`,
          );
        }
      }
    }
  }
  const pct = (100 * right) / judged;
  console.log(
    `field corpus: ${right}/${judged} state verdicts right (${pct.toFixed(1)} %) on ` +
      `${screens.length} screens; ${falsePrompts.length} false prompts; ` +
      `${verdictMisses.length} listed verdicts wrong`,
  );
  for (const w of wrong) console.log(`  wrong state: ${w}`);
  assert.deepEqual(falsePrompts, [], "non-prompt screens judged permission prompts");
  assert.deepEqual(verdictMisses, [], "listed verdicts that differ");
  assert.ok(pct >= 98, `only ${pct.toFixed(1)} % of state verdicts right:\n${wrong.join("\n")}`);
});
