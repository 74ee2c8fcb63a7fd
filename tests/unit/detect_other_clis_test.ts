/**
 * Every recorded real screen of the non-Claude CLIs (tests/fixtures/{codex,gemini,qwen,opencode,copilot,cline})
 * judged by detect() with that CLI's shipped profile: the manifest's state and extra expectations
 * must hold. A fixture folder whose CLI has no shipped (verified) profile is judged with the Claude
 * default only to show it does NOT describe it, which is why it is not shipped.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { shippedFor } from "../../lib/profile/embedded.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const ROOT = new URL("../fixtures/", import.meta.url).pathname;

interface Screen {
  file: string;
  styled: string;
  state: string;
  expect?: Record<string, unknown>;
}

async function manifests(cli: string): Promise<{ dir: string; screens: Screen[] }[]> {
  const out: { dir: string; screens: Screen[] }[] = [];
  try {
    for await (const v of Deno.readDir(`${ROOT}${cli}`)) {
      if (!v.isDirectory) continue;
      const dir = `${ROOT}${cli}/${v.name}`;
      const m = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`));
      out.push({ dir, screens: m.screens });
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out;
}

for (const cli of ["codex", "gemini", "qwen", "opencode", "copilot", "cline"]) {
  Deno.test(`${cli}: every recorded screen gives its expected verdicts`, async (t) => {
    const sets = await manifests(cli);
    if (sets.length === 0 || !shippedFor(cli)) {
      // Not shipped: nothing to verify (docs/profiles.md "Verified CLIs" says why).
      return;
    }
    const profile = resolveProfile(cli, EMPTY_CONFIG);
    assert.equal(profile.shipped, cli);
    for (const { dir, screens } of sets) {
      for (const s of screens) {
        await t.step(s.file, async () => {
          const plain = await Deno.readTextFile(`${dir}/${s.file}`);
          const styled = await Deno.readTextFile(`${dir}/${s.styled}`);
          const v = detect({ plain, styled }, profile) as unknown as Record<string, unknown>;
          assert.equal(v.state, s.state, `${s.file}: state`);
          for (const [k, want] of Object.entries(s.expect ?? {})) {
            // "*" (the scenario tables' and the lab's): any value, not null/false/"".
            if (want === "*") {
              assert.ok(![null, undefined, false, ""].includes(v[k] as never), `${s.file}: ${k}`);
            } else assert.deepEqual(v[k], want, `${s.file}: ${k}`);
          }
        });
      }
    }
  });
}

Deno.test("the Claude default does not describe Codex or Gemini prompts (why they need profiles)", async () => {
  const claude = resolveProfile("claude", EMPTY_CONFIG);
  for (const [cli, file] of [["codex", "shell-prompt@120x40"], ["gemini", "shell-prompt@120x40"]]) {
    const [{ dir }] = await manifests(cli);
    const plain = await Deno.readTextFile(`${dir}/${file}.txt`);
    assert.notEqual(detect({ plain }, claude).state, "prompt", `${cli} ${file} under the default`);
  }
});

Deno.test("gemini/qwen busy footers say 'esc to cancel' and are busy, not a dialog", async () => {
  for (const cli of ["gemini", "qwen"]) {
    const [{ dir }] = await manifests(cli);
    const plain = await Deno.readTextFile(`${dir}/busy@80x24.txt`);
    assert.match(plain, /esc to cancel/);
    const own = detect({ plain }, resolveProfile(cli, EMPTY_CONFIG));
    assert.equal(own.state, "busy");
    assert.equal(own.live_prompt, false);
  }
});

// Issue 14: OpenCode 1.18.33 retrying a quota error writes the error across its busy footer and
// cuts "esc interrupt" off. Mutation caught: dropping the `!isBusyLine` guard in stuck.ts (the
// retry line then reads as cli_unavailable) or the profile's progress-bar mid_response_pattern
// (the screen is then not busy).
Deno.test("opencode: a retried quota error on the footer is busy, the given-up one is unavailable", async () => {
  const dir = `${ROOT}opencode/1.18.33`;
  const profile = resolveProfile("opencode", EMPTY_CONFIG);
  for (const size of ["120x40", "80x24"]) {
    const retrying = await Deno.readTextFile(`${dir}/quota-retrying@${size}.txt`);
    assert.doesNotMatch(retrying, /esc interrupt/, `${size}: the hint is cut off`);
    const busy = detect({ plain: retrying }, profile);
    assert.equal(busy.state, "busy", `${size}: retrying`);
    assert.equal(busy.cli_unavailable, null, `${size}: retrying is not unavailable`);
    const final = detect(
      { plain: await Deno.readTextFile(`${dir}/quota-final@${size}.txt`) },
      profile,
    );
    assert.equal(final.state, "unavailable", `${size}: given up`);
    assert.equal(final.mid_response, false, `${size}: given up`);
  }
});
