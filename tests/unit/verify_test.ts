/**
 * `drover verify`'s pure parts: the scenario tables cover the standard set, the judge names the
 * fields that decide a drift (on recorded real screens), versions parse, exit codes, the report.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config/discover.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { fillScript } from "../../lib/scenarios/standin.ts";
import { STANDARD_SCENARIOS, TABLES } from "../../lib/scenarios/mod.ts";
import { parseVersion } from "../../lib/verify/find.ts";
import { chooseClis, type CliReport, exitCodeOf } from "../../lib/verify/mod.ts";
import { cliTable, expectText, progressLine } from "../../lib/verify/report.ts";
import { judge } from "../../lib/verify/judge.ts";
import type { ScenarioResult } from "../../lib/verify/result.ts";
import { describeWait } from "../../lib/verify/wait.ts";

const FIX = new URL("../fixtures/claude-code/2.1.197/", import.meta.url).pathname;

Deno.test("every table covers the standard scenario set, each once, or says why not", () => {
  for (const [name, t] of Object.entries(TABLES)) {
    assert.equal(t.cli, name);
    const run = t.sessions.flatMap((s) => s.scenarios.map((x) => x.name));
    assert.equal(new Set(run).size, run.length, `${name}: a scenario runs twice`);
    for (const s of STANDARD_SCENARIOS) {
      const ran = run.includes(s);
      const skipped = s in t.skipped;
      assert.ok(ran !== skipped, `${name}: ${s} must either run or be skipped (with a reason)`);
      if (skipped) assert.ok(t.skipped[s].length > 10, `${name}: ${s} needs a real reason`);
    }
    for (const sess of t.sessions) {
      // Only Qwen Code's home recipe merges a session's settings; elsewhere they would be lost.
      assert.ok(!sess.settings || t.home === "qwen", `${name}/${sess.name}: settings not applied`);
      if (sess.since) {
        assert.match(sess.since.version, /^[0-9]+(\.[0-9]+)+$/, `${name}/${sess.name}: since`);
        assert.ok(sess.since.why.length > 10, `${name}/${sess.name}: since needs a real reason`);
      }
      for (const sc of sess.scenarios) {
        assert.ok(sc.expect.state || sc.expect.approve, `${name}/${sc.name}: expects nothing`);
        assert.ok(Object.keys(sc.until).length > 0, `${name}/${sc.name}: waits for nothing`);
        if (sc.expect.state) {
          // The lab compares these lines with its fixtures: a judged screen needs some.
          const lines = [...(sc.defining ?? []), ...(sc.until.shows ?? [])];
          assert.ok(lines.length > 0, `${name}/${sc.name}: no state-defining lines`);
        }
      }
    }
  }
});

async function profileWith(toml: string) {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/config.toml`, toml);
    const config = await loadConfig({ path: `${dir}/config.toml`, cwd: dir });
    return resolveProfile("claude", config);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("judge: a real busy screen holds with the shipped profile; a wrong marker is named", async () => {
  const plain = await Deno.readTextFile(`${FIX}busy@120x40.txt`);
  const styled = await Deno.readTextFile(`${FIX}busy@120x40.ansi.txt`);
  const expect = { state: "busy" as const, verdicts: { mid_response: true } };
  const good = await profileWith("");
  const ok = judge(expect, detect({ plain, styled }, good), good, plain);
  assert.deepEqual(ok.problems, []);
  assert.deepEqual(ok.seen, { state: "busy", mid_response: true });

  // Every field that makes this screen busy, wrong: the footer marker, the busy-line pattern and
  // the activity-line pattern.
  const bad = await profileWith(
    '[clis.claude.prompt_profile]\nmid_response_markers = ["esc to halt"]\n' +
      "mid_response_pattern = '^never drawn'\nactivity_line_pattern = '^never drawn'\n",
  );
  const drift = judge(expect, detect({ plain, styled }, bad), bad, plain);
  assert.deepEqual(drift.problems, [
    "state idle, expected busy",
    "mid_response false, expected true",
  ]);
  assert.equal(drift.fields[0].field, "mid_response_markers");
  assert.equal(drift.fields[0].role, "expected-missing");
  assert.deepEqual(drift.fields[0].value, ["esc to halt"]);
});

Deno.test("judge: '*' wants any value; verdict mismatches name their fields", async () => {
  const plain = await Deno.readTextFile(`${FIX}bash-prompt@120x40.txt`);
  const styled = await Deno.readTextFile(`${FIX}bash-prompt@120x40.ansi.txt`);
  const p = await profileWith("");
  const v = detect({ plain, styled }, p);
  assert.deepEqual(
    judge({ state: "prompt", verdicts: { command: "*", permission_prompt: true } }, v, p, plain)
      .problems,
    [],
  );
  const j = judge({ state: "prompt", verdicts: { command: "npm test" } }, v, p, plain);
  assert.equal(j.problems.length, 1);
  assert.match(j.problems[0], /^command ".*", expected "npm test"$/);
  assert.deepEqual(j.fields.map((f) => f.field).sort(), ["command_header_markers"]);
});

Deno.test("versions parse from what CLIs print for --version", () => {
  assert.equal(parseVersion("2.1.197 (Claude Code)\n"), "2.1.197");
  assert.equal(parseVersion("codex-cli 0.171.0\n"), "0.171.0");
  assert.equal(parseVersion("0.61.0\n"), "0.61.0");
  assert.equal(parseVersion("opencode 1.18.33-beta.2"), "1.18.33-beta.2");
  assert.equal(parseVersion("usage: foo"), null);
});

Deno.test("fillScript puts the project folder into scripted paths, nothing else changes", () => {
  const out = fillScript([
    { kind: "tool_use", name: "Write", input: { file_path: "{project}/a.md", content: "x" } },
    { kind: "error", status: 429, times: Infinity },
  ], { project: "/tmp/p" });
  assert.deepEqual(out[0], {
    kind: "tool_use",
    name: "Write",
    input: { file_path: "/tmp/p/a.md", content: "x" },
  });
  assert.equal((out[1] as { times: number }).times, Infinity);
});

Deno.test("which CLIs: --cli as given, otherwise every table", () => {
  assert.deepEqual(chooseClis({ cli: ["codex", "codex"] }, ["claude", "codex"]), ["codex"]);
  assert.deepEqual(chooseClis({}, ["claude", "codex"]), ["claude", "codex"]);
  assert.deepEqual(chooseClis({ all: true }, ["claude", "codex"]), ["claude", "codex"]);
});

function report(status: CliReport["status"], scenarios: ScenarioResult[] = []): CliReport {
  return {
    cli: "claude",
    command: "claude",
    path: status === "not-installed" ? null : "/bin/claude",
    found_by: status === "not-installed" ? "not-found" : "path",
    version: "2.1.197",
    status,
    profile: { shipped: "claude-code", config: null },
    size: "120x40",
    counts: { hold: 1, drift: 0, skipped: 0, not_run: 0, total: 1 },
    scenarios,
    ms: 1000,
    summary: "claude 2.1.197: 1/1 scenarios hold",
    saved: null,
  };
}

Deno.test("exit codes: drift 1 wins; 69 only when nothing asked for is installed; 130 interrupted", () => {
  assert.equal(exitCodeOf([report("hold")]), 0);
  assert.equal(exitCodeOf([report("hold"), report("not-installed")]), 0);
  assert.equal(exitCodeOf([report("not-installed")]), 69);
  assert.equal(exitCodeOf([report("not-installed"), report("not-installed")]), 69);
  assert.equal(exitCodeOf([report("drift"), report("not-installed")]), 1);
  assert.equal(exitCodeOf([report("hold"), report("interrupted")]), 130);
});

Deno.test("report: expected/seen columns, a ✗ row explains itself, skipped says why", () => {
  const base = {
    session: "main",
    reason: null,
    wording_missing: [],
    approve: null,
    ms: 1200,
    screen: null,
  };
  const rows: ScenarioResult[] = [
    {
      ...base,
      scenario: "busy",
      status: "drift",
      expect: { state: "busy", verdicts: { mid_response: true } },
      seen: { state: "idle", mid_response: false },
      problems: ["state idle, expected busy"],
      fields: [{
        field: "mid_response_markers",
        value: ["esc to interrupt"],
        role: "expected-missing",
        matches: [],
      }],
      wording_missing: ["esc to interrupt"],
    },
    {
      ...base,
      scenario: "file-prompt",
      status: "skipped",
      expect: {},
      seen: null,
      problems: [],
      fields: [],
      reason: "the CLI never asks before writing a file",
    },
  ];
  const out = cliTable(report("drift", rows)).join("\n");
  assert.match(out, /busy\s+busy, mid_response\s+idle, !mid_response\s+✗/);
  assert.match(out, /field mid_response_markers = \["esc to interrupt"\]: no line matches/);
  assert.match(out, /not on the screen any more: "esc to interrupt"/);
  assert.match(out, /file-prompt\s+-\s+skipped: the CLI never asks before writing a file/);
  // The summary line ends with the time the CLI took.
  assert.equal(out.split("\n").at(-1), "claude 2.1.197: 1/1 scenarios hold (1s)");
  assert.equal(
    expectText({ state: "prompt", verdicts: { command: "ls", permission_prompt: true } }),
    'prompt, command="ls", permission_prompt',
  );
  assert.equal(
    progressLine({ kind: "scenario", cli: "claude", result: rows[0] }),
    "  ✗ claude busy (1.2s): state idle, expected busy",
  );
  assert.equal(
    describeWait({ shows: ["x"], requests: 1, stableMs: 800 }),
    'the screen to show "x", 1 request(s) at the stand-in, the screen to settle for 800 ms',
  );
  assert.equal(
    describeWait({ requests: 2, maxRequests: 2 }),
    "exactly 2 request(s) at the stand-in",
  );
});

Deno.test("scan: the stand-ins and tables load only when verify runs", async () => {
  const lib = new URL("../../lib/", import.meta.url).pathname;
  const offenders: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = `${dir}${e.name}`;
      if (e.isDirectory) await walk(`${p}/`);
      else if (e.name.endsWith(".ts")) {
        const rel = p.slice(lib.length);
        if (rel.startsWith("scenarios/") || rel.startsWith("verify/")) continue;
        const src = await Deno.readTextFile(p);
        if (/^import[^;]*from\s+"[./]*(scenarios|verify)\//m.test(src)) offenders.push(rel);
      }
    }
  };
  await walk(lib);
  assert.deepEqual(offenders, [], "only dynamic import() may reach lib/scenarios or lib/verify");
});

Deno.test("graph: the compiled binary carries verify whole (tables, stand-ins), nothing from tests/", async () => {
  // `deno compile` bundles main.ts's module graph, dynamic import()s with literal paths included.
  const root = new URL("../../", import.meta.url);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string }[];
  };
  const local = graph.modules.map((m) => m.specifier).filter((s) => s.startsWith(root.href))
    .map((s) => s.slice(root.href.length));
  assert.deepEqual(local.filter((s) => s.startsWith("tests/")), []);
  for (const need of Object.keys(TABLES).map((c) => `lib/scenarios/tables/${c}.ts`)) {
    assert.ok(local.includes(need), `${need} is not in the binary's graph`);
  }
  for (const need of ["lib/verify/mod.ts", "lib/verify/report.ts", "lib/scenarios/homes.ts"]) {
    assert.ok(local.includes(need), `${need} is not in the binary's graph`);
  }
  for (const s of ["anthropic", "openai_responses", "chat_completions", "gemini"]) {
    assert.ok(local.includes(`lib/scenarios/standins/${s}.ts`), `stand-in ${s} missing`);
  }
});
