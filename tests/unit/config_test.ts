import assert from "node:assert/strict";
import { DroverError } from "../../lib/errors.ts";
import { discoverConfig, loadConfig } from "../../lib/config/discover.ts";
import { parseConfig } from "../../lib/config/load.ts";
import { keyLines } from "../../lib/toml/key_lines.ts";
import { parseDuration } from "../../lib/config/duration.ts";
import { resolveDriveOptions } from "../../lib/drive/options.ts";

function configError(text: string): DroverError {
  try {
    parseConfig(text, "/x/config.toml");
  } catch (e) {
    assert.ok(e instanceof DroverError, String(e));
    assert.equal(e.code, "CONFIG_INVALID");
    assert.equal(e.exitCode, 2);
    return e;
  }
  throw new Error("expected CONFIG_INVALID");
}

Deno.test("a full configuration parses: clis, prompt_profile, drive", () => {
  const c = parseConfig(
    `default_cli = "claude"

[clis.claude]
command = "claude"
args = ["--model", "opus"]
prompt = "positional"
env = { FOO = "bar" }
enabled = true

[clis.claude.prompt_profile]
approval_markers = ["requires approval", "do you want to proceed"]

[drive]
orchestrator = "agents:0.0"
approve = "allowlist"
allow = ["npm test", "git status"]
nudge = "Run your sweep now."
nudge_every = "10m"
dedup_window = "5m"
`,
    "/x/config.toml",
  );
  assert.equal(c.defaultCli, "claude");
  const e = c.clis.claude;
  assert.deepEqual(e.args, ["--model", "opus"]);
  assert.equal(e.prompt, "positional");
  assert.deepEqual(e.env, { FOO: "bar" });
  assert.deepEqual(e.promptProfile.approval_markers, [
    "requires approval",
    "do you want to proceed",
  ]);
  assert.equal(e.promptProfileLines.approval_markers, 11);
  assert.equal(c.drive.approve, "allowlist");
  assert.equal(c.drive.nudgeEveryMs, 600_000);
  assert.equal(c.drive.dedupWindowMs, 300_000);
  assert.deepEqual(c.drive.allow, ["npm test", "git status"]);
});

Deno.test("prompt_profile errors name file:line: field: reason", () => {
  const e = configError(`[clis.claude]
command = "claude"

[clis.claude.prompt_profile]
approval_markers = ["ok", ""]
readiness_markerz = ["x"]
live_prompt_markers = []
file_prompt_pattern = '(?<=a)b'
option_line_pattern = 7
`);
  const lines = e.message.split("\n");
  assert.ok(
    lines.includes(
      "/x/config.toml:5: clis.claude.prompt_profile.approval_markers[1]: empty marker string (it would match every line)",
    ),
    e.message,
  );
  assert.ok(
    lines.some((l) =>
      l.startsWith(
        "/x/config.toml:6: clis.claude.prompt_profile.readiness_markerz: unknown field (did you mean readiness_markers?)",
      )
    ),
    e.message,
  );
  assert.ok(
    lines.some((l) =>
      l.startsWith("/x/config.toml:7: clis.claude.prompt_profile.live_prompt_markers: empty list")
    ),
    e.message,
  );
  assert.ok(
    lines.some((l) =>
      l.startsWith(
        "/x/config.toml:8: clis.claude.prompt_profile.file_prompt_pattern: invalid pattern",
      ) && l.includes("look-around")
    ),
    e.message,
  );
  assert.ok(
    lines.some((l) =>
      l.startsWith(
        "/x/config.toml:9: clis.claude.prompt_profile.option_line_pattern: must be a string",
      )
    ),
    e.message,
  );
});

Deno.test("a multi-line marker array reports the element's own line", () => {
  const e = configError(`[clis.x.prompt_profile]
approval_markers = [
  "fine",
  "   ",
]
`);
  assert.match(
    e.message,
    /^\/x\/config\.toml:4: clis\.x\.prompt_profile\.approval_markers\[1\]: marker is only whitespace/,
  );
});

Deno.test("TOML syntax errors carry their line", () => {
  const e = configError(`default_cli = "claude"\n[clis.claude\n`);
  assert.match(e.message, /^\/x\/config\.toml:2: \(toml\): /);
});

Deno.test("wrong types in [clis.*] and [drive] are errors with lines", () => {
  const e = configError(`[clis.a]
command = 3
prompt = "stdin"
enabled = "yes"
comand = "x"

[drive]
approve = "always"
nudge_every = "soon"
bogus = 1
`);
  const m = e.message;
  assert.match(m, /config\.toml:2: clis\.a\.command: must be a non-empty string/);
  assert.match(
    m,
    /config\.toml:3: clis\.a\.prompt: must be "positional", "none" or "flag:--<flag>"/,
  );
  assert.match(m, /config\.toml:4: clis\.a\.enabled: must be true or false/);
  assert.match(m, /config\.toml:5: clis\.a\.comand: unknown key/);
  assert.match(m, /config\.toml:8: drive\.approve: must be "none" or "allowlist"/);
  assert.match(m, /config\.toml:9: drive\.nudge_every: "soon" is not a duration/);
  assert.match(m, /config\.toml:10: drive\.bogus: unknown key/);
});

Deno.test("a git-paw style file loads: its [clis] keys are kept, other tables reported", () => {
  const c = parseConfig(
    `default_cli = "claude"

[supervisor]
enabled = true
cli = "claude"

[broker]
port = 9119

[clis.my-agent]
command = "my-agent"
display_name = "My Agent"
submit_delay_ms = 2500
approval_args = { auto = "--yes" }

[clis.my-agent.prompt_profile]
readiness_markers = ["my-agent ready"]
approval_markers = ["proceed? (y/n)"]
broad_grant_marker = "remember this choice"
`,
    "/repo/.git-paw/config.toml",
  );
  assert.deepEqual(c.unknown.map((u) => [u.key, u.line]), [["supervisor", 3], ["broker", 7]]);
  assert.equal(c.clis["my-agent"].extra.submit_delay_ms, 2500);
  assert.equal(c.clis["my-agent"].promptProfile.broad_grant_marker, "remember this choice");
});

Deno.test("discovery order: --config, $DROVER_CONFIG, .drover/ upward, XDG", async () => {
  const root = await Deno.makeTempDir();
  try {
    const deep = `${root}/a/b/c`;
    await Deno.mkdir(deep, { recursive: true });
    await Deno.mkdir(`${root}/a/.drover`);
    await Deno.writeTextFile(`${root}/a/.drover/config.toml`, `default_cli = "project"\n`);
    await Deno.mkdir(`${root}/xdg/drover`, { recursive: true });
    await Deno.writeTextFile(`${root}/xdg/drover/config.toml`, `default_cli = "xdg"\n`);
    await Deno.writeTextFile(`${root}/env.toml`, `default_cli = "env"\n`);
    await Deno.writeTextFile(`${root}/flag.toml`, `default_cli = "flag"\n`);
    const env = (vars: Record<string, string>) => (n: string) => vars[n];
    const xdg = { XDG_CONFIG_HOME: `${root}/xdg` };

    let c = await loadConfig({
      path: `${root}/flag.toml`,
      cwd: deep,
      env: env({ ...xdg, DROVER_CONFIG: `${root}/env.toml` }),
    });
    assert.equal(c.defaultCli, "flag");
    assert.equal(c.source, "flag");
    c = await loadConfig({ cwd: deep, env: env({ ...xdg, DROVER_CONFIG: `${root}/env.toml` }) });
    assert.equal(c.defaultCli, "env");
    c = await loadConfig({ cwd: deep, env: env(xdg) });
    assert.equal(c.defaultCli, "project");
    assert.equal(c.source, "project");
    c = await loadConfig({ cwd: root, env: env(xdg) });
    assert.equal(c.defaultCli, "xdg");
    assert.equal(c.source, "user");
    c = await loadConfig({ cwd: root, env: env({ HOME: `${root}/nohome` }) });
    assert.equal(c.path, null);
    assert.equal(c.source, "none");
    assert.equal(await discoverConfig({ cwd: root, env: env({}) }), null);
    await assert.rejects(
      () => loadConfig({ path: `${root}/missing.toml` }),
      (e: unknown) =>
        e instanceof DroverError && e.code === "CONFIG_INVALID" && /not found/.test(e.message),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("key lines: headers, dotted and quoted keys, inline tables, multi-line strings", () => {
  const k = keyLines(`a = 1
[t]
"quoted key" = 2
x.y = 3
s = """
[not.a.table]
z = 9
"""
arr = [ "p", "q" ]
inl = { k = 1 }
[[list]]
v = 1
[[list]]
v = 2
`);
  assert.equal(k.lineOf(["a"]), 1);
  assert.equal(k.lineOf(["t", "quoted key"]), 3);
  assert.equal(k.lineOf(["t", "x", "y"]), 4);
  assert.equal(k.has(["not", "a", "table"]), false);
  assert.equal(k.lineOf(["t", "arr", 1]), 9);
  assert.equal(k.lineOf(["t", "inl", "k"]), 10);
  assert.equal(k.lineOf(["list", "1", "v"]), 14);
});

Deno.test("durations: one grammar (units d h m s ms, largest first, each once; no bare number)", () => {
  assert.equal(parseDuration("15s"), 15000);
  assert.equal(parseDuration("1h30m"), 5_400_000);
  assert.equal(parseDuration("500ms"), 500);
  assert.equal(parseDuration("1d"), 86_400_000);
  assert.equal(parseDuration("1d12h"), 129_600_000);
  assert.equal(parseDuration("1.5h"), 5_400_000);
  assert.equal(parseDuration(" 2m "), 120_000);
  assert.equal(parseDuration("0s"), 0);
  assert.equal(parseDuration("1m500ms"), 60_500);
  for (
    const bad of [
      "10",
      "1.5",
      "soon",
      "",
      "1 h",
      "30m1h",
      "1h1h",
      "-5s",
      "+5s",
      "1w",
      "5sec",
      "1.s",
      ".5s",
      "1h30",
    ]
  ) {
    assert.equal(parseDuration(bad), null, bad);
  }
});

/**
 * Issue 25: `nudge_every = "1d"` was refused in the file while `--nudge-every 1d` was taken, and a
 * bare `--interval 15` meant seconds on the command line only. Every text must now get the same
 * answer from [drive] as from the flag of the same name: the same milliseconds, or a refusal.
 */
Deno.test("durations: [drive] keys and their flags take and refuse the same texts", () => {
  const env = (k: string) => ({ HOME: "/home/u" } as Record<string, string>)[k];
  const keys = {
    interval: ["interval", "intervalMs"],
    nudge_every: ["nudgeEvery", "nudgeEveryMs"],
    dedup_window: ["dedupWindow", "dedupWindowMs"],
    hook_timeout: ["hookTimeout", "hookTimeoutMs"],
    resume_margin: ["resumeMargin", "resumeMarginMs"],
  } as const;
  const texts = ["1d", "2h", "1h30m", "15s", "10", "0s", "50ms", "1.5m", "30m1h", "25h", "1 h"];
  for (const [key, [flag, field]] of Object.entries(keys)) {
    for (const text of texts) {
      const extra = key === "nudge_every"
        ? { nudge: "go" }
        : key === "resume_margin"
        ? { resume: "go" }
        : {};
      let fromFile: number | string;
      try {
        const cfg = parseConfig(
          `[drive]\n${key} = ${JSON.stringify(text)}\n${
            Object.entries(extra).map(([k, v]) => `${k} = "${v}"`).join("\n")
          }\n`,
          "c.toml",
        );
        fromFile = resolveDriveOptions({ session: "s" }, cfg.drive, env)[field] as number;
      } catch (e) {
        fromFile = `refused: ${(e as DroverError).code}`;
      }
      let fromFlag: number | string;
      try {
        fromFlag = resolveDriveOptions(
          { session: "s", ...extra, [flag]: text },
          {},
          env,
        )[field] as number;
      } catch (e) {
        fromFlag = `refused: ${(e as DroverError).code}`;
      }
      const same = typeof fromFile === "number"
        ? fromFile === fromFlag
        : typeof fromFlag === "string";
      assert.ok(
        same,
        `${key} = "${text}": the file gives ${fromFile}, --${flag} gives ${fromFlag}`,
      );
    }
  }
  // "1d" is a day in both; where a range allows it
  assert.equal(
    resolveDriveOptions({ session: "s", dedupWindow: "1d" }, {}, env).dedupWindowMs,
    86_400_000,
  );
  assert.equal(
    parseConfig('[drive]\ndedup_window = "1d"\n', "c.toml").drive.dedupWindowMs,
    86_400_000,
  );
  // …and a range names the key in the file and the flag on the command line
  assert.throws(
    () => parseConfig('[drive]\ninterval = "50ms"\n', "c.toml"),
    /c\.toml:2: drive\.interval: must be at least 100ms, got "50ms"/,
  );
  assert.throws(
    () => resolveDriveOptions({ session: "s", interval: "50ms" }, {}, env),
    /--interval must be at least 100ms/,
  );
});
