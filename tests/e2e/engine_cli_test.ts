/**
 * The engine's commands run as a user runs them (tests/helpers/drover.ts): detect on every recorded
 * screen, __prompt-profile formats, profile show/list, config check and its error contract.
 */
import assert from "node:assert/strict";
import { drover, envelope } from "../helpers/drover.ts";
import { FIELDS } from "../../lib/profile/fields.ts";

const FIXTURES = new URL("../fixtures/claude-code/", import.meta.url).pathname;

interface Screen {
  file: string;
  styled?: string;
  state: string;
  expect?: Record<string, unknown>;
}

function allScreens(): Array<{ dir: string; s: Screen }> {
  const out: Array<{ dir: string; s: Screen }> = [];
  for (const e of Deno.readDirSync(FIXTURES)) {
    if (!e.isDirectory) continue;
    const dir = `${FIXTURES}${e.name}/`;
    const m = JSON.parse(Deno.readTextFileSync(dir + "manifest.json"));
    for (const s of m.screens as Screen[]) out.push({ dir, s });
  }
  return out;
}

async function withTempDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir();
  try {
    return await f(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("detect --json prints, for every recorded screen, the verdicts its fixture expects", async () => {
  const screens = allScreens();
  assert.ok(screens.length > 0);
  const DETECT_FIELDS = [
    "cli",
    "state",
    "readiness",
    "approval",
    "live_prompt",
    "permission_prompt",
    "mid_response",
    "command",
    "file_path",
    "options",
    "broad_grant_option",
    "input_box",
    "mode",
    "stream_error",
    "context_bloat_k",
    "context_used_pct",
    "paste_buffer",
    "cli_unavailable",
    "manual_pattern",
  ];
  // A few at a time: each run is a process start on a shared machine.
  for (let i = 0; i < screens.length; i += 4) {
    await Promise.all(
      screens.slice(i, i + 4).map(async ({ dir, s }) => {
        const args = ["--json", "detect", "--cli", "claude", dir + s.file];
        if (s.styled) args.push("--styled", dir + s.styled);
        const run = await drover(args);
        assert.equal(run.code, 0, run.stderr);
        const env = envelope(run);
        assert.equal(env.schema, "drover.detect.v1");
        for (const f of DETECT_FIELDS) assert.ok(f in env.data, `${f} missing`);
        assert.equal(env.data.state, s.state, s.file);
        for (const [k, want] of Object.entries(s.expect ?? {})) {
          const got = env.data[k];
          if (want === "*" || (want === true && typeof got === "string")) {
            assert.ok(
              got !== null && got !== undefined && got !== false && got !== "",
              `${k} of ${s.file}`,
            );
          } else assert.deepEqual(got, want, `${k} of ${s.file}`);
        }
      }),
    );
  }
});

Deno.test("detect reads stdin and prints human verdicts", async () => {
  const plain = await Deno.readTextFile(`${FIXTURES}2.1.197/busy@120x40.txt`);
  const run = await drover(["detect", "-"], { stdin: plain });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^state: busy$/m);
  assert.match(run.stdout, /^mid_response: true$/m);
});

Deno.test("__prompt-profile --format tsv: a version line, then every field as name<TAB>ere", async () => {
  const run = await drover(["__prompt-profile", "--format", "tsv"]);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split("\n");
  assert.equal(lines[0], "#drover-prompt-profile\t3");
  const names = lines.slice(1).map((l) => l.split("\t")[0]);
  for (const f of FIELDS) assert.ok(names.includes(f.name), f.name);
  for (const l of lines.slice(1)) assert.equal(l.split("\t").length, 2, l);
  assert.ok(lines.includes("live_prompt_markers\tdo you want to|esc to cancel"));
  // Read back exactly as sweep.sh does: IFS=$'\t' read -r, never eval.
  const bash = await new Deno.Command("bash", {
    args: [
      "-c",
      `while IFS=$'\\t' read -r name ere; do [ "$name" = option_line_pattern ] && printf '%s' "$ere"; done`,
    ],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const w = bash.stdin.getWriter();
  await w.write(new TextEncoder().encode(run.stdout));
  await w.close();
  const out = await bash.output();
  assert.equal(new TextDecoder().decode(out.stdout), "^[0-9][.)]");
});

Deno.test("__prompt-profile --field prints one line; unknown field and bad format exit 2", async () => {
  let run = await drover(["__prompt-profile", "--field", "live_prompt_markers"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "do you want to|esc to cancel\n");
  run = await drover(["__prompt-profile", "--field", "option_line_pattern", "--cli", "whatever"]);
  assert.equal(run.stdout, "^[0-9][.)]\n");
  run = await drover(["__prompt-profile", "--field", "nope"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /unknown field "nope"/);
  run = await drover(["__prompt-profile", "--format", "yaml"]);
  assert.equal(run.code, 2);
  run = await drover(["__prompt-profile", "--format", "json"]);
  const env = envelope(run);
  assert.equal(env.data.format_version, 3);
  assert.equal(env.data.cli, "claude");
});

Deno.test("__prompt-profile reads the configured CLI's profile and fails closed on a bad config", async () => {
  await withTempDir(async (dir) => {
    const cfg = `${dir}/config.toml`;
    await Deno.writeTextFile(
      cfg,
      `default_cli = "mine"\n[clis.mine.prompt_profile]\nlive_prompt_markers = ["Proceed? [y/N]"]\n`,
    );
    let run = await drover(["--config", cfg, "__prompt-profile", "--field", "live_prompt_markers"]);
    assert.equal(run.stdout, "Proceed\\? \\[y/N\\]\n");
    await Deno.writeTextFile(cfg, `[clis.mine.prompt_profile]\npaste_buffer_pattern = '(a)\\1'\n`);
    run = await drover(["--config", cfg, "__prompt-profile"]);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.match(
      run.stderr,
      /config\.toml:2: clis\.mine\.prompt_profile\.paste_buffer_pattern: invalid pattern .*back-references/,
    );
  });
});

Deno.test("config check: an invalid file exits 2 with file:line: field: reason", async () => {
  await withTempDir(async (dir) => {
    const cfg = `${dir}/config.toml`;
    await Deno.writeTextFile(
      cfg,
      `[clis.claude]\ncommand = "claude"\n\n[clis.claude.prompt_profile]\napproval_markers = ["", "ok"]\nbogus_field = 1\n`,
    );
    const run = await drover(["--config", cfg, "config", "check"]);
    assert.equal(run.code, 2);
    assert.ok(
      run.stderr.includes(
        `${cfg}:5: clis.claude.prompt_profile.approval_markers[0]: empty marker string`,
      ),
      run.stderr,
    );
    assert.ok(
      run.stderr.includes(`${cfg}:6: clis.claude.prompt_profile.bogus_field: unknown field`),
      run.stderr,
    );
    assert.doesNotMatch(run.stderr, /\n\s+at /); // no stack trace
    const j = envelope(await drover(["--json", "--config", cfg, "config", "check"]));
    assert.equal(j.ok, false);
    assert.equal(j.error.code, "CONFIG_INVALID");
    assert.equal(j.error.details.issues[0].line, 5);
  });
});

Deno.test("config check: a git-paw file works via --config, unknown tables are reported", async () => {
  await withTempDir(async (dir) => {
    const cfg = `${dir}/config.toml`;
    await Deno.writeTextFile(
      cfg,
      `[supervisor]\ncli = "claude"\n\n[clis.my-agent]\ncommand = "my-agent"\nsubmit_delay_ms = 2500\n\n[clis.my-agent.prompt_profile]\napproval_markers = ["proceed? (y/n)"]\n`,
    );
    const run = await drover(["--config", cfg, "config", "check"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      new RegExp(`${cfg.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:1: supervisor: unknown top-level`),
    );
    assert.match(run.stdout, /\[clis\.my-agent\] command my-agent, 1 prompt_profile field/);
    const show = envelope(
      await drover(["--json", "--config", cfg, "profile", "show", "my-agent", "--sources"]),
    );
    const f = show.data.fields.find((x: { name: string }) => x.name === "approval_markers");
    assert.deepEqual(f.value, ["proceed? (y/n)"]);
    assert.deepEqual(f.source, { layer: "config", file: cfg, line: 9 });
    const other = show.data.fields.find((x: { name: string }) => x.name === "live_prompt_markers");
    assert.equal(other.source.layer, "default");
  });
});

Deno.test("config check: allow entries that name only an interpreter, a runner or a wrapper get a note", async () => {
  await withTempDir(async (dir) => {
    const cfg = `${dir}/config.toml`;
    await Deno.writeTextFile(
      cfg,
      `[drive]\napprove = "allowlist"\nallow = [\n  "npm run build",\n  "node -e",\n  "git",\n  "npx",\n  "timeout",\n]\n`,
    );
    const run = await drover(["--config", cfg, "config", "check"]);
    assert.equal(run.code, 0, run.stderr);
    const q = cfg.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    assert.match(
      run.stderr,
      new RegExp(`${q}:5: drive\\.allow: "node -e" names only node -e: it approves no command`),
    );
    assert.match(
      run.stderr,
      new RegExp(`${q}:6: drive\\.allow: "git" names only git: .*never \`git -c\``),
    );
    assert.match(run.stderr, new RegExp(`${q}:7: drive\\.allow: "npx" names only npx`));
    assert.match(run.stderr, new RegExp(`${q}:8: drive\\.allow: "timeout" names only the wrapper`));
    assert.doesNotMatch(run.stderr, /npm run build/);
    const j = envelope(await drover(["--json", "--config", cfg, "config", "check"]));
    assert.deepEqual(
      j.data.allow_notes.map((n: { entry: string; line: number }) => [n.entry, n.line]),
      [["node -e", 5], ["git", 6], ["npx", 7], ["timeout", 8]],
    );
  });
});

Deno.test("config check: a missing --config file is an error naming it", async () => {
  const run = await drover(["--config", "/nonexistent/drover.toml", "config", "check"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /\/nonexistent\/drover\.toml: configuration file not found/);
});

Deno.test("profile list and profile show", async () => {
  const list = envelope(await drover(["--json", "profile", "list"]));
  const claude = list.data.shipped.find((p: { id: string }) => p.id === "claude-code");
  assert.ok(claude.default);
  assert.equal(claude.cli_version, "2.1.332");
  assert.deepEqual(claude.verified_versions, ["2.1.197", "2.1.332"]);
  const show = await drover(["profile", "show", "claude", "--sources"]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /^verified on: Claude Code 2\.1\.197, 2\.1\.332$/m);
  const json = envelope(await drover(["--json", "profile", "show", "claude"]));
  assert.deepEqual(json.data.verified_versions, ["2.1.197", "2.1.332"]);

  assert.match(show.stdout, /^cli_unavailable_markers = /m);
  assert.match(show.stdout, /from shipped claude-code \(profiles\/claude-code\.toml:\d+\)/);
});

Deno.test("profile show: a configured CLI with no shipped profile is verified on no version", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/config.toml`, '[clis.mytool]\ncommand = "mytool"\n');
    const run = await drover([
      "--config",
      `${dir}/config.toml`,
      "--json",
      "profile",
      "show",
      "mytool",
    ]);
    const out = envelope(run);
    assert.equal(out.data.shipped, null);
    assert.deepEqual(out.data.verified_versions, []);
    const human = await drover(["--config", `${dir}/config.toml`, "profile", "show", "mytool"]);
    assert.match(human.stdout, /^verified on: none/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
