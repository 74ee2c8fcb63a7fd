/**
 * sweep.sh finishes on every hostile profile (issue 17): patterns that backtrack without end in
 * bash's POSIX engine, match-all patterns, a pattern too large to compile. drover refuses each of
 * them (it validates every pattern it exports: sweep.sh then stops at once, exit 3); smuggled past
 * that validation, sweep.sh's own bounds stop bash (SWEEP_TIME_LIMIT: exit 124;
 * SWEEP_MEMORY_LIMIT_MB: exit 3). Either way snapshot, detect-stuck, classify, approve-eval and
 * approve end, and a stopped approve sent nothing.
 */
import assert from "node:assert/strict";
import { droverCommand, REPO_ROOT } from "../helpers/drover.ts";
import { dropClaims, startTestServer } from "../helpers/tmux_server.ts";
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

/**
 * sweep.sh's documented exits: ok, drover failed, approve's refusals (11 "claimed" included: an
 * approve stopped by the watchdog leaves its claim, which stands for 10 s), stopped by the limit.
 */
const DOCUMENTED = new Set([0, 3, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 124]);

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
      // A refused profile must stop sweep.sh on drover's word (exit 3), however long drover
      // takes to start on a loaded machine: the watchdog gets room. An accepted one meets it.
      const limit = refused ? 60 : 4;
      const env = {
        DROVER: real,
        XDG_RUNTIME_DIR: tmp,
        SWEEP_STATE_DIR: `${tmp}/state-${n}`,
        SWEEP_TIME_LIMIT: String(limit),
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
        if (r.code === 124 && !r.stderr.includes(`stopped after ${limit}s (SWEEP_TIME_LIMIT)`)) {
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

    // Mutation caught (verified): sweep.sh without its watchdog — stuck-eval and detect-stuck then
    // run past this test's own 120 s bound on the back-referencing pattern.
    // Smuggled past drover's validation (a stub serves the rows, as a drover from before pattern
    // validation would): sweep.sh's own bounds stop bash — the watchdog (exit 124) or the memory
    // limit on bash's regex compiler (exit 3) — and approve sends nothing.
    const tsv = await new Deno.Command(real, {
      args: ["__prompt-profile", "--format", "tsv", "--cli", "claude"],
      stdout: "piped",
    }).output();
    const rows = new TextDecoder().decode(tsv.stdout);
    const late: string[] = [];
    let stopped = 0;
    const smuggled: [string, string][] = [
      // Back-references (glibc's ERE has them; drover never exports one): minutes per line.
      ["(.*)(.*)(.*)(.*)(.*)\\5\\4\\3\\2\\1z", "a back-referencing pattern"],
      [Array.from({ length: 15_000 }, (_, i) => `alt${i}`).join("|"), "15 000 alternatives"],
    ];
    for (const [n, [ere, what]] of smuggled.entries()) {
      const file = `${tmp}/smuggled-${n}.tsv`;
      await Deno.writeTextFile(
        file,
        rows.split("\n").map((l) =>
          /^(option_line_pattern|context_bloat_pattern)\t/.test(l)
            ? `${l.split("\t")[0]}\t${ere}`
            : /^_live_option_line\t/.test(l)
            ? `_live_option_line\t^${ere}`
            : l
        ).join("\n"),
      );
      const stub = `${tmp}/bin/drover-smuggled-${n}`;
      await Deno.writeTextFile(
        stub,
        `#!/bin/sh\ncase "$*" in *__prompt-profile*) exec cat ${q(file)};; esac\nexec ${
          q(real)
        } "$@"\n`,
      );
      await Deno.chmod(stub, 0o755);
      await agent.show(prompt);
      const keysBefore = await agent.keys();
      const env = {
        DROVER: stub,
        XDG_RUNTIME_DIR: tmp,
        SWEEP_STATE_DIR: `${tmp}/smuggled-state-${n}`,
        SWEEP_TIME_LIMIT: "4",
      };
      const base = ["-L", srv.name, "--cli", "claude"];
      const names = ["approve-eval", "stuck-eval", "detect-stuck", "approve"];
      const runs = await Promise.all([
        sweep([...base, "approve-eval"], env, prompt.text),
        sweep([...base, "stuck-eval", "a"], env, prompt.text),
        sweep([...base, "--session", "agents", "detect-stuck"], env),
        sweep([...base, "approve", "agents:1.0"], env),
      ]);
      console.log(
        `smuggled ${what}: exits ${runs.map((r, i) => `${names[i]} ${r.code}`).join(", ")}`,
      );
      runs.forEach((r, i) => {
        const why = (r.code === 124 && /stopped after 4s \(SWEEP_TIME_LIMIT\)/.test(r.stderr)) ||
          (r.code === 3 && /bash cannot run a profile pattern/.test(r.stderr));
        if (why) stopped++;
        // Ended by itself (the input did not trip the pattern), or stopped saying why.
        if (!why && (r.code === 124 || r.code === 3 || !DOCUMENTED.has(r.code))) {
          late.push(`smuggled ${what}: ${names[i]} exit ${r.code}: ${r.stderr.slice(0, 300)}`);
        }
      });
      const sent = (await agent.keys()).slice(keysBefore.length);
      if (sent !== "") late.push(`smuggled ${what}: approve sent ${JSON.stringify(sent)}`);
    }
    assert.deepEqual(late, []);
    assert.ok(stopped > 0, "the smuggled patterns never tripped sweep.sh's own bounds");
    assert.equal(await orch.keys(), "", "the orchestrator never gets a key");
  } finally {
    // An approve its watchdog stopped leaves its claim behind.
    await dropClaims(srv, agent.paneId);
    await cleanupReplay(orch);
    await cleanupReplay(agent);
    await Deno.remove(tmp, { recursive: true });
  }
});
