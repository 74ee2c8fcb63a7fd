/**
 * drover's matcher gives exactly what V8's RegExp gives, on real screens and on random input:
 *
 * - every line of every recorded fixture × every shipped pattern (the option pattern also on the
 *   decoration-stripped line, as the detectors use it): the same match or no match, the same index
 *   and the same groups as the flag-free RegExp drover ran before it had its own matcher;
 * - random patterns from the accepted subset × random lines: the same as V8 in `u` mode (whole
 *   code points), with a fixed seed so a failure is reproducible.
 */
import assert from "node:assert/strict";
import { captureLines } from "../../lib/detect/text.ts";
import { stripDecoration } from "../../lib/detect/mod.ts";
import { shippedProfiles } from "../../lib/profile/embedded.ts";
import { compilePattern, Matcher, parsePattern, PatternError } from "../../lib/regex/mod.ts";
import { codePointRegExp, flagFreeRegExp } from "./regex_oracle.ts";

const FIXTURES = new URL("../fixtures", import.meta.url).pathname;

function fixtureLines(): string[] {
  const set = new Set<string>();
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory) walk(p);
      else if (e.name.endsWith(".txt") && !e.name.endsWith(".ansi.txt")) {
        for (const l of captureLines(Deno.readTextFileSync(p))) {
          set.add(l);
          set.add(stripDecoration(l));
        }
      }
    }
  };
  walk(FIXTURES);
  return [...set];
}

function same(m: Matcher, re: RegExp, line: string): string | null {
  const a = m.exec(line);
  re.lastIndex = 0;
  const b = re.exec(line);
  const show = (x: RegExpExecArray | ReturnType<Matcher["exec"]>) =>
    x ? JSON.stringify({ index: x.index, groups: [...x] }) : "null";
  const sa = show(a), sb = show(b);
  if (sa !== sb) return `${JSON.stringify(line)}: drover ${sa}, V8 ${sb}`;
  if (m.test(line) !== (b !== null)) return `${JSON.stringify(line)}: test() disagrees with exec()`;
  return null;
}

Deno.test("every fixture line × every shipped pattern: same as the RegExp drover ran before", () => {
  const lines = fixtureLines();
  let compared = 0, matched = 0;
  for (const p of shippedProfiles()) {
    for (const [field, c] of Object.entries(p.patterns)) {
      const before = flagFreeRegExp(c!.source);
      const cp = codePointRegExp(c!.source);
      for (const line of lines) {
        const bad = same(c!.matcher, before, line) ?? same(c!.matcher, cp, line);
        assert.equal(bad, null, `${p.id} ${field} ${c!.source}: ${bad}`);
        compared++;
        if (before.test(line)) matched++;
      }
    }
  }
  assert.ok(matched > 50, `only ${matched} matching lines: the comparison would be vacuous`);
  console.log(`  ${compared} line × pattern comparisons, ${matched} matches`);
});

// ---------------------------------------------------------------------------------------------
// Random patterns from the accepted subset.

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const LITERALS = ["a", "b", "c", "A", "B", "x", "0", "1", " ", "-", "é", "É", "─", "❯", "😀", "ſ"];
const ESCAPED = ["\\.", "\\(", "\\[", "\\$", "\\#", "\\-", "\\*"];
const CLASSES = [
  "[abc]",
  "[a-c]",
  "[^ab]",
  "[^a-c ]",
  "[0-9]",
  "[[:alpha:]]",
  "[[:digit:]x]",
  "[\\d_]",
  "[é😀]",
  "[^─]",
  "[]a]",
  "[a\\-]",
  "[[:space:]]",
];
const SETS = [".", "\\d", "\\w", "\\s", "\\S", "\\D", "\\W"];
const LINE_UNITS = [
  ..."abcxAB01 -.()[$#*_é",
  "É",
  "─",
  "❯",
  "😀",
  "ſ",
  "K",
  "\n",
  "\u2028",
  "\t",
  "\ud83d",
];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function quant(r: () => number): string {
  const lazy = r() < 0.3 ? "?" : "";
  const n = Math.floor(r() * 3);
  const q = pick(r, ["*", "+", "?", `{${n}}`, `{${n},${n + 1 + Math.floor(r() * 2)}}`, `{${n},}`]);
  return q + lazy;
}

function atom(r: () => number, depth: number): string {
  const k = r();
  if (depth > 0 && k < 0.25) {
    const alts = 1 + Math.floor(r() * 3);
    const body = Array.from({ length: alts }, () => seqOf(r, depth - 1)).join("|");
    return pick(r, ["(", "(?:", "(?P<g" + Math.floor(r() * 1e6) + ">", "(?i:", "(?-i:"]) + body +
      ")";
  }
  if (k < 0.6) return pick(r, LITERALS);
  if (k < 0.7) return pick(r, ESCAPED);
  if (k < 0.85) return pick(r, CLASSES);
  return pick(r, SETS);
}

function seqOf(r: () => number, depth: number): string {
  const n = 1 + Math.floor(r() * 4);
  let out = "";
  for (let i = 0; i < n; i++) out += atom(r, depth) + (r() < 0.35 ? quant(r) : "");
  return out;
}

function randomPattern(r: () => number): string {
  let p = seqOf(r, 2);
  if (r() < 0.3) p = p + "|" + seqOf(r, 1);
  if (r() < 0.2) p = "^" + p;
  if (r() < 0.2) p = p + "$";
  if (r() < 0.25) p = "(?i)" + p;
  if (r() < 0.1) p = "(?s)" + p;
  return p;
}

function randomLine(r: () => number): string {
  // Mostly short lines (dense in matches); some long ones so start positions far from the
  // required text are exercised too.
  const n = r() < 0.15 ? 40 + Math.floor(r() * 160) : Math.floor(r() * 24);
  let out = "";
  for (let i = 0; i < n; i++) out += pick(r, LINE_UNITS);
  return out;
}

Deno.test("random accepted patterns × random lines: same as V8 (whole code points)", () => {
  const r = rng(20260517);
  const PATTERNS = 4000, LINES = 60;
  let accepted = 0, rejected = 0, compared = 0, matched = 0, bounded = 0;
  for (let k = 0; k < PATTERNS; k++) {
    const src = randomPattern(r);
    let c;
    try {
      c = compilePattern(src);
    } catch (e) {
      if (!(e instanceof PatternError)) throw e;
      rejected++;
      // Refused, but if it were smuggled in, the matcher would still be bounded.
      let m: Matcher | null = null;
      try {
        m = new Matcher(parsePattern(src).tree, src);
      } catch (e2) {
        if (!(e2 instanceof PatternError)) throw e2;
      }
      for (let j = 0; m && j < 10; j++) {
        const line = randomLine(r);
        m.exec(line);
        assert.ok(m.lastSteps <= (line.length + 1) * m.size, `bound broken: ${src}`);
        bounded++;
      }
      continue;
    }
    accepted++;
    const oracle = codePointRegExp(src);
    for (let j = 0; j < LINES; j++) {
      const line = randomLine(r);
      const bad = same(c.matcher, oracle, line);
      assert.equal(bad, null, `pattern ${JSON.stringify(src)}: ${bad}`);
      compared++;
      if (oracle.test(line)) matched++;
    }
  }
  assert.ok(accepted > PATTERNS / 4, `only ${accepted} of ${PATTERNS} random patterns accepted`);
  assert.ok(matched > compared / 20, `only ${matched} of ${compared} lines matched`);
  console.log(
    `  ${accepted} accepted patterns (${rejected} refused) × ${LINES} lines = ${compared} ` +
      `comparisons, ${matched} matches; ${bounded} runs of refused patterns, all within bound`,
  );
});
