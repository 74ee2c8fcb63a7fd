/**
 * The one safety rule for profile patterns (lib/regex/safety.ts): what it refuses, with which
 * reason, and that everything drover ships (and ordinary patterns an author would write) passes.
 */
import assert from "node:assert/strict";
import { parseConfig } from "../../lib/config/load.ts";
import { shippedProfiles } from "../../lib/profile/embedded.ts";
import {
  compilePattern,
  MAX_EXPANDED,
  MAX_GROUPS,
  MAX_PATTERN_LENGTH,
  MAX_REPEAT,
  MAX_UNBOUNDED,
  MAX_VARIABLE,
  PatternError,
} from "../../lib/regex/mod.ts";

function reason(src: string): string {
  try {
    compilePattern(src);
  } catch (e) {
    if (e instanceof PatternError) return e.message;
    throw e;
  }
  return "accepted";
}

const REFUSED: Array<[string, RegExp]> = [
  // The patterns: catastrophic in V8, bash and grep.
  ["(.*){17}z", /can match the empty string \(at "\(\.\*\)\{17\}"\)/],
  ["(.*){1,100}[bc]", /can match the empty string/],
  ["(?:.*){1,50}z", /can match the empty string/],
  ["(a+)+$", /variable-length repetition nested in a repeated group .*at "a\+"/],
  ["(a*)*", /can match the empty string/],
  // Nullable bodies under any repetition, `?` included (engines also disagree on captures there).
  ["(a?)+b", /can match the empty string/],
  ["(a|)+b", /can match the empty string/],
  ["(a*)?b", /can match the empty string/],
  ["(?:^)*x", /can match the empty string/],
  // Nested variable repetition with nothing inside the group to close it.
  ["(a{1,2})+b", /nested in a repeated group/],
  ["(?:a.*b)+c", /nested in a repeated group/],
  ["(x+x+)+y", /nested in a repeated group/],
  ["(?:\\d+){2}", /nested in a repeated group/],
  ["((?:a|aa)+)+$", /repeated group/],
  // Overlapping alternatives under repetition.
  ["(a|a)*x", /alternatives in a repeated group start with the same character \(at "\(a\|a\)"\)/],
  ["(a|ab)*c", /alternatives in a repeated group/],
  ["(?:ab|ac){2}x", /alternatives in a repeated group/],
  ["(?i)(?:a|A)+x", /alternatives in a repeated group/],
  ["(?:\\d|[0-9a])+x", /alternatives in a repeated group/],
  // Sizes.
  ["a{256}", new RegExp(`count above ${MAX_REPEAT}`)],
  ["a{0,300}", new RegExp(`count above ${MAX_REPEAT}`)],
  ["(?:abcd){251}", new RegExp(`at most ${MAX_EXPANDED}\\)`)],
  ["(?:ab|cd){1,255}x", new RegExp(`at most ${MAX_EXPANDED}\\)`)],
  ["x.{0,17}", new RegExp(`open positions: 17 \\(at most ${MAX_VARIABLE}`)],
  ["x(?:a?b){17}", /open positions: 17 /],
  ["x" + "(a)".repeat(MAX_GROUPS + 1), new RegExp(`too many groups: ${MAX_GROUPS + 1}`)],
  ["x" + "a+b".repeat(MAX_UNBOUNDED + 1), /too many unbounded repetitions \(\*, \+, \{n,\}\): 9 /],
  ["x".repeat(MAX_PATTERN_LENGTH + 1), new RegExp(`too long: ${MAX_PATTERN_LENGTH + 1}`)],
  ["a|".repeat(15_000) + "b", /too long/],
  // Match-all: negated and POSIX classes, dot, complementary alternatives.
  ["[^x]", /matches almost any line/],
  ["[[:print:]]", /matches almost any line/],
  ["[ -~]", /matches almost any line/],
  [".", /matches almost any line/],
  ["\\S|\\s", /matches almost any line/],
  ["[\\s\\S]", /matches almost any line/],
  ["\\w|\\W", /matches almost any line/],
  ["[[:graph:]]|\\s", /matches almost any line/],
  ["^.", /matches almost any line/],
  [".$", /matches almost any line/],
  ["(?i)[a-z]", /matches almost any line/],
  ["[^a-z]", /matches almost any line/],
  ["x|.", /matches almost any line/],
  ["(?s).+", /matches almost any line/],
  // Lone surrogates, however they are written.
  ["\\uD83D", /lone surrogate U\+D83D/],
  ["\\x{D83D}", /lone surrogate U\+D83D/],
  ["\\u{DC00}x", /lone surrogate U\+DC00/],
  ["[\\uD800-\\uDBFF]", /lone surrogate/],
  ["a\uD83Db", /lone surrogate U\+D83D/],
  // Errors never quote the translated source or V8's wording.
  ["(", /^does not compile: Unterminated group$/],
  ["a{2,1}", /^does not compile: numbers out of order in \{\} quantifier$/],
];

Deno.test("refused patterns, each with its reason", () => {
  for (const [src, want] of REFUSED) {
    const got = reason(src);
    assert.match(got, want, `${src.slice(0, 60)} → ${got}`);
    assert.doesNotMatch(got, /Invalid regular expression|\/u:|\\u\{/, src.slice(0, 60));
  }
});

const ACCEPTED = [
  "(\\d{1,3}\\.){3}\\d{1,3}",
  "(?:ab+c)+",
  "(foo|bar)+baz",
  "(?:a\\s*b)+",
  "^\\s*[0-9]+[.)]\\s+\\w+",
  "[^a-z ]{3,}",
  "x*?y|z+?",
  "(?i)api error · retrying",
  "\\d{2,3}% context used",
  "[0-9a-f]{40}",
  "(?:[a-z]+/)+x",
  "^ +$",
  "^$|^x", // matches the empty string: config validation refuses that, the engine does not
  "[a-z]",
  "\\x{1F600}",
  "x.{0,15}",
  "x" + "a+b".repeat(MAX_UNBOUNDED),
  "x" + "(a)".repeat(MAX_GROUPS),
  "(?:abcd){250}",
];

Deno.test("ordinary patterns and every shipped pattern are accepted", () => {
  for (const src of ACCEPTED) assert.equal(reason(src), "accepted", src);
  let shipped = 0;
  for (const p of shippedProfiles()) {
    for (const [field, c] of Object.entries(p.patterns)) {
      assert.equal(reason(c!.source), "accepted", `${p.id} ${field}`);
      shipped++;
    }
  }
  assert.ok(shipped >= 15, `only ${shipped} shipped patterns`);
});

Deno.test("a config with the issue's patterns names file, line, field and reason for each", () => {
  const text = `[clis.claude.prompt_profile]
option_line_pattern = '(.*){17}z'
file_prompt_pattern = '(.*){1,100}[bc]'
paste_buffer_pattern = '(?:.*){1,50}z'

[clis.other.prompt_profile]
option_line_pattern = '[^x]'
file_prompt_pattern = '[[:print:]]'
paste_buffer_pattern = '[ -~]'
context_used_pattern = '\\uD83D'
context_bloat_pattern = '${"(?:ab|cd)".repeat(200)}'
`;
  let message = "";
  try {
    parseConfig(text, "/cfg.toml");
  } catch (e) {
    message = (e as Error).message;
  }
  const lines = message.split("\n");
  const want: Array<[number, string, RegExp]> = [
    [2, "clis.claude.prompt_profile.option_line_pattern", /empty string/],
    [3, "clis.claude.prompt_profile.file_prompt_pattern", /empty string/],
    [4, "clis.claude.prompt_profile.paste_buffer_pattern", /empty string/],
    [7, "clis.other.prompt_profile.option_line_pattern", /almost any line/],
    [8, "clis.other.prompt_profile.file_prompt_pattern", /almost any line/],
    [9, "clis.other.prompt_profile.paste_buffer_pattern", /almost any line/],
    [10, "clis.other.prompt_profile.context_used_pattern", /lone surrogate/],
    [11, "clis.other.prompt_profile.context_bloat_pattern", /too long|too large|open positions/],
  ];
  for (const [line, field, why] of want) {
    const hit = lines.find((l) => l.startsWith(`/cfg.toml:${line}: ${field}: `));
    assert.ok(hit, `no line for ${field} in:\n${message}`);
    assert.match(hit, why);
  }
  // A huge pattern is quoted cut short, never echoed whole.
  assert.ok(message.length < 3000, `message is ${message.length} characters`);
});
