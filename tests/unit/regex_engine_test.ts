/**
 * drover's matcher (lib/regex/vm.ts): JavaScript's results on the cases where engines differ, and
 * a hard bound on the work of any pattern that reaches it, validated or not.
 */
import assert from "node:assert/strict";
import { parseConfig } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import {
  compilePattern,
  Matcher,
  MAX_MATCH_LINE,
  MAX_STEPS,
  parsePattern,
  withStepBudget,
} from "../../lib/regex/mod.ts";

function unchecked(src: string): Matcher {
  return new Matcher(parsePattern(src).tree, src);
}

function ex(src: string, line: string): unknown {
  const m = unchecked(src).exec(line);
  return m ? { index: m.index, groups: [...m] } : null;
}

Deno.test("first match, leftmost; greedy and lazy; alternation order", () => {
  assert.deepEqual(ex("a+", "xaaay"), { index: 1, groups: ["aaa"] });
  assert.deepEqual(ex("a+?", "xaaay"), { index: 1, groups: ["a"] });
  assert.deepEqual(ex("(a|ab)(c|bcd)", "abcd"), { index: 0, groups: ["abcd", "a", "bcd"] });
  assert.deepEqual(ex("x(.*)y", "xaybyc"), { index: 0, groups: ["xayby", "ayb"] });
  assert.deepEqual(ex("x(.*?)y", "xaybyc"), { index: 0, groups: ["xay", "a"] });
  assert.deepEqual(ex("a{2,3}?b", "aaab"), { index: 0, groups: ["aaab"] });
  assert.deepEqual(ex("(?:b|a)+", "cab"), { index: 1, groups: ["ab"] });
});

Deno.test("capture groups: numbered by opening parenthesis, cleared at each iteration as in JS", () => {
  assert.deepEqual(ex("((a)(b))", "ab"), { index: 0, groups: ["ab", "ab", "a", "b"] });
  assert.deepEqual(ex("(?P<x>a)(?:b)(c)?", "ab"), { index: 0, groups: ["ab", "a", undefined] });
  // JS clears a repeated group's captures at each iteration (Perl and Rust keep "a").
  assert.deepEqual(ex("(?:(a)|b)+", "ab"), { index: 0, groups: ["ab", undefined] });
  assert.deepEqual(ex("(?:(a)|(b))+", "ab"), { index: 0, groups: ["ab", undefined, "b"] });
  assert.deepEqual(ex("(a)?x", "x"), { index: 0, groups: ["x", undefined] });
});

Deno.test("anchors, line terminators and (?s)", () => {
  assert.deepEqual(ex("^b", "ab"), null);
  assert.deepEqual(ex("a$", "ab"), null);
  assert.deepEqual(ex("b$", "ab"), { index: 1, groups: ["b"] });
  assert.deepEqual(ex("a.b", "a\nb"), null);
  assert.deepEqual(ex("a.b", "a\u2028b"), null);
  assert.deepEqual(ex("(?s)a.b", "a\nb"), { index: 0, groups: ["a\nb"] });
  assert.deepEqual(ex("\\Ax\\z", "x"), { index: 0, groups: ["x"] });
});

Deno.test("case folding and classes as drover documents them", () => {
  assert.deepEqual(ex("(?i)école", "ÉCOLE"), { index: 0, groups: ["ÉCOLE"] });
  assert.deepEqual(ex("(?i:a)b", "AB"), null);
  assert.deepEqual(ex("(?i)a(?-i:b)", "Ab"), { index: 0, groups: ["Ab"] });
  assert.deepEqual(ex("\\d", "٣"), null); // ASCII \d
  assert.deepEqual(ex("\\w", "é"), null); // ASCII \w
  assert.deepEqual(ex("\\s", "\u00a0"), { index: 0, groups: ["\u00a0"] }); // JS \s
  assert.deepEqual(ex("[[:upper:]]{2}", "aBCd"), { index: 1, groups: ["BC"] });
});

Deno.test("whole code points: a surrogate pair is never split", () => {
  assert.deepEqual(ex("^.$", "😀"), { index: 0, groups: ["😀"] });
  assert.deepEqual(ex("^..$", "😀"), null);
  assert.deepEqual(ex("^\\S$", "😀"), { index: 0, groups: ["😀"] });
  assert.deepEqual(ex("[^a]", "😀"), { index: 0, groups: ["😀"] });
  assert.deepEqual(ex("x", "😀x"), { index: 2, groups: ["x"] });
  // A lone surrogate in the text is one character of its own.
  assert.deepEqual(ex("^.x$", "\ud83dx"), { index: 0, groups: ["\ud83dx"] });
});

Deno.test("lines are cut at MAX_MATCH_LINE before matching", () => {
  const m = compilePattern("needle");
  assert.equal(m.matcher.test("x".repeat(MAX_MATCH_LINE - 6) + "needle"), true);
  assert.equal(m.matcher.test("x".repeat(MAX_MATCH_LINE) + "needle"), false);
});

Deno.test("any pattern, validated or not, is bounded by (line + 1) × program size and MAX_STEPS", () => {
  const patterns = [
    "(.*){17}z",
    "(.*){1,100}[bc]",
    "(?:.*){1,50}z",
    "(a+)+$",
    "(a*)*b",
    "(a|a)*x",
    "(a|ab)*c",
    "([a-z─]{1,100}){1,10}z",
    "(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)z",
  ];
  const lines = ["a".repeat(MAX_MATCH_LINE), "─a".repeat(MAX_MATCH_LINE / 2), "ab".repeat(500)];
  for (const src of patterns) {
    const m = unchecked(src);
    for (const line of lines) {
      m.exec(line);
      assert.ok(m.lastSteps <= Math.min(MAX_STEPS, (line.length + 1) * m.size), `${src}`);
    }
  }
});

Deno.test("over budget: no match, and the matcher counts it", () => {
  // A program this size on a full-length line has more states than MAX_STEPS allows.
  const m = unchecked("b(?:.*){300}z");
  assert.ok((MAX_MATCH_LINE + 1) * m.size > MAX_STEPS);
  assert.equal(m.exec("b" + "a".repeat(MAX_MATCH_LINE)), null);
  assert.equal(m.overBudget, 1);
  assert.ok(m.lastSteps <= MAX_STEPS + 1);
  // A line it can finish within the budget still matches.
  assert.ok(m.exec("baaz") !== null);
  assert.equal(m.overBudget, 1);
});

Deno.test("a program too large to compile is a pattern error, not a hang", () => {
  assert.throws(() => unchecked("(?:(?:a{200}){200}){200}"), /too large/);
});

Deno.test("a shared step budget: searches inside withStepBudget stop together when it runs out", () => {
  const m = compilePattern("(?:[a-z][0-9]){40}").matcher;
  const line = ("a1".repeat(39) + "!!").repeat(20);
  m.exec(line);
  const one = m.lastSteps;
  assert.ok(one > 1000);
  const before = m.overBudget;
  const got = withStepBudget(one * 2 + 10, () => [m.exec(line), m.exec(line), m.exec(line)]);
  assert.deepEqual(got, [null, null, null]);
  assert.equal(m.overBudget, before + 1); // the third one found the budget spent
  // Outside the scope the per-line bound alone applies again.
  assert.equal(m.exec("a1".repeat(40)) !== null, true);
});

Deno.test("detect() on a hostile profile and a huge hostile screen stops at its step budget", () => {
  const fields = [
    "file_prompt_pattern",
    "option_line_pattern",
    "context_bloat_pattern",
    "paste_buffer_pattern",
    "context_used_pattern",
    "mid_response_pattern",
    "input_line_pattern",
    "command_line_pattern",
  ];
  // Accepted by the rules (no nesting, no prefilter text), expensive on lines like these.
  const config = parseConfig(
    "[clis.evil.prompt_profile]\n" +
      fields.map((f) => `${f} = '(?:[a-z][0-9]){250}'`).join("\n") + "\n",
    "/evil.toml",
  );
  const p = resolveProfile("evil", config);
  const line = ("a1".repeat(249) + "!!").repeat(9).slice(0, MAX_MATCH_LINE);
  const v = detect({ plain: (line + "\n").repeat(2000) }, p);
  assert.equal(typeof v.state, "string");
  const matchers = Object.values(p.matchers.patterns) as Array<Matcher | null>;
  const stopped = matchers.reduce((n, m) => n + (m?.overBudget ?? 0), 0);
  assert.ok(stopped > 0, "the screen's step budget never ran out");
});
