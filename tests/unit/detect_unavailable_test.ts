/**
 * Issue 21, part B: where Claude Code says it cannot serve beyond its recorded banners, and the
 * status line that only looks like it. Every screen of the field corpus's `unavailable/` folders
 * (recorded from the real CLI) and of `hand-made-unavailable/` is judged, plain and styled, by the
 * embedded default profile against its expected.json; summarize() must agree on the state.
 *
 * Mutations caught (each verified by reverting it): the banner read at any position of its line
 * (auth-error-mentioned becomes unavailable), the banner without the newer-work check
 * (auth-banner-then-work), the status area read with the unavailable markers again
 * (statusline-words unavailable), the status area not excluded from the stream error or the shell
 * check (statusline-dollar-end), the limit menu read outside the live prompt (limit-menu-quoted),
 * the status limit's reset not counted from the capture time.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect, summarize } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const FIELD = new URL("../fixtures/field/claude-code/", import.meta.url).pathname;
const profile = resolveProfile("claude", EMPTY_CONFIG);
/** The capture time every screen is judged at (a status limit's reset counts from it). */
const NOW = Date.parse("2026-12-02T18:00:00Z");

interface Entry {
  state: string;
  verdicts: Record<string, unknown>;
  /** A relative reset the screen prints: limit_resets_at must be NOW plus it. */
  resets_in?: string;
}

function corpusDirs(): string[] {
  const out: string[] = [];
  for (const v of Deno.readDirSync(FIELD)) {
    if (!v.isDirectory) continue;
    if (v.name === "hand-made-unavailable") out.push(`${FIELD}${v.name}/`);
    else {
      try {
        Deno.statSync(`${FIELD}${v.name}/unavailable/expected.json`);
        out.push(`${FIELD}${v.name}/unavailable/`);
      } catch { /* a version with no such screens */ }
    }
  }
  return out.sort();
}

const RELATIVE: Record<string, number> = { "8m": 8 * 60_000 };

const dirs = corpusDirs();

Deno.test("the field corpus has recorded and hand-made unavailable screens", () => {
  assert.ok(dirs.some((d) => d.includes("/2.1.197/")), "no 2.1.197 recordings");
  assert.ok(dirs.some((d) => d.includes("/2.1.332/")), "no 2.1.332 recordings");
  assert.ok(dirs.some((d) => d.includes("hand-made")), "no hand-made screens");
});

for (const dir of dirs) {
  const expected = JSON.parse(Deno.readTextFileSync(`${dir}expected.json`)) as Record<
    string,
    Entry
  >;
  const label = dir.slice(FIELD.length);
  for (const [name, want] of Object.entries(expected)) {
    const plain = Deno.readTextFileSync(`${dir}${name}.txt`);
    let styled: string | undefined;
    try {
      styled = Deno.readTextFileSync(`${dir}${name}.ansi.txt`);
    } catch { /* hand-made: plain only */ }
    for (const form of styled === undefined ? ["plain"] : ["plain", "styled"]) {
      Deno.test(`field ${label}${name} (${form}): ${want.state}`, () => {
        const capture = form === "plain" ? { plain } : { plain, styled };
        const v = detect(capture, profile, { now: NOW, timeZone: "UTC" });
        const got = v as unknown as Record<string, unknown>;
        assert.equal(v.state, want.state, `state of ${name}`);
        for (const [k, x] of Object.entries(want.verdicts)) {
          assert.deepEqual(got[k], x, `${k} of ${name}`);
        }
        if (want.resets_in !== undefined) {
          const ms = RELATIVE[want.resets_in];
          assert.ok(ms !== undefined, `resets_in ${want.resets_in}: add it to RELATIVE`);
          assert.equal(v.limit_resets_at, new Date(NOW + ms).toISOString());
        }
        // A look-alike is never a permission prompt.
        if (want.state !== "prompt") assert.equal(v.permission_prompt, false);
        assert.equal(summarize(capture, profile).state, v.state, `summarize() of ${name}`);
      });
    }
  }
}

const ready = (above: string[], below: string[] = ["  ⏸ manual mode on · ? for shortcuts"]) =>
  [
    " ▐▛███▛█   Claude Code v2.1.332",
    "",
    ...above,
    "",
    "─".repeat(80),
    "❯ ",
    "─".repeat(80),
    ...below,
    "",
  ].join("\n");

Deno.test("the auth banner counts only as the last block, at the start of its line", () => {
  const banner = "● Please run /login · API Error: 401 OAuth token has expired.";
  const judge = (plain: string) => detect({ plain }, profile).state;
  assert.equal(judge(ready(["❯ say hello", "", banner])), "unavailable");
  // A turn summary under it is the CLI's own, not newer work.
  assert.equal(judge(ready(["❯ say hello", "", banner, "", "✻ Worked for 1s"])), "unavailable");
  // Newer work below: an answer, or a message typed since.
  assert.equal(judge(ready(["❯ say hello", "", banner, "", "● Hello!"])), "idle");
  assert.equal(judge(ready(["❯ say hello", "", banner, "", "❯ try again"])), "idle");
  // Mid-sentence, or typed by the user: not the CLI's.
  assert.equal(judge(ready(["● It said " + banner.slice(2)])), "idle");
  assert.equal(judge(ready(["❯ " + banner.slice(2)])), "idle");
  // A screen that ends in a shell prompt has no CLI to be unavailable.
  assert.equal(judge([banner, "user@host:~$ "].join("\n")), "shell");
});

Deno.test("the status area: only the declared limit is the CLI's, a shell below it is a shell", () => {
  const judge = (below: string[]) => detect({ plain: ready([], below) }, profile, { now: NOW });
  const limited = judge(["  ⚠ Limit reached (resets 1h 5m)"]);
  assert.equal(limited.state, "unavailable");
  assert.equal(limited.limit_resets_at, new Date(NOW + 65 * 60_000).toISOString());
  assert.equal(limited.cli_unavailable, "⚠ Limit reached (resets 1h 5m)");
  for (
    const words of ["  Usage limit reached", "  You've hit your limit", "  API Error: 500 · $"]
  ) {
    const v = judge([words]);
    assert.equal(v.state, "idle", words);
    assert.equal(v.stream_error, null, words);
  }
  // A line in column 0 under the box is no status line: a shell the CLI left behind.
  assert.equal(judge(["  ⏸ manual mode on", "user@host:~$ "]).state, "shell");
});
