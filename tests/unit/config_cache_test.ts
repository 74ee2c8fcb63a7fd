/**
 * The configuration cache (lib/config/cache.ts, issue 24) on real files in temp dirs: a warm start
 * gives exactly the Config a cold one does; a cache that is damaged, edited, another version's,
 * a symlink, writable by others or another user's is never used and is rewritten; an edit of the
 * file (even one of the same size within the same mtime) is seen on the very next load; a file that
 * is rejected is rejected every time and never cached.
 */
import assert from "node:assert/strict";
import {
  CACHE_FORMAT,
  cacheFile,
  type CacheKey,
  cacheKey,
  type CachePayload,
  cacheText,
  readCachedConfig,
  rebuild,
} from "../../lib/config/cache.ts";
import { loadConfig } from "../../lib/config/discover.ts";
import type { Config } from "../../lib/config/load.ts";
import { compilePattern, parsePattern } from "../../lib/regex/compile.ts";
import { freezePattern } from "../../lib/regex/frozen.ts";
import { DroverError } from "../../lib/errors.ts";
import { VERSION } from "../../lib/version.ts";
import { userCacheDir } from "../../lib/io/user_dirs.ts";

const CONFIG = `default_cli = "claude"

[clis.claude]
command = "claude"
args = ["--model", "opus"]
env = { FOO = "bar" }
display_name = "Claude"

[clis.claude.prompt_profile]
approval_markers = ["Do you want to proceed?"]
context_bloat_pattern = "(?i)(\\\\d+)k tokens"
limit_reset_pattern = "resets (?P<time>\\\\d+(?::\\\\d+)?[ap]m)"

[drive]
approve = "allowlist"
allow = ["npm test", "npm run build", "git status", "git diff"]
nudge = "Run your sweep now."
nudge_every = "10m"
# padding padding padding

[tool.other]
x = 1
`;

/** `.*` frozen as the cold path freezes a pattern (it would match every line). */
const DOT_STAR = freezePattern(compilePattern(".*"), parsePattern(".*").tree);

const LINES = [
  "",
  "x",
  "  12k tokens used",
  "Usage limit reached · resets 3:30pm (Europe/Paris)",
  "Do you want to proceed?",
];

/** A Config as data: patterns by their outward parts and by what they match on sample lines. */
function plain(c: Config): unknown {
  return JSON.parse(JSON.stringify(c, (k, v) => {
    if (k !== "promptProfilePatterns") return v;
    return Object.fromEntries(
      Object.entries(v as Config["clis"][string]["promptProfilePatterns"]).map(([f, p]) => [f, {
        source: p!.source,
        jsSource: p!.jsSource,
        ignoreCase: p!.ignoreCase,
        ere: p!.ere,
        ereAlternatives: [...p!.ereAlternatives],
        names: [...p!.matcher.names],
        matches: LINES.map((l) => p!.matcher.exec(l)),
      }]),
    );
  }));
}

interface Box extends AsyncDisposable {
  root: string;
  file: string;
  cache: string;
  load(opts?: { uid?: number | null }): Promise<Config>;
  cacheFile(): Promise<string>;
  key(): Promise<CacheKey>;
}

async function box(text = CONFIG): Promise<Box> {
  const root = await Deno.makeTempDir({ prefix: "drover-cfgcache-" });
  const file = `${root}/config.toml`;
  const cache = `${root}/cache/drover`;
  await Deno.writeTextFile(file, text);
  const key = async () => {
    using f = await Deno.open(file);
    return cacheKey(file, await f.stat(), await Deno.readFile(file), root);
  };
  return {
    root,
    file,
    cache,
    load: (opts = {}) => loadConfig({ path: file, cwd: root, cacheDir: cache, ...opts }),
    cacheFile: async () => cacheFile(cache, await key()),
    key,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** What the file says with no cache at all. */
function uncached(b: Box): Promise<Config> {
  return loadConfig({ path: b.file, cwd: b.root, cacheDir: null });
}

async function hit(b: Box): Promise<Config | null> {
  return readCachedConfig({ dir: b.cache }, await b.key(), b.file, "flag");
}

async function errorOf(p: Promise<unknown>): Promise<DroverError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof DroverError, String(e));
    return e;
  }
  throw new Error("expected an error");
}

/** The cache file's three parts. */
async function parts(b: Box): Promise<{ head: string; key: string; payload: CachePayload }> {
  const [head, key, payload] = (await Deno.readTextFile(await b.cacheFile())).split("\n");
  return { head, key, payload: JSON.parse(payload) };
}

/** Write a cache for the current file whose digest is right for `payload` (a forger's cache). */
async function forge(b: Box, payload: CachePayload): Promise<void> {
  await Deno.writeTextFile(await b.cacheFile(), await cacheText(await b.key(), payload), {
    mode: 0o600,
  });
}

const sha = async (s: string) =>
  Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s))),
    (x) => x.toString(16).padStart(2, "0"),
  ).join("");

Deno.test("cache: a cold load writes it (dir 0700, file 0600); the warm load equals the uncached Config", async () => {
  await using b = await box();
  const want = plain(await uncached(b));
  assert.equal(await hit(b), null);
  const cold = await b.load();
  assert.deepEqual(plain(cold), want);
  assert.equal((await Deno.stat(b.cache)).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(await b.cacheFile())).mode! & 0o777, 0o600);
  const cached = await hit(b);
  assert.ok(cached, "the cold load left a cache that reads back");
  assert.deepEqual(plain(cached), want);
  const warm = await b.load();
  assert.deepEqual(plain(warm), want);
  assert.equal(warm.path, b.file);
  assert.equal(warm.source, "flag");
  // The thawed matcher is the compiled one: same spans, same named groups.
  const p = warm.clis.claude.promptProfilePatterns.limit_reset_pattern!;
  assert.equal(p.matcher.exec(LINES[3])?.groups?.time, "3:30pm");
});

Deno.test("cache: a flipped byte, a torn file or bytes that are not UTF-8 are a miss, and rewritten", async () => {
  await using b = await box();
  const want = plain(await uncached(b));
  await b.load();
  const good = await Deno.readFile(await b.cacheFile());
  const damaged = [
    (() => {
      const x = good.slice();
      const at = x.lastIndexOf("npm test".charCodeAt(0));
      x[at] ^= 0x01;
      return x;
    })(),
    good.slice(0, good.length - 40),
    new Uint8Array([...good.slice(0, 200), 0xff, 0xfe, ...good.slice(202)]),
    new Uint8Array(),
  ];
  for (const bytes of damaged) {
    await Deno.writeFile(await b.cacheFile(), bytes, { mode: 0o600 });
    assert.equal(await hit(b), null);
    assert.deepEqual(plain(await b.load()), want);
    assert.deepEqual(await Deno.readFile(await b.cacheFile()), good, "rewritten as it was");
  }
});

Deno.test("cache: an allow entry added to the payload (key line recomputed, digest not) never takes effect", async () => {
  await using b = await box();
  await b.load();
  const { head, payload } = await parts(b);
  payload.drive.allow = [...payload.drive.allow as string[], "rm -rf /"];
  payload.allowLines = [...payload.allowLines, 16];
  await Deno.writeTextFile(
    await b.cacheFile(),
    `${head}\n${JSON.stringify(await b.key())}\n${JSON.stringify(payload)}\n`,
  );
  assert.equal(await hit(b), null);
  const c = await b.load();
  assert.deepEqual(c.drive.allow, ["npm test", "npm run build", "git status", "git diff"]);
  assert.ok((await hit(b))?.drive.allow?.every((a) => a !== "rm -rf /"));
});

Deno.test("cache: another config's cache, moved to this file's name, is a miss (the digest binds the key)", async () => {
  await using a = await box();
  await using b = await box(CONFIG.replace('"git diff"', '"rm -rf"'));
  await a.load();
  await Deno.mkdir(b.cache, { recursive: true, mode: 0o700 });
  await Deno.copyFile(await a.cacheFile(), await b.cacheFile());
  assert.equal(await hit(b), null);
  assert.deepEqual((await b.load()).drive.allow?.at(-1), "rm -rf");
});

Deno.test("cache: even a payload whose digest is right is held to the file's rules", async () => {
  await using b = await box();
  const want = plain(await uncached(b));
  await b.load();
  const base = (await parts(b)).payload;
  const forged: [string, (p: CachePayload) => void][] = [
    ["a blank allow entry (a prefix of every command)", (p) => {
      p.drive.allow = [" "];
      p.allowLines = [15];
    }],
    ["an empty allow entry", (p) => {
      p.drive.allow = [""];
      p.allowLines = [15];
    }],
    ["approve set to something else", (p) => void (p.drive.approve = "all")],
    ["a key [drive] has not", (p) => void (p.drive.allow_all = true)],
    ["an interval below its range", (p) => void (p.drive.intervalMs = 1)],
    ["an empty marker", (p) => void (p.clis[0].promptProfile.approval_markers = [""])],
    ["an empty marker list", (p) => void (p.clis[0].promptProfile.approval_markers = [])],
    ["a field no profile has", (p) => void (p.clis[0].promptProfile.approve_everything = ["x"])],
    ["a pattern whose frozen source differs", (p) => {
      p.clis[0].promptProfile.context_bloat_pattern = "(?i)(\\d+)m tokens";
    }],
    ["a catch-all pattern", (p) => {
      // The real frozen program of `.*`, under the source of the file's own pattern.
      const own = p.clis[0].patterns.context_bloat_pattern;
      p.clis[0].patterns.context_bloat_pattern = { ...DOT_STAR, source: own.source };
    }],
    ["a pattern whose program does not thaw", (p) => {
      const own = p.clis[0].patterns.context_bloat_pattern;
      own.program = { ...own.program, sets: "no" as unknown as number[][] };
    }],
    [
      "a pattern without its frozen program",
      (p) => void delete p.clis[0].patterns.context_bloat_pattern,
    ],
    ["a limit pattern without its named group", (p) => {
      const src = p.clis[0].patterns.context_bloat_pattern;
      p.clis[0].patterns.limit_reset_pattern = src;
      p.clis[0].promptProfile.limit_reset_pattern = src.source;
    }],
    ["allow lines that do not match the entries", (p) => void p.allowLines.pop()],
  ];
  for (const [what, edit] of forged) {
    const p: CachePayload = JSON.parse(JSON.stringify(base));
    edit(p);
    assert.equal(rebuild(p, b.file, "flag"), null, what);
    await forge(b, p);
    assert.equal(await hit(b), null, what);
    assert.deepEqual(plain(await b.load()), want, what);
  }
  // The same payload unedited rebuilds (the rules reject the edits, not the payload).
  assert.ok(rebuild(JSON.parse(JSON.stringify(base)), b.file, "flag"));
});

Deno.test("cache: another drover version's or format's cache is a miss, and rewritten", async () => {
  await using b = await box();
  const want = plain(await uncached(b));
  await b.load();
  const good = await Deno.readTextFile(await b.cacheFile());
  const { key, payload } = await parts(b);
  const text = JSON.stringify(payload);
  for (const [format, version] of [[CACHE_FORMAT, "0.0.9"], [CACHE_FORMAT + 1, VERSION]]) {
    const digest = await sha(`drover-config-cache ${format} ${version}\n${key}\n${text}`);
    await Deno.writeTextFile(
      await b.cacheFile(),
      `drover-config-cache ${format} ${version} ${digest}\n${key}\n${text}\n`,
    );
    assert.equal(await hit(b), null, `${format} ${version}`);
    assert.deepEqual(plain(await b.load()), want);
    assert.equal(await Deno.readTextFile(await b.cacheFile()), good);
  }
});

Deno.test("cache: a symlink at the cache path is not followed; it is replaced and its target left", async () => {
  await using b = await box();
  const want = plain(await uncached(b));
  await b.load();
  const good = await Deno.readTextFile(await b.cacheFile());
  // A valid cache elsewhere, reached through a link: still refused (never read through a link).
  const target = `${b.root}/elsewhere.cache`;
  await Deno.writeTextFile(target, good);
  await Deno.remove(await b.cacheFile());
  await Deno.symlink(target, await b.cacheFile());
  assert.equal(await hit(b), null);
  assert.deepEqual(plain(await b.load()), want);
  const info = await Deno.lstat(await b.cacheFile());
  assert.ok(info.isFile && !info.isSymlink, "a regular file again");
  assert.equal(await Deno.readTextFile(target), good, "the link's target untouched");
  // A dangling link is replaced too.
  await Deno.remove(await b.cacheFile());
  await Deno.symlink(`${b.root}/nothing-here`, await b.cacheFile());
  assert.deepEqual(plain(await b.load()), want);
  assert.ok((await Deno.lstat(await b.cacheFile())).isFile);
  await assert.rejects(() => Deno.lstat(`${b.root}/nothing-here`), Deno.errors.NotFound);
});

Deno.test("cache: a group- or world-writable cache file is a miss, and rewritten 0600", async () => {
  await using b = await box();
  const want = plain(await uncached(b));
  await b.load();
  for (const mode of [0o620, 0o602, 0o666]) {
    await Deno.chmod(await b.cacheFile(), mode);
    assert.equal(await hit(b), null, mode.toString(8));
    assert.deepEqual(plain(await b.load()), want);
    assert.equal((await Deno.stat(await b.cacheFile())).mode! & 0o777, 0o600);
  }
});

Deno.test("cache: another user's cache, or a directory others can write, is never used nor written", async () => {
  await using b = await box();
  const want = plain(await uncached(b));
  await b.load();
  const me = Deno.uid()!;
  // Owned by someone else as far as this load is concerned: the directory already fails.
  assert.equal(
    await readCachedConfig({ dir: b.cache, uid: me + 1 }, await b.key(), b.file, "flag"),
    null,
  );
  assert.deepEqual(plain(await b.load({ uid: me + 1 })), want);
  if (me === 0) {
    // As root the file itself can be given away: the directory is ours, the file is not.
    await Deno.chown(await b.cacheFile(), 65534, null);
    assert.equal(await hit(b), null);
    assert.deepEqual(plain(await b.load()), want);
    assert.equal((await Deno.stat(await b.cacheFile())).uid, 0, "rewritten as our own");
  }
  // A cache directory others can write: not read, not written.
  await Deno.chmod(b.cache, 0o777);
  assert.equal(await hit(b), null);
  await Deno.remove(await b.cacheFile());
  assert.deepEqual(plain(await b.load()), want);
  await assert.rejects(async () => Deno.lstat(await b.cacheFile()), Deno.errors.NotFound);
});

/** Rewrite the file in place with text of the same size, and give it back its old mtime. */
async function sameSizeSameMtime(b: Box, edit: (text: string) => string): Promise<void> {
  const before = await Deno.stat(b.file);
  const text = await Deno.readTextFile(b.file);
  const next = edit(text);
  assert.notEqual(next, text);
  assert.equal(new TextEncoder().encode(next).length, before.size, "the same size");
  await Deno.writeTextFile(b.file, next);
  await Deno.utime(b.file, before.atime!, before.mtime!);
  const after = await Deno.stat(b.file);
  assert.equal(after.size, before.size);
  assert.equal(after.mtime!.getTime(), before.mtime!.getTime());
}

Deno.test("cache: a new allow entry of the same size and mtime takes effect on the very next load", async () => {
  await using b = await box();
  await b.load();
  assert.ok(await hit(b));
  await sameSizeSameMtime(
    b,
    (t) =>
      t.replace('"git diff"]', '"git diff", "make"]').replace("# padding padding", "# padding"),
  );
  const c = await b.load();
  assert.deepEqual(c.drive.allow, ["npm test", "npm run build", "git status", "git diff", "make"]);
  assert.deepEqual(plain(c), plain(await uncached(b)));
  assert.deepEqual((await hit(b))?.drive.allow, c.drive.allow);
});

Deno.test("cache: a bad pattern of the same size and mtime is rejected at once, every time, and never cached", async () => {
  await using b = await box();
  await b.load();
  const good = await Deno.readTextFile(await b.cacheFile());
  // `(a+)+$` could stall a backtracking engine: refused with its file:line: field.
  const from = "(?i)(\\\\d+)k tokens";
  await sameSizeSameMtime(b, (t) => t.replace(from, "(a+)+$".padEnd(from.length, "x")));
  const noCache = await errorOf(uncached(b));
  assert.equal(noCache.code, "CONFIG_INVALID");
  assert.equal(noCache.exitCode, 2);
  assert.match(
    noCache.message,
    /config\.toml:11: clis\.claude\.prompt_profile\.context_bloat_pattern: invalid pattern/,
  );
  for (let i = 0; i < 2; i++) {
    const e = await errorOf(b.load());
    assert.equal(e.message, noCache.message);
    assert.equal(e.exitCode, 2);
  }
  // The old file's cache is still there, unused; nothing was written for the rejected text.
  assert.equal(await Deno.readTextFile(await b.cacheFile()), good);
  assert.equal(await hit(b), null);
});

Deno.test("cache: a rejected file is never cached; each load names the same file:line: field", async () => {
  await using b = await box('[drive]\nallow = ["npm test", ""]\n');
  const first = await errorOf(b.load());
  assert.match(first.message, /config\.toml:2: drive\.allow\[1\]: /);
  assert.equal((await errorOf(b.load())).message, first.message);
  await assert.rejects(async () => Deno.lstat(await b.cacheFile()), Deno.errors.NotFound);
});

Deno.test("cache: an oversized file is refused unread by the cache, warm or cold", async () => {
  await using b = await box();
  await b.load();
  assert.ok(await hit(b));
  const big = CONFIG + `# ${"x".repeat(1024 * 1024)}\n`;
  await Deno.writeTextFile(b.file, big);
  for (let i = 0; i < 2; i++) {
    const e = await errorOf(b.load());
    assert.equal(e.exitCode, 2);
    assert.match(e.message, /config\.toml:1: \(file\): larger than 1 MiB/);
  }
  const e = await errorOf(uncached(b));
  assert.match(e.message, /larger than 1 MiB/);
});

Deno.test("cache: a file that would not read back the same (a TOML date) is not cached, and still loads", async () => {
  await using b = await box("[clis.claude]\ndisplay_name = 1979-05-27T07:32:00Z\n");
  const c = await b.load();
  assert.ok(c.clis.claude.extra.display_name instanceof Date);
  await assert.rejects(async () => Deno.lstat(await b.cacheFile()), Deno.errors.NotFound);
  assert.ok((await b.load()).clis.claude.extra.display_name instanceof Date);
});

Deno.test("cache: the cache dir is $XDG_CACHE_HOME/drover, else ~/.cache/drover, else none", () => {
  const env = (e: Record<string, string>) => (n: string) => e[n];
  assert.equal(userCacheDir(env({ XDG_CACHE_HOME: "/x/c", HOME: "/h" })), "/x/c/drover");
  assert.equal(userCacheDir(env({ XDG_CACHE_HOME: "rel", HOME: "/h/" })), "/h/.cache/drover");
  assert.equal(userCacheDir(env({ HOME: "/h" })), "/h/.cache/drover");
  assert.equal(userCacheDir(env({})), null);
});

Deno.test("cache: discovery's default cache dir comes from the injected environment", async () => {
  await using b = await box();
  const home = `${b.root}/home`;
  const c = await loadConfig({ path: b.file, cwd: b.root, env: (n) => ({ HOME: home })[n] });
  assert.deepEqual(plain(c), plain(await uncached(b)));
  const names = (await Array.fromAsync(Deno.readDir(`${home}/.cache/drover`))).map((e) => e.name);
  assert.equal(names.length, 1);
  assert.match(names[0], /^config-[0-9a-f]{32}\.cache$/);
});
