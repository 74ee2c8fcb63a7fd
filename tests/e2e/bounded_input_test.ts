/**
 * Bounded input (issue 17): what drover reads from a user stops at a documented limit, exits 2
 * with a clear message and keeps its memory flat — 200 MB on a pipe, /dev/zero, a directory.
 */
import assert from "node:assert/strict";
import { drover, droverCommand, envelope } from "../helpers/drover.ts";
import { watchRss } from "../helpers/rss.ts";

const MiB = 1024 * 1024;

Deno.test("detect -: 200 MB on stdin → exit 2 with the limit named, memory flat", async () => {
  const [exe, pre] = droverCommand();
  const child = new Deno.Command(exe, {
    args: [...pre, "--json", "detect", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const rss = watchRss(child.pid);
  const started = Date.now();
  const chunk = new TextEncoder().encode("x".repeat(1023) + "\n").subarray(0, 1024);
  const block = new Uint8Array(MiB);
  for (let i = 0; i < MiB; i += 1024) block.set(chunk, i);
  const w = child.stdin.getWriter();
  let written = 0;
  try {
    while (written < 200 * MiB) {
      await w.write(block);
      written += block.length;
    }
    await w.close();
  } catch {
    // drover stopped reading: the pipe closed under us, as it should.
  }
  const out = await child.output();
  const peak = rss.stop();
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `200 MB on stdin: exit ${out.code} after ${seconds.toFixed(1)} s, ${
      (written / MiB).toFixed(0)
    } MiB accepted by the pipe, peak RSS ${(peak / MiB).toFixed(0)} MiB`,
  );
  assert.equal(out.code, 2);
  const env = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(env.error.code, "INVALID_ARGUMENT");
  assert.match(env.error.message, /larger than 4 MiB/);
  assert.equal(env.error.details.limit_bytes, 4 * MiB);
  assert.ok(peak < 300 * MiB, `peak RSS ${(peak / MiB).toFixed(0)} MiB`);
});

Deno.test("detect /dev/zero (as FILE and as stdin) → exit 2, memory flat", async () => {
  const r = await drover(["--json", "detect", "/dev/zero"]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(envelope(r).error.message, /\/dev\/zero is larger than 4 MiB/);

  const [exe, pre] = droverCommand();
  const quoted = [exe, ...pre, "--json", "detect", "-"].map((a) =>
    `'${a.replaceAll("'", "'\\''")}'`
  );
  const child = new Deno.Command("sh", {
    args: ["-c", `exec ${quoted.join(" ")} < /dev/zero`],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const rss = watchRss(child.pid);
  const out = await child.output();
  const peak = rss.stop();
  assert.equal(out.code, 2);
  assert.match(new TextDecoder().decode(out.stdout), /on stdin is larger than 4 MiB/);
  assert.ok(peak < 300 * MiB, `peak RSS ${(peak / MiB).toFixed(0)} MiB`);
});

Deno.test("a directory on stdin or as FILE is a usage error (exit 2), not INTERNAL", async () => {
  const [exe, pre] = droverCommand();
  const q = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;
  for (
    const args of [
      ["detect", "-"],
      ["send", "%1"],
      ["launch", "--cli", "claude", "--prompt", "-", "--session", "x"],
    ]
  ) {
    const cmd = [exe, ...pre, "-L", `drover-none-${Deno.pid}`, "--json", ...args].map(q);
    const out = await new Deno.Command("sh", {
      args: ["-c", `exec ${cmd.join(" ")} < /tmp`],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1", TMUX: "" },
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 2, `${args.join(" ")}: ${text}`);
    assert.match(JSON.parse(text).error.message, /stdin is a directory/, args.join(" "));
  }
  const r = await drover(["--json", "detect", "/tmp"]);
  assert.equal(r.code, 2, r.stdout);
  assert.match(envelope(r).error.message, /is a directory/);
});
