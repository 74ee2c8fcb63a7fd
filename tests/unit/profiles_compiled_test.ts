/**
 * profiles/compiled.json — what every start reads instead of the TOML sources — must be exactly what
 * tools/gen_profiles.ts makes of the sources now, and its thawed matchers must match exactly what
 * the freshly compiled patterns match.
 */
import assert from "node:assert/strict";
import { COMPILED_PATH, compiledText } from "../../tools/gen_profiles.ts";
import { parseEmbeddedProfiles } from "../../lib/profile/embedded.ts";
import { shippedProfiles } from "../../lib/profile/shipped.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

Deno.test("profiles/compiled.json is up to date with profiles/*.toml (run `deno task profiles`)", async () => {
  const committed = JSON.parse(await Deno.readTextFile(COMPILED_PATH));
  assert.deepEqual(
    committed,
    JSON.parse(compiledText()),
    "profiles/compiled.json is stale: run `deno task profiles` and commit the result",
  );
});

async function fixtureLines(): Promise<string[]> {
  const out = new Set<string>();
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory) await walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".txt") && !e.name.endsWith(".ansi.txt")) {
        for (const l of (await Deno.readTextFile(`${dir}/${e.name}`)).split("\n")) out.add(l);
      }
    }
  };
  await walk(FIXTURES.replace(/\/$/, ""));
  return [...out];
}

Deno.test("thawed shipped profiles equal the parsed sources, and match what they match", async () => {
  const fresh = parseEmbeddedProfiles();
  const thawed = shippedProfiles();
  assert.equal(thawed.length, fresh.length);
  const lines = await fixtureLines();
  assert.ok(lines.length > 1000, `only ${lines.length} fixture lines`);
  for (const [i, f] of fresh.entries()) {
    const t = thawed[i];
    const { patterns: _a, ...fMeta } = f;
    const { patterns: _b, ...tMeta } = { ...t, patterns: null };
    assert.deepEqual(tMeta, fMeta, f.id);
    assert.deepEqual(Object.keys(t.patterns).sort(), Object.keys(f.patterns).sort(), f.id);
    for (const [name, c] of Object.entries(f.patterns)) {
      const tc = t.patterns[name as keyof typeof t.patterns]!;
      assert.equal(tc.ere, c.ere, `${f.id}.${name}`);
      assert.deepEqual(tc.ereAlternatives, c.ereAlternatives, `${f.id}.${name}`);
      for (const l of lines) {
        assert.deepEqual(tc.matcher.exec(l), c.matcher.exec(l), `${f.id}.${name} on ${l}`);
      }
    }
  }
});
