/**
 * Property tests: no input makes a detector throw or stall, and a pathological profile pattern
 * cannot stall the supervisor (validation refuses it; one smuggled past validation runs on the
 * bounded matcher, whose work per line is capped; lines are bounded).
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG, parseConfig } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import type { ResolvedProfile } from "../../lib/profile/resolve.ts";
import {
  compilePattern,
  execBounded,
  Matcher,
  MAX_STEPS,
  parsePattern,
  PatternError,
} from "../../lib/regex/mod.ts";

const claude = resolveProfile("claude", EMPTY_CONFIG);

/** Small deterministic PRNG so a failure is reproducible from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = [
  ..."abcXYZ019 .,;:()[]{}<>/\\|$%#'\"`~-_=+*?^",
  "❯",
  "›",
  "│",
  "─",
  "╭",
  "╯",
  "⎿",
  "●",
  "·",
  "’",
  "✻",
  "…",
  "\t",
  "\x1b",
  "\x1b[2m",
  "\x1b[0m",
  "\x07",
  "\r",
  "\n",
  "\n",
  "\n",
  "\u2028",
  "\ufeff",
  "\u0000",
  "\ud800",
  "é",
  "😀",
  "Do you want to proceed?",
  "1. Yes",
  "Esc to cancel",
  "esc to interrupt",
  "Bash(",
  "Bash command",
  "Pasted text #1",
  "84% context used",
  "Invalid API key",
  "────",
  "❯ ",
];

function randomText(r: () => number, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return out;
}

Deno.test("random captures never throw and always yield a state", () => {
  for (let seed = 1; seed <= 400; seed++) {
    const r = rng(seed);
    const plain = randomText(r, Math.floor(r() * 400));
    const styled = r() < 0.5 ? randomText(r, Math.floor(r() * 400)) : undefined;
    const v = detect({ plain, styled }, claude, { title: randomText(r, 5) });
    assert.ok(typeof v.state === "string", `seed ${seed}`);
    assert.ok(Array.isArray(v.options));
  }
});

Deno.test("broken UTF-8 decoded with replacement characters never throws", () => {
  const bytes = new Uint8Array(4096);
  const r = rng(7);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(r() * 256);
  const plain = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  detect({ plain, styled: plain }, claude);
});

Deno.test("very long lines and very many lines are bounded", () => {
  const long = "Do you want to proceed? ".repeat(20_000) + "\n❯ 1. Yes\n";
  const v = detect({ plain: long }, claude);
  assert.equal(v.live_prompt, true);
  const many = "x\n".repeat(200_000) + "Do you want to proceed?\n";
  assert.equal(detect({ plain: many }, claude).live_prompt, true);
  const ctl = "\x00\x01\x02\x1b[31m\x1b]0;title\x07\x1bP...\x1b\\\x7f\x9b".repeat(1000);
  detect({ plain: ctl, styled: ctl }, claude);
});

/** A matcher for a pattern validation would refuse: what a smuggled pattern would run as. */
function unchecked(src: string): Matcher {
  return new Matcher(parsePattern(src).tree, src);
}

/** Every pattern field of a resolved profile replaced by `src`, past validation. */
function smuggled(src: string): ResolvedProfile {
  const m = unchecked(src);
  const patterns = Object.fromEntries(
    Object.keys(claude.matchers.patterns).map((k) => [k, m]),
  ) as unknown as ResolvedProfile["matchers"]["patterns"];
  return { ...claude, matchers: { ...claude.matchers, patterns } };
}

const HOSTILE = [
  "(a+)+$",
  "(a|aa)+$",
  "(x+x+)+y",
  "(.*){17}z",
  "(.*){1,100}[bc]",
  "(?:.*){1,50}z",
  "(a*)*b",
  "(?i)(a+)+$",
  "(?i:(a|A)+)+$",
  "(?i)(é+)+$",
  "((?:a|aa)+)+$",
];

Deno.test("catastrophic patterns are refused by validation", () => {
  for (const src of HOSTILE) {
    assert.throws(() => compilePattern(src), PatternError, src);
  }
});

Deno.test("a catastrophic pattern smuggled past validation stays within its step budget", () => {
  for (const src of HOSTILE) {
    const m = unchecked(src);
    for (const unit of ["a", "x", "é", "─a"]) {
      const line = unit.repeat(Math.floor(3000 / unit.length)) + "!";
      assert.equal(execBounded(m, line), null, src);
      // The bound is structural, not a clock: (line length + 1) × program size, and MAX_STEPS.
      assert.ok(m.lastSteps <= (line.length + 1) * m.size, `${src}: ${m.lastSteps} steps`);
      assert.ok(m.lastSteps <= MAX_STEPS, `${src}: ${m.lastSteps} steps`);
    }
  }
});

Deno.test("hostile patterns in a config are refused when it loads", () => {
  assert.throws(
    () =>
      parseConfig(
        `[clis.evil.prompt_profile]
paste_buffer_pattern = '(a|aa)+$'
file_prompt_pattern = '(x+x+)+y'
`,
        "/evil.toml",
      ),
    (e: Error) =>
      /\/evil\.toml:2: clis\.evil\.prompt_profile\.paste_buffer_pattern: /.test(e.message) &&
      /\/evil\.toml:3: clis\.evil\.prompt_profile\.file_prompt_pattern: /.test(e.message),
  );
});

Deno.test("a hostile pattern smuggled into a resolved profile cannot stall detect()", () => {
  const plain = ("a".repeat(3000) + "!\n" + "x".repeat(3000) + "\n").repeat(20);
  for (const src of ["(a|aa)+$", "(x+x+)+y", "(.*){17}z"]) {
    const v = detect({ plain }, smuggled(src));
    assert.equal(v.paste_buffer, null, src);
    assert.equal(v.file_path, null, src);
  }
});
