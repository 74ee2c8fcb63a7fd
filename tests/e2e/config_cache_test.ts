/**
 * The configuration cache (issue 24) through real drover processes, the cache dir given by the
 * child's XDG_CACHE_HOME: `detect FILE`, `__prompt-profile --format tsv` and `config check` print
 * the same with no cache, a cold one, a warm one and a damaged one; on a real tmux server, a cache
 * edited to widen `[drive].allow` never gets a prompt approved, while an edit of the file itself
 * (same size, same mtime) does on the very next start; a hostile or oversized file is refused
 * (exit 2, its `file:line: field`) before any key, cache warm or cold.
 */
import assert from "node:assert/strict";
import { drover, type DroverRun } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
const V = "claude-code/2.1.197";
const SIZE = "80x24";

const CONFIG = `[drive]
approve = "allowlist"
allow = ["npm test", "git status"]
nudge = "Run your sweep now."
nudge_every = "10m"
# a comment to make room: ............

[clis.claude.prompt_profile]
approval_markers = ["Do you want to proceed?", "requires approval"]
context_bloat_pattern = "(?i)(\\\\d+)k tokens"
`;

interface Home extends AsyncDisposable {
  dir: string;
  config: string;
  cacheDir: string;
  /** Run drover with this config; `cache: false` runs it with no cache dir at all. */
  run(args: string[], opts?: { cache?: boolean }): Promise<DroverRun>;
  cacheFile(): Promise<string>;
}

async function home(text = CONFIG): Promise<Home> {
  const dir = await Deno.makeTempDir({ prefix: "drover-cfgcache-e2e-" });
  const config = `${dir}/config.toml`;
  await Deno.writeTextFile(config, text);
  const cacheDir = `${dir}/cache/drover`;
  return {
    dir,
    config,
    cacheDir,
    run: (args, opts = {}) =>
      drover(["--config", config, ...args], {
        // No cache: neither XDG_CACHE_HOME nor HOME names a directory.
        env: opts.cache === false
          ? { HOME: "", XDG_CACHE_HOME: "", XDG_RUNTIME_DIR: dir }
          : { HOME: dir, XDG_CACHE_HOME: `${dir}/cache`, XDG_RUNTIME_DIR: dir },
        cwd: dir,
      }),
    async cacheFile() {
      const files = [];
      for await (const e of Deno.readDir(cacheDir)) {
        if (e.name.startsWith("config-")) files.push(`${cacheDir}/${e.name}`);
      }
      assert.equal(files.length, 1, `one cache file: ${files}`);
      return files[0];
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function same(a: DroverRun, b: DroverRun, what: string): void {
  assert.equal(b.code, a.code, `${what}: exit\n${b.stderr}`);
  assert.equal(b.stdout, a.stdout, `${what}: stdout`);
  assert.equal(b.stderr, a.stderr, `${what}: stderr`);
}

/** Flip one byte of the payload (the last line of the cache file). */
async function flipPayloadByte(file: string): Promise<void> {
  const bytes = await Deno.readFile(file);
  const at = bytes.lastIndexOf("t".charCodeAt(0));
  bytes[at] ^= 0x01;
  await Deno.writeFile(file, bytes);
}

Deno.test("config cache: detect, __prompt-profile and config check print the same with no, a cold, a warm and a damaged cache", async () => {
  await using h = await home();
  const file = `${FIXTURES}${V}/bash-prompt@120x40.txt`;
  const commands = [
    ["detect", file],
    ["--json", "detect", file],
    ["__prompt-profile", "--format", "tsv"],
    ["--json", "config", "check"],
  ];
  for (const args of commands) {
    const want = await h.run(args, { cache: false });
    assert.equal(want.code, 0, want.stderr);
    await Deno.remove(h.cacheDir, { recursive: true }).catch(() => {});
    same(want, await h.run(args), `${args.join(" ")} cold`);
    const cacheFile = await h.cacheFile();
    const written = await Deno.readTextFile(cacheFile);
    same(want, await h.run(args), `${args.join(" ")} warm`);
    assert.equal(await Deno.readTextFile(cacheFile), written, "a warm start writes nothing");
    await flipPayloadByte(cacheFile);
    same(want, await h.run(args), `${args.join(" ")} damaged`);
    assert.equal(await Deno.readTextFile(cacheFile), written, "the damaged cache is rewritten");
  }
  assert.equal((await Deno.stat(h.cacheDir)).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(await h.cacheFile())).mode! & 0o777, 0o600);
});

interface Rig extends AsyncDisposable {
  srv: TestServer;
  orch: ReplayPane;
  agent: ReplayPane;
  /** One `drive --once --json` tick with a fresh state (so nothing is deduplicated away). */
  tick(h: Home): Promise<{ run: DroverRun; keys: string; orchKeys: string }>;
}

/** Session "s": the orchestrator's ready screen, and an agent asking to run `npm run build`. */
async function rig(): Promise<Rig> {
  const srv = await startTestServer({ width: 80, height: 24 });
  const orch = await startReplay(srv, await loadScreen(`${V}/ready@${SIZE}`), { session: "s" });
  const agent = await startReplay(srv, await loadScreen(`${V}/bash-prompt-npm@${SIZE}`), {
    session: "s",
    newWindow: true,
  });
  await agent.onKey("1", await loadScreen(`${V}/bash-answered@${SIZE}`));
  let n = 0;
  return {
    srv,
    orch,
    agent,
    async tick(h) {
      const state = `${h.dir}/state-${n++}`;
      const run = await h.run([
        "-L",
        srv.name,
        "drive",
        "--session",
        "s",
        "--once",
        "--json",
        "--state",
        state,
      ]);
      // The tick has exited: once the doubles read their sentinels, a stray key would be there.
      return { run, keys: await agent.settled(), orchKeys: await orch.settled() };
    },
    async [Symbol.asyncDispose]() {
      await cleanupReplay(orch);
      await cleanupReplay(agent);
      await srv[Symbol.asyncDispose]();
    },
  };
}

// deno-lint-ignore no-explicit-any
function events(run: DroverRun): any[] {
  return run.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
    .filter((e) => e.schema === "drover.event.v1");
}

Deno.test("config cache: a cache edited to allow the prompt's command never approves it; the same edit of the file does at once", async () => {
  await using h = await home();
  await using r = await rig();
  // Cold: `npm run build` is not allowlisted, so the prompt is escalated and nothing is sent.
  const cold = await r.tick(h);
  assert.equal(cold.run.code, 0, cold.run.stderr);
  assert.equal(events(cold.run).find((e) => e.event === "escalated")?.verdict, "not-allowlisted");
  assert.equal(cold.keys, "");
  // The payload edited to allow it (the key line untouched, so it still names this file).
  const file = await h.cacheFile();
  const text = await Deno.readTextFile(file);
  const widened = text.replace(
    '"allow":["npm test","git status"]',
    '"allow":["npm test","npm run build"]',
  );
  assert.notEqual(widened, text);
  await Deno.writeTextFile(file, widened);
  const tampered = await r.tick(h);
  assert.equal(tampered.run.code, 0, tampered.run.stderr);
  assert.equal(
    events(tampered.run).filter((e) => e.event === "approved").length,
    0,
    tampered.run.stdout,
  );
  assert.equal(
    events(tampered.run).find((e) => e.event === "escalated")?.verdict,
    "not-allowlisted",
  );
  assert.equal(tampered.keys, "", "no key from a tampered cache");
  assert.equal(await Deno.readTextFile(file), text, "and the cache was rewritten from the file");
  // The same widening written into the file itself, same size and same mtime: the content hash
  // sees it on the very next start, and the prompt is approved with option 1.
  const before = await Deno.stat(h.config);
  const config = await Deno.readTextFile(h.config);
  const edited = config.replace('"git status"]', '"npm run build"]').replace("...", "");
  assert.equal(new TextEncoder().encode(edited).length, before.size);
  await Deno.writeTextFile(h.config, edited);
  await Deno.utime(h.config, before.atime!, before.mtime!);
  assert.equal((await Deno.stat(h.config)).mtime!.getTime(), before.mtime!.getTime());
  const next = await r.tick(h);
  assert.equal(next.run.code, 0, next.run.stderr);
  const approved = events(next.run).filter((e) => e.event === "approved");
  assert.equal(approved.length, 1, next.run.stdout);
  assert.equal(approved[0].command, "npm run build");
  assert.equal(next.keys, "1");
  assert.equal(next.orchKeys, "");
});

Deno.test("config cache: a hostile or oversized file is refused (exit 2) before any key, cache warm or cold", async () => {
  await using h = await home();
  await using r = await rig();
  // The good file allows the agent's command: it would be approved, had the file been taken.
  const allowed = CONFIG.replace('"git status"]', '"npm run build"]');
  const hostile: [string, string, RegExp][] = [
    [
      "a pattern that could stall a backtracking engine",
      allowed.replace("(?i)(\\\\d+)k tokens", "(a+)+$"),
      /config\.toml:10: clis\.claude\.prompt_profile\.context_bloat_pattern: invalid pattern/,
    ],
    [
      "an empty allow entry (a prefix of every command)",
      allowed.replace('"npm run build"]', '"npm run build", ""]'),
      /config\.toml:3: drive\.allow\[2\]: /,
    ],
    [
      "an empty marker",
      allowed.replace('"requires approval"', '""'),
      /config\.toml:9: clis\.claude\.prompt_profile\.approval_markers\[1\]: empty marker/,
    ],
    [
      "a file over 1 MiB",
      allowed + `# ${"x".repeat(1024 * 1024)}\n`,
      /config\.toml:1: \(file\): larger than 1 MiB/,
    ],
  ];
  for (const [what, text, reason] of hostile) {
    assert.notEqual(text, allowed, what);
    // Warm: the cache holds the good file (validated by `config check`), then the file turns bad.
    await Deno.writeTextFile(h.config, allowed);
    assert.equal((await h.run(["config", "check"])).code, 0);
    const good = await Deno.readTextFile(await h.cacheFile());
    await Deno.writeTextFile(h.config, text);
    const noCache = await h.run(["config", "check"], { cache: false });
    assert.equal(noCache.code, 2, what);
    assert.match(noCache.stdout + noCache.stderr, reason, what);
    for (const round of ["warm", "cold"]) {
      if (round === "cold") await Deno.remove(h.cacheDir, { recursive: true });
      const t = await r.tick(h);
      const out = t.run.stdout + t.run.stderr;
      assert.equal(t.run.code, 2, `${what} (${round}): ${out}`);
      assert.match(out, reason, `${what} (${round})`);
      assert.equal(t.keys, "", `${what} (${round}): no key`);
      assert.equal(t.orchKeys, "");
      if (round === "warm") {
        assert.equal(await Deno.readTextFile(await h.cacheFile()), good, "nothing cached");
      }
    }
  }
  // The control: the good file, taken, does approve the prompt.
  await Deno.writeTextFile(h.config, allowed);
  const t = await r.tick(h);
  assert.equal(t.run.code, 0, t.run.stderr);
  assert.equal(t.keys, "1");
});
