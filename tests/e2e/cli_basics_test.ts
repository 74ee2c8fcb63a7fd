import assert from "node:assert/strict";
import { drover, droverCommand } from "../helpers/drover.ts";
import { VERSION } from "../../lib/version.ts";

Deno.test("drover --version prints the version", async () => {
  const r = await drover(["--version"]);
  assert.equal(r.code, 0);
  assert.equal(r.stdout.trim(), VERSION);
});

Deno.test("drover --help lists the global options", async () => {
  const r = await drover(["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /--socket-name/);
  assert.match(r.stdout, /--json/);
});

// Found by the issue-17 audit: `drover … | head` closed the pipe and drover printed a stack trace
// (Uncaught BrokenPipe) and exited 1.
Deno.test("a reader that closes the pipe early gets no stack trace, and the exit code stands", async () => {
  const [exe, pre] = droverCommand();
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const drv = [exe, ...pre].map(q).join(" ");
  for (const args of ["--help", "sweep-script", "--json sweep-script"]) {
    // The reader (`true`) is gone well before drover writes its first byte.
    const script = `{ sleep 0.3; ${drv} ${args}; echo "rc=$?" >&2; } | true`;
    const out = await new Deno.Command("bash", {
      args: ["-c", script],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assert.equal(err, "rc=0\n", `${args}: ${err}`);
  }
});
