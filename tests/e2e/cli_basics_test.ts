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

// The local zone is read only when a printed reset time needs it (starting ICU costs more than
// the rest of a `detect` start); it must still be the machine's zone (TZ) when it is needed.
Deno.test("detect reads a reset time printed without a zone in the local zone (TZ)", async () => {
  const file = new URL("../fixtures/codex/0.171.0/usage-limit@120x40.txt", import.meta.url)
    .pathname;
  const want = {
    UTC: "2026-12-01T06:08:00.000Z",
    "America/New_York": "2026-12-01T11:08:00.000Z",
    "Asia/Tokyo": "2026-12-01T21:08:00.000Z",
  };
  for (const [tz, at] of Object.entries(want)) {
    const r = await drover(
      ["detect", "--cli", "codex", "--now", "2026-12-01T03:00:00Z", "--json", file],
      { env: { TZ: tz } },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).data.limit_resets_at, at, tz);
  }
});
