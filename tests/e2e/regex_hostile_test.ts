/**
 * Profile patterns that hang a backtracking engine (issue 17): every command that loads the
 * configuration refuses them with exit 2 and `file:line: field: reason`, and sweep.sh, which reads
 * its regexes from drover, stops at once instead of running them.
 */
import assert from "node:assert/strict";
import { drover, droverCommand } from "../helpers/drover.ts";

const SWEEP = new URL("../../sweep/sweep.sh", import.meta.url).pathname;
const FIXTURE = new URL(
  "../fixtures/claude-code/2.1.197/bash-prompt@120x40.txt",
  import.meta.url,
).pathname;

/** field → hostile value, one per line from line 2 of the file. */
const HOSTILE: Array<[string, string, RegExp]> = [
  ["option_line_pattern", "(.*){17}z", /empty string/],
  ["file_prompt_pattern", "(.*){1,100}[bc]", /empty string/],
  ["paste_buffer_pattern", "(?:.*){1,50}z", /empty string/],
  ["context_bloat_pattern", "(a+)+$", /nested in a repeated group/],
  ["context_used_pattern", "(a|ab)*c", /alternatives in a repeated group/],
  ["mid_response_pattern", "[[:print:]]", /almost any line/],
  ["input_line_pattern", "\\uD83D", /lone surrogate/],
  ["command_line_pattern", "[^x]", /almost any line/],
];

const TOML = "[clis.claude.prompt_profile]\n" +
  HOSTILE.map(([f, v]) => `${f} = '${v}'`).join("\n") + "\n";

async function withConfig<T>(f: (cfg: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "drover-regex-" });
  try {
    const cfg = `${dir}/config.toml`;
    await Deno.writeTextFile(cfg, TOML);
    return await f(cfg, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function assertReported(stderr: string, cfg: string): void {
  HOSTILE.forEach(([field, , why], k) => {
    const prefix = `${cfg}:${k + 2}: clis.claude.prompt_profile.${field}: invalid pattern `;
    const line = stderr.split("\n").find((l) => l.includes(prefix));
    assert.ok(line, `no report for ${field} in:\n${stderr}`);
    assert.match(line, why);
  });
  assert.doesNotMatch(stderr, /Invalid regular expression|\n\s+at /);
}

Deno.test("config check, detect and __prompt-profile refuse hanging patterns with exit 2", async () => {
  await withConfig(async (cfg) => {
    const check = await drover(["--config", cfg, "config", "check"]);
    assert.equal(check.code, 2, check.stderr);
    assertReported(check.stderr, cfg);
    const det = await drover(["--config", cfg, "detect", FIXTURE]);
    assert.equal(det.code, 2, det.stderr);
    assertReported(det.stderr, cfg);
    const prof = await drover(["--config", cfg, "__prompt-profile"]);
    assert.equal(prof.code, 2);
    assert.equal(prof.stdout, "");
  });
});

Deno.test("sweep.sh stops at once on a profile with hanging patterns", async () => {
  await withConfig(async (cfg, dir) => {
    const [exe, pre] = droverCommand();
    const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    const wrapper = `${dir}/drover`;
    await Deno.writeTextFile(wrapper, `#!/bin/sh\nexec ${[exe, ...pre].map(q).join(" ")} "$@"\n`);
    await Deno.chmod(wrapper, 0o755);
    // classify asks drover to judge (__classify); approve-eval runs approve's bash gate on the
    // profile's EREs (__prompt-profile). drover refuses the profile for both.
    for (const [sub, call] of [["classify", "__classify"], ["approve-eval", "__prompt-profile"]]) {
      const child = new Deno.Command("timeout", {
        args: ["60", "bash", SWEEP, sub],
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        env: { DROVER: wrapper, DROVER_CONFIG: cfg, NO_COLOR: "1" },
      }).spawn();
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(await Deno.readTextFile(FIXTURE)));
      await w.close();
      const out = await child.output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.notEqual(out.code, 124, `sweep.sh ${sub} ran into the 60 s timeout`);
      assert.notEqual(out.code, 0, stderr);
      assert.match(stderr, new RegExp(`drover ${call} failed`));
    }
  });
});
