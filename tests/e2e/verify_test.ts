/**
 * `drover verify` end to end: against the real pinned Claude Code (skipped with a reason when the
 * lab CLIs are not installed) and against a fake Claude-like program (tests/fakes/fake_claude.ts)
 * that speaks the Anthropic stand-in and can print changed wording. Every run goes through the CLI
 * (tests/helpers/drover.ts: the compiled binary with DROVER_BIN, else main.ts).
 */
import assert from "node:assert/strict";
import { Ajv } from "../../lib/deps/ajv.ts";
import { drover, type DroverRun, envelope, REPO_ROOT } from "../helpers/drover.ts";
import { droverCommand } from "../helpers/drover.ts";
import { testWithTools } from "../helpers/tools.ts";

const CLAUDE_BIN =
  `${REPO_ROOT}tests/lab/clis/node_modules/@anthropic-ai/claude-code-linux-x64/claude`;
const FAKE = `${REPO_ROOT}tests/fakes/fake_claude.ts`;
const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;

async function exists(p: string): Promise<boolean> {
  try {
    await Deno.stat(p);
    return true;
  } catch {
    return false;
  }
}

/** A temp dir for one test, removed afterwards. */
async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "drover-verify-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** An executable that runs the fake Claude Code (with a wording variant). */
async function fakeCli(dir: string, variant = ""): Promise<string> {
  const path = `${dir}/fake-claude${variant ? `-${variant}` : ""}`;
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nexec ${Deno.execPath()} run -A --quiet --no-config ${FAKE}${
      variant ? ` --variant=${variant}` : ""
    } "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

async function config(dir: string, command: string, extra = ""): Promise<string> {
  const path = `${dir}/config.toml`;
  await Deno.writeTextFile(path, `[clis.claude]\ncommand = ${JSON.stringify(command)}\n${extra}`);
  return path;
}

let validator: ((x: unknown) => string | null) | undefined;
async function validate(x: unknown): Promise<string | null> {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: true });
    const schema = JSON.parse(
      await Deno.readTextFile(`${REPO_ROOT}docs/schemas/drover.verify.v1.json`),
    );
    const v = ajv.compile(schema);
    validator = (x) => v(x) ? null : ajv.errorsText(v.errors, { separator: "\n" });
  }
  return validator(x);
}

// deno-lint-ignore no-explicit-any
type Loose = any;

function scenarios(run: DroverRun): Record<string, Loose> {
  const env = envelope(run);
  assert.ok(env.ok, run.stdout + run.stderr);
  return Object.fromEntries(env.data.clis[0].scenarios.map((s: Loose) => [s.scenario, s]));
}

function failing(run: DroverRun): string[] {
  return Object.values(scenarios(run)).filter((s) => s.status !== "hold" && s.status !== "skipped")
    .map((s) => s.scenario).sort();
}

Deno.test("verify: usage errors exit 2 and start nothing", async () => {
  const unknown = await drover(["verify", "--cli", "kimi"]);
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, /no scenarios for "kimi".*claude/);
  const both = await drover(["--json", "verify", "--all", "--cli", "claude"]);
  assert.equal(both.code, 2);
  const env = envelope(both);
  assert.equal(env.ok, false);
  assert.equal(env.error.code, "INVALID_ARGUMENT");
  assert.equal(await validate(env), null);
});

Deno.test("verify: a CLI that is not installed is reported as such, exit 69", async () => {
  await withDir(async (dir) => {
    const cfg = await config(dir, `${dir}/no-such-claude`);
    const r = await drover(["--config", cfg, "--json", "verify", "--cli", "claude"]);
    assert.equal(r.code, 69, r.stdout + r.stderr);
    const env = envelope(r);
    assert.equal(await validate(env), null);
    assert.equal(env.data.clis[0].status, "not-installed");
    assert.equal(env.data.exit_code, 69);
    const human = await drover(["--config", cfg, "verify", "--cli", "claude"]);
    assert.equal(human.code, 69);
    assert.match(human.stdout, /claude: not installed/);
  });
});

Deno.test("verify --all: the fake Claude Code holds every scenario, the CLIs not installed are listed; --json validates", async () => {
  await withDir(async (dir) => {
    // Every other CLI points at a command that does not exist: not installed, not a failure.
    const others = ["codex", "gemini", "qwen", "opencode", "copilot", "cline"]
      .map((c) => `[clis.${c}]\ncommand = ${JSON.stringify(`${dir}/no-such-${c}`)}\n`).join("");
    const cfg = await config(dir, await fakeCli(dir), others);
    const r = await drover(["--config", cfg, "--json", "verify", "--all", "--keep-going"]);
    const env = envelope(r);
    assert.equal(await validate(env), null);
    assert.deepEqual(failing(r), [], r.stdout + r.stderr);
    assert.equal(r.code, 0);
    const clis = env.data.clis as Loose[];
    assert.deepEqual(clis.map((c) => [c.cli, c.status]), [
      ["claude", "hold"],
      ["codex", "not-installed"],
      ["gemini", "not-installed"],
      ["qwen", "not-installed"],
      ["opencode", "not-installed"],
      ["copilot", "not-installed"],
      ["cline", "not-installed"],
    ]);
    assert.equal(clis[0].version, "2.1.197");
    assert.equal(clis[0].counts.hold, 13);
    assert.equal(clis[0].summary, "claude 2.1.197: 13/13 scenarios hold");
    // Progress: one line per scenario as it finishes, on stderr; the CLIs not installed too.
    assert.equal(r.stderr.split("\n").filter((l) => l.startsWith("  ✓ claude ")).length, 13);
    assert.match(r.stderr, /verify: codex: not installed/);
  });
});

Deno.test("verify: changed wording in the CLI is drift (exit 1) naming the profile field", async () => {
  await withDir(async (dir) => {
    const cfg = await config(dir, await fakeCli(dir, "changed-busy"));
    const r = await drover(["--config", cfg, "verify", "--cli", "claude", "--keep-going"]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /busy .*✗/);
    assert.match(r.stdout, /field mid_response_markers = \["esc to interrupt",.*: no line matches/);
    // The retry line ("✻ API error · Retrying in 1s · attempt 2/10") is a busy line by itself
    // (mid_response_pattern), so only the plain busy screen drifts.
    assert.match(r.stdout, /claude 2\.1\.197: 12\/13 scenarios hold, 1 drifted/);
    const j = await drover([
      "--config",
      cfg,
      "--json",
      "verify",
      "--cli",
      "claude",
      "--keep-going",
    ]);
    assert.deepEqual(failing(j), ["busy"]);
    const busy = scenarios(j).busy;
    assert.equal(busy.fields[0].field, "mid_response_markers");
    assert.equal(busy.fields[0].role, "expected-missing");
  });
});

Deno.test("verify: without --keep-going the first drift stops the run", async () => {
  await withDir(async (dir) => {
    const cfg = await config(dir, await fakeCli(dir, "changed-busy"));
    const r = await drover(["--config", cfg, "--json", "verify", "--cli", "claude"]);
    assert.equal(r.code, 1);
    const all = Object.values(scenarios(r));
    assert.ok(all.some((s) => s.status === "drift"));
    assert.ok(
      all.every((s) =>
        s.status !== "not-run" || /stopped at the first drift|did not reach/.test(s.reason)
      ),
    );
  });
});

/** Every process whose command line mentions `needle` (from /proc). */
async function processesWith(needle: string): Promise<number[]> {
  const out: number[] = [];
  for await (const e of Deno.readDir("/proc")) {
    if (!/^[0-9]+$/.test(e.name)) continue;
    try {
      const cmd = await Deno.readTextFile(`/proc/${e.name}/cmdline`);
      if (cmd.includes(needle)) out.push(Number(e.name));
    } catch { /* gone */ }
  }
  return out;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.test(`verify: ${signal} mid-run ends every process it started (exit 130)`, async () => {
    await withDir(async (dir) => {
      const cfg = await config(dir, await fakeCli(dir));
      const [exe, pre] = droverCommand();
      const child = new Deno.Command(exe, {
        args: [...pre, "--config", cfg, "verify", "--cli", "claude", "--keep-going"],
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).spawn();
      const dec = new TextDecoder();
      let err = "";
      const reader = (async () => {
        for await (const c of child.stderr) err += dec.decode(c);
      })();
      const out = new Response(child.stdout).text();
      const deadline = Date.now() + 60_000;
      while (!err.includes("✓ claude ready") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(err.includes("✓ claude ready"), err);
      assert.ok((await processesWith(dir)).length > 0, "the fake CLI should be running");
      child.kill(signal);
      const status = await child.status;
      await reader;
      await out;
      assert.equal(status.code, 130, err);
      assert.match(err, /interrupted; every process it started has ended/);
      // Nothing it started is left: no fake CLI, no private tmux server of that pid.
      assert.deepEqual(await processesWith(dir), []);
      assert.deepEqual(await processesWith(`drover-verify-${child.pid}-`), []);
      const uid = Deno.uid();
      const sockets = [];
      for await (const e of Deno.readDir(`/tmp/tmux-${uid}`)) {
        if (e.name.startsWith(`drover-verify-${child.pid}-`)) sockets.push(e.name);
      }
      for (const s of sockets) {
        const alive = await new Deno.Command("tmux", {
          args: ["-L", s, "list-sessions"],
          stdout: "null",
          stderr: "null",
        }).output();
        assert.notEqual(alive.code, 0, `tmux server ${s} is still running`);
      }
    });
  });
}

/** Path → sha256 of every file under `root` (and the set of directories). */
async function treeHash(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory) {
        out[p] = "dir";
        await walk(p);
      } else {
        const st = await Deno.lstat(p);
        const bytes = e.isFile ? await Deno.readFile(p) : new TextEncoder().encode("link");
        const h = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
        out[p] = `${st.mode}:${Array.from(h, (b) => b.toString(16).padStart(2, "0")).join("")}`;
      }
    }
  };
  await walk(root);
  return out;
}

/** The real-CLI tests need the pinned Claude Code (tests/helpers/tools.ts: skipped with the
 * reason printed when it is not installed, a failure under DROVER_STRICT_SKIPS=1 as in CI). */
const REAL_CLAUDE = {
  files: [CLAUDE_BIN],
  hint: "npm install --prefix tests/lab/clis --no-save --ignore-scripts; .ci/run installs it",
};

testWithTools(
  "verify: the real Claude Code under env -i with a bare HOME: every scenario holds, HOME untouched, --save feeds profile test",
  [],
  async () => {
    await withDir(async (dir) => {
      const home = `${dir}/home`;
      await Deno.mkdir(`${home}/.config/drover`, { recursive: true });
      // The user's config lives in that HOME, as it would on a new server.
      await Deno.writeTextFile(
        `${home}/.config/drover/config.toml`,
        `[clis.claude]\ncommand = ${JSON.stringify(CLAUDE_BIN)}\n`,
      );
      await Deno.writeTextFile(`${home}/.claude.json`, '{"userSettings":"the user\'s own"}\n');
      const before = await treeHash(home);
      const save = `${dir}/captures`;
      const r = await drover([
        "--json",
        "verify",
        "--cli",
        "claude",
        "--keep-going",
        "--save",
        save,
      ], {
        clearEnv: true,
        env: { PATH: "/usr/bin:/bin", HOME: home, DENO_DIR },
        cwd: dir,
      });
      const env = envelope(r);
      assert.equal(await validate(env), null);
      assert.deepEqual(failing(r), [], r.stdout + r.stderr);
      assert.equal(r.code, 0);
      assert.deepEqual(await treeHash(home), before, "verify changed the given HOME");
      const c = env.data.clis[0];
      assert.equal(c.counts.hold, 13);
      assert.match(c.version, /^\d+\.\d+\.\d+/);
      // The captures are in the layout profile test reads, and it agrees with every one.
      const pt = await drover(["--json", "profile", "test", "--cli", "claude", `${save}/claude`]);
      assert.equal(pt.code, 0, pt.stdout + pt.stderr);
      assert.equal(envelope(pt).data.screens.length, 12);
      const manifest = JSON.parse(await Deno.readTextFile(`${save}/claude/manifest.json`));
      assert.equal(manifest.cli, "claude");
      assert.equal(manifest.screens.length, 12);
      for (const s of manifest.screens) {
        assert.ok(await exists(`${save}/claude/${s.file}`), s.file);
        assert.ok(await exists(`${save}/claude/${s.styled}`), s.styled);
      }
    });
  },
  REAL_CLAUDE,
);

testWithTools(
  "verify: a wrong marker in the user's config fails exactly the scenarios it decides",
  [],
  async () => {
    await withDir(async (dir) => {
      // mid_response_markers, mid_response_pattern and activity_line_pattern decide busy: a busy
      // footer and busy lines nobody prints turn both busy screens idle.
      const cfg = await config(
        dir,
        CLAUDE_BIN,
        `[clis.claude.prompt_profile]\nmid_response_markers = ["esc to halt the turn"]\n` +
          `mid_response_pattern = '^never drawn'\nactivity_line_pattern = '^never drawn either'\n`,
      );
      const r = await drover([
        "--config",
        cfg,
        "--json",
        "verify",
        "--cli",
        "claude",
        "--keep-going",
      ]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.deepEqual(failing(r), ["busy", "retrying"]);
      const busy = scenarios(r).busy;
      assert.equal(busy.fields[0].field, "mid_response_markers");
      assert.deepEqual(busy.fields[0].value, ["esc to halt the turn"]);
    });
  },
  REAL_CLAUDE,
);
