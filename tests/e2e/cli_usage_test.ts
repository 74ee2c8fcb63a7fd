/**
 * Usage errors through the real CLI: exit 2, commander's wording on stderr, and with --json (before
 * or after the command, even after the bad word) the error envelope on stdout and nothing else.
 */
import assert from "node:assert/strict";
import { drover, envelope } from "../helpers/drover.ts";

// -S to a socket that cannot exist: a command that got past parsing fails with TMUX_UNAVAILABLE
// (exit 3) instead of touching anybody's tmux.
const NO_SERVER = ["-S", "/nonexistent/drover-usage-test"];

// `trailing: false`: a --json after the bad words would be read as an option value.
const CASES: { argv: string[]; schema: string; message: RegExp; trailing?: false }[] = [
  { argv: ["send", "-t"], schema: "drover.send.v1", message: /^unknown option '-t'$/ },
  { argv: ["send"], schema: "drover.send.v1", message: /^missing required argument 'target'$/ },
  {
    argv: ["send", "--", "%1", "-t", "--cli"],
    schema: "drover.send.v1",
    message: /no tmux server/,
  },
  {
    argv: ["drive", "--allow"],
    schema: "drover.drive.v1",
    message: /^option '--allow <prefix>' argument missing$/,
    trailing: false,
  },
  {
    argv: ["detect", "--clii", "x"],
    schema: "drover.detect.v1",
    message: /^unknown option '--clii' \(did you mean --cli\?\)$/,
  },
  {
    argv: ["panes", "--format", "xml"],
    schema: "drover.panes.v1",
    message: /argument 'xml' is invalid\. Allowed choices are human, tsv\./,
  },
  { argv: ["launch"], schema: "drover.launch.v1", message: /required option '--cli <name>'/ },
  { argv: ["clis", "lst"], schema: "drover.usage.v1", message: /did you mean list\?/ },
  { argv: ["bogus"], schema: "drover.usage.v1", message: /^unknown command 'bogus'$/ },
  { argv: ["--jsn"], schema: "drover.usage.v1", message: /did you mean --json\?/ },
];

Deno.test("--json: every usage error prints the error envelope on stdout, exit 2", async () => {
  for (const c of CASES) {
    for (const argv of [["--json", ...c.argv], [...c.argv, "--json"]]) {
      // After `--`, or as the value of a bad option, a trailing --json is not an option.
      if (argv.at(-1) === "--json" && (c.argv.includes("--") || c.trailing === false)) continue;
      const r = await drover([...NO_SERVER, ...argv]);
      const env = envelope(r);
      assert.equal(env.ok, false, argv.join(" "));
      assert.equal(env.schema, c.schema, argv.join(" "));
      assert.match(env.error.message, c.message, argv.join(" "));
      if (env.error.code === "TMUX_UNAVAILABLE") {
        assert.equal(r.code, 3);
        continue;
      }
      assert.equal(env.error.code, "INVALID_ARGUMENT", argv.join(" "));
      assert.equal(r.code, 2, argv.join(" "));
      assert.equal(r.stderr, "", argv.join(" "));
    }
  }
});

Deno.test("usage errors without --json: one `error:` line (+ suggestion) on stderr, exit 2", async () => {
  const r = await drover(["detect", "--clii", "x"]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, "error: unknown option '--clii'\n(Did you mean --cli?)\n");
  const t = await drover(["send", "-t"]);
  assert.equal(t.code, 2);
  assert.equal(t.stderr, "error: unknown option '-t'\n");
});

Deno.test("help and version win over usage errors and print no envelope", async () => {
  const h = await drover(["send", "-t", "--json", "--help"]);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /^Usage: drover send \[options\] <target> \[text\.\.\.\]/);
  const v = await drover(["bogus", "--version", "--json"]);
  assert.equal(v.code, 0);
  assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
  const group = await drover(["clis"]);
  assert.equal(group.code, 0);
  assert.match(group.stderr, /^Usage: drover clis \[options\] \[command\]/);
});
