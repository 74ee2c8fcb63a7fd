/**
 * sweep.sh finishes on every hostile profile (issue 17): patterns that backtrack without end in
 * bash's POSIX engine, match-all patterns, a pattern too large to compile. Each is either refused
 * by drover (which validates every pattern it exports: then sweep.sh stops at once, exit 3) or
 * bounded by sweep.sh itself (SWEEP_TIME_LIMIT: exit 124; SWEEP_MEMORY_LIMIT_MB: exit 3). Either
 * way snapshot, detect-stuck, classify, approve-eval and approve end, and a stopped approve sent
 * nothing.
 */
import assert from "node:assert/strict";
import { droverCommand, REPO_ROOT } from "../helpers/drover.ts";
import { startTestServer } from "../helpers/tmux_server.ts";
import { cleanupReplay, loadScreen, startReplay } from "../helpers/replay.ts";

const SWEEP = `${REPO_ROOT}sweep/sweep.sh`;
const V = "claude-code/2.1.197";

/** The hostile profiles: one [clis.claude.prompt_profile] line each. */
const HOSTILE: string[] = [
  // From issue 17 (accepted by `config check` before pattern validation).
  `option_line_pattern = '(.*){17}z'`,
  `option_line_pattern = '(.*){1,100}[bc]'`,
  `option_line_pattern = '(?:.*){1,50}z'`,
  // Runs for minutes in bash's engine on a 120-column screen.
  `option_line_pattern = '(.*){40}z'`,
  `context_bloat_pattern = '(.*){40}z'`,
  // Match-all patterns.
  `option_line_pattern = '[^x]'`,
  `option_line_pattern = '[[:print:]]'`,
  `option_line_pattern = '[ -~]'`,
  // 15 000 alternatives: bash's regcomp grows past a gigabyte.
  `option_line_pattern = '${Array.from({ length: 15_000 }, (_, i) => `alt${i}`).join("|")}'`,
];

/** sweep.sh's documented exits: ok, refusals, drover failed, stopped by the time limit. */
const DOCUMENTED = new Set([0, 3, 12, 13, 14, 15, 16, 17, 124]);

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

async function sweep(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command("bash", {
    args: [SWEEP, ...args],
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env,
    // The test's own bound: far above SWEEP_TIME_LIMIT, so only a sweep.sh that does not stop
    // hits it (and fails the test below with a negative code).
    signal: AbortSignal.timeout(120_000),
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return {
    code: out.signal ? -1 : out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

/** drover refuses the configuration (config check fails); a check that does not end is no. */
async function refuses(cfg: string): Promise<boolean> {
  const [exe, pre] = droverCommand();
  const out = await new Deno.Command(exe, {
    args: [...pre, "--config", cfg, "config", "check"],
    stdout: "null",
    stderr: "null",
    signal: AbortSignal.timeout(8_000),
  }).output();
  return out.signal === null && out.code !== 0;
}

Deno.test("sweep.sh finishes on every hostile profile: snapshot, detect-stuck, classify, approve-eval, approve", async () => {
  await using srv = await startTestServer();
  const tmp = await Deno.makeTempDir({ prefix: "drover-hostile-" });
  const prompt = await loadScreen(`${V}/bash-prompt@120x40`);
  const orch = await startReplay(srv, await loadScreen(`${V}/ready@120x40`), {
    session: "agents",
  });
  const agent = await startReplay(srv, prompt, { session: "agents", newWindow: true });
  try {
    const [exe, pre] = droverCommand();
    await Deno.mkdir(`${tmp}/bin`);
    const real = `${tmp}/bin/drover`;
    await Deno.writeTextFile(real, `#!/bin/sh\nexec ${[exe, ...pre].map(q).join(" ")} "$@"\n`);
    await Deno.chmod(real, 0o755);
    const problems: string[] = [];
    for (const [n, line] of HOSTILE.entries()) {
      const label = line.length > 60 ? `${line.slice(0, 60)}…` : line;
      const cfg = `${tmp}/hostile-${n}.toml`;
      await Deno.writeTextFile(cfg, `[clis.claude.prompt_profile]\n${line}\n`);
      // Does drover refuse the profile? (Bounded: before pattern validation, drover's own
      // `config check` could spin on these patterns too.)
      const refused = await refuses(cfg);
      await agent.show(prompt);
      const keysBefore = await agent.keys();
      const env = {
        DROVER: real,
        XDG_RUNTIME_DIR: tmp,
        SWEEP_STATE_DIR: `${tmp}/state-${n}`,
        SWEEP_TIME_LIMIT: "4",
      };
      const base = ["-L", srv.name, "--config", cfg, "--cli", "claude"];
      const runs = await Promise.all([
        sweep([...base, "--session", "agents", "snapshot"], env),
        sweep([...base, "--session", "agents", "detect-stuck"], env),
        sweep([...base, "classify", "--allow", "node -e"], env, prompt.text),
        sweep([...base, "approve-eval"], env, prompt.text),
        sweep([...base, "approve", "agents:1.0"], env),
      ]);
      const names = ["snapshot", "detect-stuck", "classify", "approve-eval", "approve"];
      runs.forEach((r, i) => {
        const what = `${label}: ${names[i]} exit ${r.code}`;
        if (!DOCUMENTED.has(r.code)) problems.push(`${what}: ${r.stderr.slice(0, 300)}`);
        // drover refuses the configuration: sweep.sh stops on its word, without judging anything.
        if (refused && r.code !== 3) problems.push(`${what}, expected 3 (drover refuses it)`);
        if (r.code === 124 && !/stopped after 4s \(SWEEP_TIME_LIMIT\)/.test(r.stderr)) {
          problems.push(`${what} without saying why: ${r.stderr.slice(0, 300)}`);
        }
      });
      console.log(
        `${label}: drover ${refused ? "refuses it" : "accepts it"}; exits ${
          runs.map((r, i) =>
            `${names[i]} ${r.code}${r.code === 3 ? ` (${r.stderr.trim().slice(0, 160)})` : ""}`
          ).join(", ")
        }`,
      );
      const approve = runs[4];
      if (approve.code === 3 || approve.code === 124) {
        const sent = (await agent.keys()).slice(keysBefore.length);
        if (sent !== "") {
          problems.push(`${label}: approve stopped but sent ${JSON.stringify(sent)}`);
        }
      }
    }
    assert.deepEqual(problems, []);
    assert.equal(await orch.keys(), "", "the orchestrator never gets a key");
  } finally {
    await cleanupReplay(orch);
    await cleanupReplay(agent);
    await Deno.remove(tmp, { recursive: true });
  }
});
