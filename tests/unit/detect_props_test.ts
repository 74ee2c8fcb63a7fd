/**
 * Property tests: no input makes a detector throw or stall, and a pathological profile pattern
 * cannot stall the supervisor (the V8 flag falls back to the linear engine; lines are bounded).
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG, parseConfig } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { compilePattern, execBounded } from "../../lib/regex/mod.ts";

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

Deno.test("a catastrophic pattern on a long non-matching line finishes", () => {
  // (a+)+$ is exponential on a backtracking engine; the V8 flag falls back to the linear engine.
  const c = compilePattern("(a+)+$");
  const line = "a".repeat(3000) + "!";
  const t0 = performance.now();
  assert.equal(execBounded(c.regex, line), null);
  const ms = performance.now() - t0;
  // A generous bound: only a stall (seconds to hours) fails this, never a slow shared machine.
  assert.ok(ms < 2000, `took ${ms} ms`);
});

Deno.test("a hostile-but-valid user pattern inside detect() cannot stall it", () => {
  const config = parseConfig(
    `[clis.evil.prompt_profile]
paste_buffer_pattern = '(a|aa)+$'
file_prompt_pattern = '(x+x+)+y'
`,
    "/evil.toml",
  );
  const evil = resolveProfile("evil", config);
  const plain = ("a".repeat(3000) + "!\n" + "x".repeat(3000) + "\n").repeat(20);
  const t0 = performance.now();
  const v = detect({ plain }, evil);
  assert.equal(v.paste_buffer, null);
  assert.equal(v.file_path, null);
  assert.ok(performance.now() - t0 < 10_000);
});

Deno.test("case-insensitive and scoped-flag patterns stay on the linear engine too", () => {
  for (const src of ["(?i)(a+)+$", "(?i:(a|A)+)+$", "(?i)(é+)+$", "((?:a|aa)+)+$"]) {
    const c = compilePattern(src);
    const line = (src.includes("é") ? "é" : "a").repeat(3000) + "!";
    const t0 = performance.now();
    assert.equal(execBounded(c.regex, line), null, src);
    assert.ok(performance.now() - t0 < 2000, src);
  }
});
