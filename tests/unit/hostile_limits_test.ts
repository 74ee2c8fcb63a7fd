/** Limits of issue 17 below the CLI: the capped reader, the state-file cap, the hook deadline. */
import assert from "node:assert/strict";
import { readCapped, readUpTo, TooLarge } from "../../lib/io/capped.ts";
import { freshState, MAX_STATE_BYTES } from "../../lib/drive/state.ts";
import { loadState } from "../../lib/drive/state_file.ts";
import { resolveDriveOptions } from "../../lib/drive/options.ts";
import { parseConfig } from "../../lib/config/load.ts";
import { DroverError } from "../../lib/errors.ts";
import { acquireClaim, peekClaim } from "../../lib/approve/claim.ts";
import { NotRegularFile } from "../../lib/io/safe_file.ts";

/** An endless source that counts what was read from it. */
function endless(): { read(p: Uint8Array): Promise<number>; served: number } {
  const src = {
    served: 0,
    read(p: Uint8Array) {
      p.fill(0x61);
      src.served += p.length;
      return Promise.resolve(p.length);
    },
  };
  return src;
}

Deno.test("readUpTo stops one byte past the limit; readCapped throws TooLarge", async () => {
  const src = endless();
  const got = await readUpTo(src, 100_000, "stdin");
  assert.equal(got.length, 100_001);
  assert.ok(src.served < 100_000 + 2 * 64 * 1024, `read ${src.served} bytes`);
  await assert.rejects(() => readCapped(endless(), 10, "the capture"), (e: unknown) => {
    return e instanceof TooLarge && e.limit === 10 &&
      /the capture is larger than 10 bytes/.test(e.message);
  });
  const small = {
    done: false,
    read(p: Uint8Array) {
      if (small.done) return Promise.resolve(null);
      small.done = true;
      p.set([1, 2, 3]);
      return Promise.resolve(3);
    },
  };
  assert.deepEqual([...await readCapped(small, 3, "x")], [1, 2, 3]);
});

Deno.test("a directory read is a usage error naming the input", async () => {
  const dir = { read: () => Promise.reject(new Deno.errors.IsADirectory("Is a directory")) };
  await assert.rejects(
    () => readUpTo(dir, 10, "stdin"),
    (e: unknown) =>
      e instanceof DroverError && e.code === "INVALID_ARGUMENT" &&
      e.message === "stdin is a directory, not a file or a pipe",
  );
});

Deno.test("state file over MAX_STATE_BYTES is set aside with a warning; a missing one is fresh", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/s.state.json`;
    assert.deepEqual(await loadState(path, "s"), { state: freshState("s") });
    await Deno.writeTextFile(path, " ".repeat(MAX_STATE_BYTES + 1));
    const r = await loadState(path, "s", 7);
    assert.deepEqual(r.state, freshState("s"));
    assert.match(r.warning ?? "", /larger than 1 MiB; starting fresh; kept as .*corrupt-7/);
    await Deno.stat(`${path}.corrupt-7`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--hook-timeout and [drive].hook_timeout: default 5s, flag wins, bounds checked", () => {
  const env = () => "/home/x";
  assert.equal(resolveDriveOptions({ session: "s" }, {}, env).hookTimeoutMs, 5000);
  const cfg = parseConfig('[drive]\nhook_timeout = "30s"\n', "c.toml");
  assert.equal(cfg.drive.hookTimeoutMs, 30_000);
  assert.equal(resolveDriveOptions({ session: "s" }, cfg.drive, env).hookTimeoutMs, 30_000);
  assert.equal(
    resolveDriveOptions({ session: "s", hookTimeout: "250ms" }, cfg.drive, env).hookTimeoutMs,
    250,
  );
  for (const bad of ["50ms", "2h"]) {
    assert.throws(
      () => resolveDriveOptions({ session: "s", hookTimeout: bad }, {}, env),
      (e: unknown) => e instanceof DroverError && e.code === "INVALID_ARGUMENT",
    );
  }
});

/** mkfifo PATH (a supervised agent, as the same user, can put one where drover reads). */
async function mkfifo(path: string): Promise<void> {
  const r = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
}

// Found by the issue-17 audit: opening a FIFO for reading waits for a writer for ever, so a FIFO
// at the state path hung `drive --once` (and with it every later tick: they found it locked), and
// one at a claim path hung approve. Each read must come back, with nothing written into the FIFO.
// Issue 27: a FIFO at the state path is refused (exit 74) rather than set aside, and left where it is.
Deno.test("a FIFO at the state path is refused unread (74), left in place; one at a claim path is refused unread too", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/s.state.json`;
    await mkfifo(path);
    await assert.rejects(() => loadState(path, "s", 9), (e: unknown) => {
      assert.ok(e instanceof DroverError && e.code === "STATE_UNWRITABLE" && e.exitCode === 74);
      assert.match(e.message, /a FIFO stands where the drive state file .* belongs; refused/);
      return true;
    });
    assert.ok((await Deno.lstat(path)).isFifo);

    // Issue 27 follow-up: at a claim path it is refused too (exit 74 in approve), never read.
    await Deno.mkdir(`${dir}/claims`);
    await mkfifo(`${dir}/claims/pane`);
    await assert.rejects(() => acquireClaim([`${dir}/claims/pane`]), NotRegularFile);
    await assert.rejects(() => peekClaim([`${dir}/claims/pane`]), NotRegularFile);
    assert.ok((await Deno.lstat(`${dir}/claims/pane`)).isFifo);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
