/**
 * The POSIX-ERE export behaves like the source pattern: every exported field (and a set of extra
 * patterns covering the translation rules) is run over every line of every recorded fixture under
 * bash `[[ =~ ]]` and `grep -E`, and must agree with the JS matcher line by line.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { captureLines } from "../../lib/detect/text.ts";
import { FIELDS } from "../../lib/profile/fields.ts";
import { exportRows, liveOptionEre } from "../../lib/sweep/export.ts";
import { compilePattern, ereEscape, type Matcher, PatternError } from "../../lib/regex/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { shippedProfiles } from "../../lib/profile/embedded.ts";
import { stripDecoration } from "../../lib/detect/mod.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

function fixtureLines(): string[] {
  const set = new Set<string>();
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory) walk(p);
      else if (e.name.endsWith(".txt") && !e.name.endsWith(".ansi.txt")) {
        for (const l of captureLines(Deno.readTextFileSync(p))) set.add(l);
      }
    }
  };
  walk(FIXTURES.replace(/\/$/, ""));
  // Lines aimed at the translation rules, beside the real screens.
  for (
    const l of [
      "API ERROR · retrying in 3s",
      "  3. No, and tell Claude",
      "❯ 12) twelve",
      "x]y-z",
      "aXc",
      "tab\there",
      "ÉCOLE école",
      "abcD ABCd",
      "42% context used",
      "foofoobaz",
      "  ⠋ Thinking",
      "zé ë",
      "",
    ]
  ) set.add(l);
  return [...set];
}

const LINES = fixtureLines();

async function withLinesFile<T>(f: (path: string) => Promise<T>): Promise<T> {
  const path = await Deno.makeTempFile({ suffix: ".lines" });
  try {
    await Deno.writeTextFile(path, LINES.join("\n") + "\n");
    return await f(path);
  } finally {
    await Deno.remove(path);
  }
}

const ENV = { LC_ALL: "C.UTF-8", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };

async function bashVerdicts(file: string, ere: string, ci: boolean): Promise<boolean[]> {
  const script = `re=$1
[ "$2" = 1 ] && shopt -s nocasematch
[[ "" =~ $re ]]; [ $? -eq 2 ] && { echo "invalid regex" >&2; exit 3; }
while IFS= read -r line; do if [[ $line =~ $re ]]; then echo 1; else echo 0; fi; done < "$3"`;
  const out = await new Deno.Command("bash", {
    args: ["-c", script, "bash", ere, ci ? "1" : "0", file],
    env: ENV,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `bash rejected ERE ${ere}: ${err}`);
  return new TextDecoder().decode(out.stdout).trim().split("\n").map((x) => x === "1");
}

async function grepVerdicts(file: string, ere: string, ci: boolean): Promise<boolean[]> {
  const out = await new Deno.Command("grep", {
    args: ["-E", "-n", ...(ci ? ["-i"] : []), "-e", ere, file],
    env: ENV,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(
    out.code === 0 || out.code === 1,
    `grep rejected ERE ${ere}: ${new TextDecoder().decode(out.stderr)}`,
  );
  const hits = new Set(
    new TextDecoder().decode(out.stdout).split("\n").filter((l) => l).map((l) =>
      Number(l.split(":")[0]) - 1
    ),
  );
  return LINES.map((_, i) => hits.has(i));
}

async function assertParity(name: string, ere: string, ci: boolean, js: (line: string) => boolean) {
  await withLinesFile(async (file) => {
    const want = LINES.map(js);
    const viaBash = await bashVerdicts(file, ere, ci);
    const viaGrep = await grepVerdicts(file, ere, ci);
    for (let i = 0; i < LINES.length; i++) {
      assert.equal(
        viaBash[i],
        want[i],
        `${name}: bash [[ =~ ]] vs JS on ${JSON.stringify(LINES[i])} (ERE ${ere})`,
      );
      assert.equal(
        viaGrep[i],
        want[i],
        `${name}: grep -E vs JS on ${JSON.stringify(LINES[i])} (ERE ${ere})`,
      );
    }
    // Guard against a vacuous test: the real screens must exercise the field.
    if (
      !name.startsWith("extra") && name !== "context_bloat_pattern" &&
      name !== "option_line_pattern"
    ) {
      assert.ok(want.some((x) => x), `${name} matches no fixture line at all`);
    }
  });
}

const profile = resolveProfile("claude", EMPTY_CONFIG);
const rows = exportRows(profile);

for (const f of FIELDS) {
  const row = rows.find((r) => r.name === f.name)!;
  if (row.ere === "") continue;
  Deno.test(`ERE parity on every fixture line: ${f.name}`, async () => {
    let js: (l: string) => boolean;
    if (f.kind === "pattern") {
      const re = profile.matchers.patterns[f.name as "file_prompt_pattern"]!;
      js = (l) => re.test(l);
    } else {
      const ms = f.name === "broad_grant_marker"
        ? [...profile.matchers.broadGrant]
        : (profile.values[f.name] as string[]).map((m) => m.toLowerCase());
      js = (l) => ms.some((m) => l.toLowerCase().includes(m));
    }
    await assertParity(f.name, row.ere, row.case_insensitive, js);
  });
}

// Every other shipped profile's own fields, on the same lines (its fixtures are among them).
for (const shipped of shippedProfiles().filter((s) => !s.isDefault)) {
  const other = resolveProfile(shipped.clis[0], EMPTY_CONFIG);
  const otherRows = exportRows(other);
  for (const f of FIELDS) {
    if (other.sources[f.name].layer !== "shipped") continue;
    const row = otherRows.find((r) => r.name === f.name)!;
    if (row.ere === "") continue;
    Deno.test(`ERE parity on every fixture line: ${shipped.id} ${f.name}`, async () => {
      let js: (l: string) => boolean;
      if (f.kind === "pattern") {
        const re = (other.matchers.patterns as Record<string, Matcher | null>)[f.name]!;
        js = (l) => re.test(l);
      } else {
        const ms = f.name === "broad_grant_marker"
          ? [...other.matchers.broadGrant]
          : (other.values[f.name] as string[]).map((m) => m.toLowerCase());
        js = (l) => ms.some((m) => l.toLowerCase().includes(m));
      }
      await assertParity(`extra ${shipped.id} ${f.name}`, row.ere, row.case_insensitive, js);
    });
  }
}

Deno.test("ERE parity: the live gate's decorated option line", async () => {
  const re = profile.matchers.patterns.option_line_pattern;
  await assertParity(
    "_live_option_line",
    liveOptionEre(profile),
    false,
    (l) => re.test(stripDecoration(l)),
  );
});

const EXTRA = [
  "(?i)api error · retrying",
  "^\\s*[0-9]+[.)]\\s+\\w+",
  "\\d{2,3}% context used",
  "[^a-z ]{3,}",
  "(foo|bar)+baz",
  "[]x-]y",
  "a.c",
  "(?i:ab)c",
  "(?i)école",
  "\\t",
  "^$|^x",
  "❯ [0-9]",
  "[[:upper:]]{3}",
  "x*?y|z+?",
  "[⠀-⣿] ", // a non-ASCII range: glibc C.UTF-8 has no such ranges, so it is spelled out
  "[x-é]{2}",
];

for (const src of EXTRA) {
  Deno.test(`ERE parity on every fixture line: extra pattern ${src}`, async () => {
    let c;
    try {
      c = compilePattern(src);
    } catch (e) {
      if (e instanceof PatternError && src === "\\t") return; // control chars have no ERE form
      throw e;
    }
    await assertParity(`extra ${src}`, c.ere, false, (l) => c.matcher.test(l));
  });
}

Deno.test("ERE escaping of marker literals", () => {
  assert.equal(
    ereEscape("[y/N] (y/n) a.b*c+d?e{1}|^$\\"),
    "\\[y/N\\] \\(y/n\\) a\\.b\\*c\\+d\\?e\\{1\\}\\|\\^\\$\\\\",
  );
  assert.equal(ereEscape("❯ 1. yes"), "❯ 1\\. yes");
});

Deno.test("a pattern with no ERE form is an error, not a fallback", () => {
  for (const src of ["\\p{Lu}", "\\bx", "[\\D]x", "a{300}"]) {
    assert.throws(() => compilePattern(src), PatternError, src);
  }
});
