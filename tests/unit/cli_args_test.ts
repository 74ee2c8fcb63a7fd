import assert from "node:assert/strict";
import { type CommandSpec, formatHelp, parseArgv, suggest } from "../../lib/deps/cli.ts";
import { optionOf } from "../../lib/deps/argv.ts";
import { type Entry, ROOT } from "../../lib/cli/commands.ts";
import { CONDITIONS, WAIT_DEFAULT_TIMEOUT_S, WAIT_TIMEOUT_RANGE } from "../../lib/launch/wait.ts";
import { DIRECTIONS } from "../../lib/launch/launch.ts";
import { READ_DEFAULTS, READ_RANGES } from "../../lib/launch/read.ts";
import { SCREEN_STATES } from "../../lib/cli/profile_test_cmd.ts";

function walk(e: Entry, path: Entry[] = []): Entry[][] {
  const here = [...path, e];
  return [here, ...(e.commands ?? []).flatMap((c) => walk(c, here))];
}

const byPath = (names: string) =>
  walk(ROOT).find((p) => p.map((e) => e.name).join(" ") === `drover ${names}`)!.at(-1)!;
const optHelp = (cmd: string, flags: string) =>
  byPath(cmd).options!.find((o) => o.flags === flags)!.help;

Deno.test("command table: every flag and argument spec parses; leaves have code and a schema", () => {
  for (const path of walk(ROOT)) {
    const e = path.at(-1)!;
    for (const o of e.options ?? []) optionOf(o);
    formatHelp(path);
    if (e === ROOT || e.commands) {
      assert.equal(e.load, undefined, e.name);
      continue;
    }
    assert.ok(e.load, `${e.name} has no load`);
    assert.match(e.schema ?? "", /^drover\.[a-z-]+\.v1$/, e.name);
  }
});

Deno.test("command table: help text quoting a constant matches the constant", () => {
  assert.equal(optHelp("wait", "--until <condition>"), CONDITIONS.join("|"));
  assert.equal(
    optHelp("wait", "--timeout <s>"),
    `seconds, ${WAIT_TIMEOUT_RANGE.join("-")} (default ${WAIT_DEFAULT_TIMEOUT_S})`,
  );
  const split = byPath("launch").options!.find((o) => o.flags === "--split <direction>")!;
  assert.deepEqual(split.choices, [...DIRECTIONS]);
  assert.equal(
    optHelp("read", "--stable-interval <ms>"),
    `sampling interval, ${
      READ_RANGES.intervalMs.join("-")
    } ms (default ${READ_DEFAULTS.intervalMs})`,
  );
  assert.match(
    optHelp("read", "--stable-period <ms>"),
    new RegExp(`${READ_RANGES.periodMs.join("-")} ms \\(default ${READ_DEFAULTS.periodMs}\\)`),
  );
  assert.equal(
    optHelp("read", "--wait-timeout <s>"),
    `give up after this many seconds, ${
      READ_RANGES.timeoutS.join("-")
    } (default ${READ_DEFAULTS.timeoutS})`,
  );
  const states = SCREEN_STATES.filter((s) => s !== "unknown").join(", ");
  assert.equal(optHelp("capture", "--as <state>"), `the state the screen shows: ${states}`);
});

Deno.test("command table: every command module loads and exports an action", async () => {
  for (const path of walk(ROOT)) {
    const e = path.at(-1)!;
    if (!e.load) continue;
    const mod = await e.load();
    assert.equal(typeof mod.action, "function", e.name);
  }
});

const run = (...argv: string[]) => parseArgv(ROOT, argv);
const names = (p: { path: CommandSpec[] }) => p.path.map((c) => c.name).join(" ");

Deno.test("argv: global options before or after the command, values in every spelling", () => {
  for (
    const argv of [
      ["-L", "s", "--json", "panes"],
      ["panes", "-L", "s", "--json"],
      ["--json", "panes", "-Ls"],
      ["panes", "--socket-name=s", "--json"],
    ]
  ) {
    const p = run(...argv);
    assert.equal(p.error, undefined, argv.join(" "));
    assert.equal(names(p), "drover panes");
    assert.deepEqual(p.globals, { socketName: "s", json: true }, argv.join(" "));
    assert.deepEqual(p.opts, { format: "human" }, "defaults applied");
  }
  assert.deepEqual(run("--no-color", "--config", "c.toml", "detect").globals, {
    color: false,
    config: "c.toml",
  });
});

Deno.test("argv: positional, variadic, -- and options between arguments", () => {
  const p = run("send", "%1", "hello", "--cli", "codex", "world");
  assert.deepEqual(p.args, { target: "%1", text: ["hello", "world"] });
  assert.deepEqual(p.opts, { cli: "codex" });
  const dashed = run("send", "%1", "--", "--json", "-rf");
  assert.deepEqual(dashed.args, { target: "%1", text: ["--json", "-rf"] });
  assert.equal(dashed.globals.json, undefined, "after -- nothing is an option");
  assert.deepEqual(run("send", "--", "%1").args, { target: "%1", text: [] });
  assert.deepEqual(run("detect").args, {});
  assert.deepEqual(run("profile", "show", "codex", "--sources").args, { name: "codex" });
});

Deno.test("argv: a value option takes the next word even when it starts with a dash", () => {
  assert.deepEqual(run("drive", "--nudge", "-x", "--title-less").opts.nudge, "-x");
  assert.equal(run("read", "%1", "--last", "-5").opts.last, "-5");
  assert.equal(run("launch", "--cli", "c", "--title", "--help").help, undefined);
  assert.equal(run("launch", "--cli", "c", "--title", "--help").opts.title, "--help");
  assert.equal(run("drive", "--cli=", "x").error?.message, "unknown option '--cli='");
  assert.equal(run("launch", "--cli=").opts.cli, "");
});

Deno.test("argv: repeatable, negated and boolean options", () => {
  assert.deepEqual(run("drive", "--allow", "a", "--allow", "b c").opts.allow, ["a", "b c"]);
  assert.deepEqual(run("clis", "list", "--no-probe").opts, { probe: false });
  assert.deepEqual(run("approve", "%1", "--dry-run").opts, { dryRun: true });
});

Deno.test("argv: usage errors read as before, with suggestions", () => {
  const cases: [string[], string, string?][] = [
    [["bogus"], "unknown command 'bogus'"],
    [["detec"], "unknown command 'detec'", "Did you mean detect?"],
    [["--jsn"], "unknown option '--jsn'", "Did you mean --json?"],
    [["-x"], "unknown option '-x'"],
    [["send"], "missing required argument 'target'"],
    [["send", "-t"], "unknown option '-t'"],
    [["read", "%1", "--last"], "option '--last <n>' argument missing"],
    [["-L"], "option '-L, --socket-name <name>' argument missing"],
    [["detect", "--clii", "x"], "unknown option '--clii'", "Did you mean --cli?"],
    [["detect", "a", "b"], "too many arguments for 'detect'. Expected 1 argument but got 2: a, b."],
    [
      ["panes", "--format=xml"],
      "option '--format <format>' argument 'xml' is invalid. Allowed choices are human, tsv.",
    ],
    [["launch"], "required option '--cli <name>' not specified"],
    [["clis", "lst"], "unknown command 'lst'", "Did you mean list?"],
    [["clis", "list", "--probe"], "unknown option '--probe'", "Did you mean --no-probe?"],
    [["drive", "--no-once"], "unknown option '--no-once'", "Did you mean --once?"],
    [
      ["sweep-script", "x"],
      "too many arguments for 'sweep-script'. Expected 0 arguments but got 1: x.",
    ],
  ];
  for (const [argv, message, suggestion] of cases) {
    const p = run(...argv);
    assert.equal(p.error?.message, message, argv.join(" "));
    assert.equal(p.error?.suggestion, suggestion, argv.join(" "));
  }
  assert.deepEqual(suggest("--sesion", ["--session", "--version"]), ["--session"]);
  assert.deepEqual(suggest("lst", ["list", "last"]), ["last", "list"]);
});

Deno.test("argv: --json, --help and --version are seen after a usage error", () => {
  const p = run("send", "-t", "--json");
  assert.equal(p.error?.message, "unknown option '-t'");
  assert.equal(p.globals.json, true);
  assert.equal(names(p), "drover send");
  assert.equal(run("send", "-t", "--help").help, "stdout");
  assert.equal(run("bogus", "--version").globals.version, true);
  assert.equal(run("drive", "--json", "--allow").globals.json, true);
});

Deno.test("argv: help for commands and groups", () => {
  assert.equal(run("--help").help, "stdout");
  assert.equal(names(run("send", "%1", "-h")), "drover send");
  assert.equal(run("send", "%1", "-h").help, "stdout");
  const h = run("help", "clis", "list");
  assert.equal(h.help, "stdout");
  assert.equal(names(h), "drover clis list");
  assert.equal(run("help", "nosuch").help, "stderr");
  assert.equal(run("clis").help, "stderr", "a group alone prints its help");
  assert.equal(run().help, "stderr");
  const text = formatHelp(run("help", "send").path);
  assert.match(text, /^Usage: drover send \[options\] <target> \[text\.\.\.\]\n/);
  assert.doesNotMatch(formatHelp([ROOT]), /__prompt-profile/, "hidden commands stay hidden");
});
