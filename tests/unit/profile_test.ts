import assert from "node:assert/strict";
import { EMPTY_CONFIG, parseConfig } from "../../lib/config/load.ts";
import { DroverError } from "../../lib/errors.ts";
import { FIELDS } from "../../lib/profile/fields.ts";
import { parseProfileFile, shippedProfiles } from "../../lib/profile/embedded.ts";
import { cliKey, judgedByDefault, resolveProfile } from "../../lib/profile/resolve.ts";
import { validateProfileTable } from "../../lib/profile/validate.ts";
import { detect } from "../../lib/detect/mod.ts";

Deno.test("the field table holds all 16 seed fields, cli_unavailable_markers included", () => {
  const seed = FIELDS.filter((f) => f.seed).map((f) => f.name);
  assert.equal(seed.length, 16);
  assert.ok(seed.includes("cli_unavailable_markers"));
});

Deno.test("the shipped Claude Code profile is the verified default and sets every seed field", () => {
  const [p] = shippedProfiles().filter((s) => s.isDefault);
  assert.equal(p.id, "claude-code");
  assert.ok(p.verified);
  assert.ok(p.clis.includes("claude"));
  assert.equal(p.provenance.cliVersion, "2.1.332");
  assert.deepEqual(p.provenance.verifiedVersions, ["2.1.197", "2.1.332"]);
  // Every verified version has its recorded fixtures.
  for (const v of p.provenance.verifiedVersions) {
    assert.ok(Deno.statSync(`${p.provenance.fixtures}/${v}/manifest.json`).isFile, v);
  }
  for (const f of FIELDS.filter((f) => f.seed)) assert.ok(p.values[f.name] !== undefined, f.name);
});

Deno.test("a CLI nobody knows resolves the full Claude default, never an empty profile", () => {
  const p = resolveProfile("mystery-agent --flag", EMPTY_CONFIG);
  assert.equal(p.cli, "mystery-agent");
  assert.equal(p.shipped, null);
  const claude = resolveProfile("claude", EMPTY_CONFIG);
  assert.deepEqual(p.values, claude.values);
  for (const f of FIELDS) {
    const s = p.sources[f.name];
    assert.ok(s.layer === "default" || s.layer === "unset", `${f.name}: ${s.layer}`);
  }
  assert.equal(claude.sources.approval_markers.layer, "shipped");
});

Deno.test("per-field resolution: a partial override keeps every other field", () => {
  const config = parseConfig(
    `[clis.my-agent]
command = "my-agent"
[clis.my-agent.prompt_profile]
approval_markers = ["proceed? (y/n)"]
broad_grant_marker = "remember this choice"
`,
    "/cfg.toml",
  );
  const p = resolveProfile("my-agent", config);
  assert.deepEqual(p.values.approval_markers, ["proceed? (y/n)"]);
  assert.deepEqual(p.sources.approval_markers, { layer: "config", file: "/cfg.toml", line: 4 });
  assert.equal(p.sources.broad_grant_marker.layer, "config");
  const d = resolveProfile("claude", EMPTY_CONFIG);
  assert.deepEqual(p.values.live_prompt_markers, d.values.live_prompt_markers);
  assert.equal(p.sources.live_prompt_markers.layer, "default");
  // The override is what the detectors read for this pane's CLI.
  const v = detect({ plain: "Proceed? (y/n)\n" }, p);
  assert.equal(v.approval, true);
  assert.equal(detect({ plain: "Proceed? (y/n)\n" }, d).approval, false);
  assert.equal(detect({ plain: "Do you want to proceed?\n" }, p).approval, false);
});

Deno.test("a configured CLI whose command is a shipped CLI gets that CLI's shipped layer", () => {
  const config = parseConfig(`[clis.work]\ncommand = "/opt/bin/claude --model opus"\n`, "/c.toml");
  assert.equal(resolveProfile("work", config).shipped, "claude-code");
  assert.equal(cliKey("  claude  --x"), "claude");
});

function issues(table: Record<string, unknown>): string[] {
  return validateProfileTable(table).issues.map((i) => `${i.path.join(".")}: ${i.reason}`);
}

Deno.test("hostile profiles are rejected: empty marker, unknown field, invalid regex, catch-alls", () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ approval_markers: [""] }, /approval_markers\.0: empty marker/],
    [{ approval_markers: [" \t"] }, /whitespace/],
    [{ approval_markers: ["a\nb"] }, /control character/],
    [{ approval_markers: [] }, /empty list/],
    [{ broad_grant_marker: "" }, /empty marker/],
    [{ approval_markerz: ["x"] }, /unknown field \(did you mean approval_markers\?\)/],
    [{ approval_markers: "do you" }, /must be an array of strings/],
    [{ file_prompt_pattern: "(" }, /does not compile/],
    [{ file_prompt_pattern: "(a)\\1" }, /back-references/],
    [{ file_prompt_pattern: "a(?=b)" }, /look-around/],
    [{ file_prompt_pattern: "(?<!a)b" }, /look-around/],
    [{ file_prompt_pattern: ".*" }, /matches the empty string/],
    [{ file_prompt_pattern: "^" }, /matches the empty string/],
    [{ file_prompt_pattern: "x?" }, /matches the empty string/],
    [{ file_prompt_pattern: "." }, /matches almost any line/],
    [{ file_prompt_pattern: "[^@]" }, /matches almost any line/],
    [{ file_prompt_pattern: "\\p{L}" }, /no POSIX ERE form/],
    [{ file_prompt_pattern: "\\bword\\b" }, /word-boundary/],
    [{ file_prompt_pattern: "a{,3}" }, /lower bound/],
    [{ file_prompt_pattern: "(?x)a" }, /unsupported flag 'x'/],
    [{ file_prompt_pattern: "a(?i)b" }, /only supported at the start/],
    [{ file_prompt_pattern: "[a&&b]" }, /set operation/],
    [{ file_prompt_pattern: "\\Qa\\E" }, /quoting/],
  ];
  for (const [table, want] of cases) {
    const got = issues(table);
    assert.equal(got.length, 1, `${JSON.stringify(table)} → ${JSON.stringify(got)}`);
    assert.match(got[0], want, JSON.stringify(table));
  }
});

Deno.test("Rust-regex syntax the JS engine spells differently is translated", () => {
  const ok = (src: string, line: string, want = true) => {
    const { profile, issues: is } = validateProfileTable({ file_prompt_pattern: src });
    assert.deepEqual(is, [], src);
    assert.equal(
      profile.patterns.file_prompt_pattern!.matcher.test(line),
      want,
      `${src} on ${line}`,
    );
  };
  ok("(?i)WRITE to (.+)", "write to x");
  ok("(?P<path>foo)\\.txt", "foo.txt");
  ok("\\Afoo", "foo bar");
  ok("\\Afoo", "a foo", false);
  ok("a\\#b", "a#b");
  ok("[[:digit:]]+ files", "3 files");
  ok("\\x{41}BC", "ABC");
  ok("[]a]x", "]x");
  ok("(?i:abc)D", "ABCD");
  ok("(?i:abc)D", "ABCd", false);
});

Deno.test("a broken shipped profile is reported with file:line: field: reason", () => {
  const text = `[profile]
id = "x"
name = "X"
clis = ["x"]
verified = true

[prompt_profile]
approval_markers = [""]
`;
  assert.throws(
    () => parseProfileFile("profiles/x.toml", text),
    (e: unknown) =>
      e instanceof DroverError && e.code === "PROFILE_INVALID" &&
      e.message.includes("profiles/x.toml:8: prompt_profile.approval_markers.0: empty marker"),
  );
});

Deno.test("verified_versions: a list of version strings; anything else is PROFILE_INVALID naming it", () => {
  const head = '[profile]\nid = "x"\nname = "X"\nclis = ["x"]\nverified = true\n';
  const ok = parseProfileFile("x.toml", head + 'verified_versions = ["1.0", "1.1"]\n');
  assert.deepEqual(ok.provenance.verifiedVersions, ["1.0", "1.1"]);
  const fallback = parseProfileFile("x.toml", head + 'cli_version = "2.0"\n');
  assert.deepEqual(fallback.provenance.verifiedVersions, ["2.0"]);
  for (const bad of ['"1.0"', "[]", "[1]", '[""]']) {
    assert.throws(
      () => parseProfileFile("x.toml", head + `verified_versions = ${bad}\n`),
      (e: unknown) =>
        e instanceof DroverError &&
        /x\.toml:6: profile\.verified_versions(\.0)?: must be a non-empty/.test(e.message),
      bad,
    );
  }
});

Deno.test("judgedByDefault: only a CLI nothing describes says the Claude default judged it (issue 27)", () => {
  for (
    const cli of [
      "claude",
      "claude-code",
      "codex",
      "gemini",
      "qwen",
      "opencode",
      "copilot",
      "cline",
    ]
  ) {
    assert.equal(judgedByDefault(cli, EMPTY_CONFIG), null, cli);
  }
  const note = judgedByDefault("aider", EMPTY_CONFIG) ?? "";
  assert.match(note, /^No profile describes aider: the embedded Claude Code default judged/);
  assert.match(note, /\[clis\.aider\.prompt_profile\]/);
  assert.match(note, /docs\/profiles\.md, "Authoring a profile for a new CLI"/);
  // A configured entry without a profile of its own is still judged by the default ...
  const bare = parseConfig(`[clis.aider]\ncommand = "aider"\n`, "/c.toml");
  assert.match(judgedByDefault("aider", bare) ?? "", /No profile describes aider/);
  // ... one field of its own is a profile (the rest falls back per field, by design).
  const own = parseConfig(
    `[clis.aider]\ncommand = "aider"\n[clis.aider.prompt_profile]\n` +
      `approval_markers = ["[y] approve"]\n`,
    "/c.toml",
  );
  assert.equal(judgedByDefault("aider", own), null);
});
