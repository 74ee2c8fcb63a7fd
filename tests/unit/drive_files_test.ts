/**
 * Issue 27, items 2 and 3, below the CLI: the files drive writes cannot be turned (a symlink,
 * FIFO, directory or hard link at the path is refused with nothing written, a full disk is told
 * apart), the drive lock is keyed by the session and held in the per-user runtime directories
 * whatever the state directory, and the state file is held to its zod schema.
 */
import assert from "node:assert/strict";
import { acquireDriveLock, acquireLock } from "../../lib/drive/lock.ts";
import { appendEvent, checkEventsFile, makeEvent } from "../../lib/drive/events.ts";
import { freshState } from "../../lib/drive/state.ts";
import { loadState, saveState } from "../../lib/drive/state_file.ts";
import { DroverError } from "../../lib/errors.ts";
import {
  appendRegular,
  isDiskFull,
  NotRegularFile,
  openRegular,
  readRegular,
  writeAtomic,
} from "../../lib/io/safe_file.ts";
import { notPrivate, privateDir, UnsafeDir } from "../../lib/io/user_dirs.ts";
import { probeAvailability } from "../../lib/launch/availability.ts";
import { saveScreen } from "../../lib/cli/profile_test_cmd.ts";

const NOBODY = 65534;
const ROOT = Deno.uid() === 0;

async function ls(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out.sort();
}

async function run(cmd: string, ...args: string[]): Promise<void> {
  const r = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output();
  assert.equal(r.code, 0, `${cmd} ${args.join(" ")}: ${new TextDecoder().decode(r.stderr)}`);
}

/** A directory with a victim file outside it and every kind of non-file at `dir/<kind>`. */
async function hostileDir(): Promise<{ dir: string; victim: string; kinds: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "drover-files-" });
  const victim = `${dir}/victim.txt`;
  await Deno.writeTextFile(victim, "precious\n");
  await Deno.symlink(victim, `${dir}/symlink`);
  await Deno.symlink(`${dir}/missing-target`, `${dir}/dangling`);
  await run("mkfifo", `${dir}/fifo`);
  await Deno.mkdir(`${dir}/directory`);
  await Deno.link(victim, `${dir}/hardlink`);
  return { dir, victim, kinds: ["symlink", "dangling", "fifo", "directory", "hardlink"] };
}

async function untouched(h: { dir: string; victim: string }): Promise<void> {
  assert.equal(await Deno.readTextFile(h.victim), "precious\n");
  await assert.rejects(() => Deno.lstat(`${h.dir}/missing-target`), Deno.errors.NotFound);
  assert.ok((await Deno.lstat(`${h.dir}/fifo`)).isFifo);
  assert.deepEqual(await ls(`${h.dir}/directory`), []);
}

Deno.test("safe files: a symlink, dangling symlink, FIFO, directory or hard link is refused, nothing written", async () => {
  const h = await hostileDir();
  try {
    for (const kind of h.kinds) {
      const path = `${h.dir}/${kind}`;
      await assert.rejects(() => openRegular(path, { create: true }), NotRegularFile, kind);
      await assert.rejects(
        () => writeAtomic(path, new TextEncoder().encode("x")),
        NotRegularFile,
        kind,
      );
      await assert.rejects(
        () => appendRegular(path, new TextEncoder().encode("x")),
        NotRegularFile,
      );
      await assert.rejects(() => readRegular(path, 100), NotRegularFile, kind);
    }
    await untouched(h);
    // Each one is named for what it is.
    const what = async (kind: string) =>
      await openRegular(`${h.dir}/${kind}`).catch((e) => (e as NotRegularFile).what);
    assert.equal(await what("symlink"), "a symbolic link");
    assert.equal(await what("fifo"), "a FIFO");
    assert.equal(await what("directory"), "a directory");
    assert.equal(await what("hardlink"), "a file with several hard links");
    // No temporary file is left behind by a refused write.
    const names = await ls(h.dir);
    assert.deepEqual(names, [...h.kinds, "victim.txt"].sort());
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("safe files: a missing file is created 0600, an existing one written in place or replaced by rename", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drover-files-" });
  try {
    const p = `${dir}/a`;
    await appendRegular(p, new TextEncoder().encode("one\n"));
    await appendRegular(p, new TextEncoder().encode("two\n"));
    assert.equal(await Deno.readTextFile(p), "one\ntwo\n");
    assert.equal((await Deno.stat(p)).mode! & 0o777, 0o600);
    const before = await Deno.stat(p);
    await writeAtomic(p, new TextEncoder().encode("new\n"));
    assert.equal(await Deno.readTextFile(p), "new\n");
    assert.notEqual((await Deno.stat(p)).ino, before.ino, "replaced by rename");
    assert.deepEqual(await ls(dir), ["a"]);
    const r = await readRegular(p, 2);
    assert.deepEqual(r && { text: new TextDecoder().decode(r.bytes), cut: r.truncated }, {
      text: "ne",
      cut: true,
    });
    assert.equal(await readRegular(`${dir}/none`, 10), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("safe files: ENOSPC and EDQUOT are a full disk, however Deno reports them", async () => {
  // The real thing: /dev/full answers every write with ENOSPC.
  const f = await Deno.open("/dev/full", { write: true });
  const real = await f.write(new Uint8Array(1)).catch((e) => e);
  f.close();
  assert.ok(isDiskFull(real), String(real));
  // EDQUOT cannot be made here (no quota-enabled filesystem): Deno's own shape of it.
  const quota = Object.assign(new Error("Disk quota exceeded (os error 122)"), { code: "EDQUOT" });
  assert.ok(isDiskFull(quota));
  assert.ok(isDiskFull(new Error("write failed: Disk quota exceeded (os error 122)")));
  assert.ok(!isDiskFull(new Deno.errors.PermissionDenied("Permission denied (os error 13)")));
  assert.ok(!isDiskFull("ENOSPC"));
});

Deno.test("lock: a symlink (or FIFO, directory) at the lock path → 74, its target untouched", async () => {
  const h = await hostileDir();
  try {
    for (const kind of h.kinds) {
      await assert.rejects(() => acquireLock(`${h.dir}/${kind}`, "s"), (e: unknown) => {
        assert.ok(e instanceof DroverError, String(e));
        assert.equal(e.code, "STATE_UNWRITABLE");
        assert.equal(e.exitCode, 74);
        assert.match(e.message, /stands where the drive lock file .* belongs; refused/);
        return true;
      });
    }
    await untouched(h);
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("lock: keyed by the session, held in the runtime dirs: another --state is still 73", async () => {
  const root = await Deno.makeTempDir({ prefix: "drover-lock-" });
  try {
    const runtime = [`${root}/run`];
    await Deno.mkdir(`${root}/state-a`);
    await Deno.mkdir(`${root}/state-b`);
    const a = await acquireDriveLock({
      key: "drive-s-1",
      session: "s",
      stateDir: `${root}/state-a`,
      runtimeBases: runtime,
    });
    assert.deepEqual(a.paths, [
      `${root}/run/locks/drive-s-1.lock`,
      `${root}/state-a/drive-s-1.lock`,
    ]);
    assert.equal(a.fallback, null);
    assert.equal((await Deno.lstat(`${root}/run`)).mode! & 0o777, 0o700);
    assert.match(await Deno.readTextFile(a.paths[0]!), /^pid \d+ since .*, state .*state-a\n$/);
    await assert.rejects(
      () =>
        acquireDriveLock({
          key: "drive-s-1",
          session: "s",
          stateDir: `${root}/state-b`,
          runtimeBases: runtime,
        }),
      (e: unknown) => {
        assert.ok(e instanceof DroverError && e.code === "DRIVE_LOCKED" && e.exitCode === 73);
        assert.match(e.message, /state .*state-a/, "names the holder and its state directory");
        return true;
      },
    );
    // The loser held nothing: its state directory has no lock file.
    assert.deepEqual(await ls(`${root}/state-b`), []);
    // Another session is its own lock.
    const other = await acquireDriveLock({
      key: "drive-t-2",
      session: "t",
      stateDir: `${root}/state-b`,
      runtimeBases: runtime,
    });
    other.release();
    // Released: the lock files are gone and the next drive gets them.
    a.release();
    assert.deepEqual(await ls(`${root}/run/locks`), []);
    const b = await acquireDriveLock({
      key: "drive-s-1",
      session: "s",
      stateDir: `${root}/state-b`,
      runtimeBases: runtime,
    });
    b.release();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("lock: a released holder's file is unlinked; a drive that locked it starts over on the new one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drover-lock-" });
  try {
    const path = `${dir}/x.lock`;
    const a = await acquireLock(path, "s");
    // What a racing drive holds after opening the file just before the holder released it.
    const stale = await Deno.open(path, { read: true, write: true });
    a.release();
    assert.equal(await stale.tryLock(true), true, "the orphaned inode is lockable");
    // The new drive must not settle for the orphan: it locks the file at the path.
    const b = await acquireLock(path, "s");
    await assert.rejects(() => acquireLock(path, "s"), (e: unknown) => {
      return e instanceof DroverError && e.code === "DRIVE_LOCKED";
    });
    stale.close();
    b.release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lock: a runtime dir that is not private is skipped; with none left the state dir alone holds it, with a warning", async () => {
  const root = await Deno.makeTempDir({ prefix: "drover-lock-" });
  try {
    await Deno.mkdir(`${root}/state`);
    await Deno.mkdir(`${root}/open`, { mode: 0o777 });
    await Deno.chmod(`${root}/open`, 0o777);
    await Deno.mkdir(`${root}/real`, { mode: 0o700 });
    await Deno.symlink(`${root}/real`, `${root}/link`);
    const bases = [`${root}/open`, `${root}/link`];
    if (ROOT) {
      await Deno.mkdir(`${root}/squatted`, { mode: 0o700 });
      await Deno.chown(`${root}/squatted`, NOBODY, NOBODY);
      bases.push(`${root}/squatted`);
    }
    const l = await acquireDriveLock({
      key: "k",
      session: "s",
      stateDir: `${root}/state`,
      runtimeBases: bases,
    });
    try {
      assert.deepEqual(l.paths, [`${root}/state/k.lock`]);
      assert.match(l.fallback ?? "", /open is writable by others \(mode 777\)/);
      assert.match(l.fallback ?? "", /link is a symbolic link/);
      if (ROOT) assert.match(l.fallback ?? "", new RegExp(`squatted belongs to uid ${NOBODY}`));
      assert.match(l.fallback ?? "", /only a drive with the same --state is kept out/);
      // Nothing was made inside a directory that was refused.
      assert.deepEqual(await ls(`${root}/open`), []);
      assert.deepEqual(await ls(`${root}/real`), []);
    } finally {
      l.release();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("user dirs: private means ours, a real directory, writable by nobody else", async () => {
  const root = await Deno.makeTempDir({ prefix: "drover-dirs-" });
  try {
    await privateDir(`${root}/p`, Deno.uid(), true);
    assert.equal((await Deno.lstat(`${root}/p`)).mode! & 0o777, 0o700);
    await privateDir(`${root}/p`, Deno.uid(), true); // already there: fine
    const info = await Deno.lstat(`${root}/p`);
    const gid = Deno.gid();
    const as = (mode: number, g = info.gid) => ({ ...info, mode: 0o40000 | mode, gid: g });
    assert.equal(notPrivate(as(0o755), Deno.uid(), gid), null);
    assert.equal(notPrivate(as(0o775), Deno.uid(), gid), null, "umask 002, own group");
    assert.match(notPrivate(as(0o775, 12345), Deno.uid(), gid) ?? "", /writable by others/);
    assert.match(notPrivate(as(0o757), Deno.uid(), gid) ?? "", /writable by others/);
    assert.match(notPrivate(info, 12345, gid) ?? "", /belongs to uid/);
    await Deno.writeTextFile(`${root}/f`, "");
    await assert.rejects(() => privateDir(`${root}/f`, Deno.uid(), true), UnsafeDir);
    await assert.rejects(() => privateDir(`${root}/none`, Deno.uid(), false), Deno.errors.NotFound);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("events: appended without following a symlink; the per-tick check refuses a non-file with 74", async () => {
  const h = await hostileDir();
  try {
    const e = makeEvent("s", "warning", "hello", 0);
    for (const kind of h.kinds) {
      await assert.rejects(() => appendEvent(`${h.dir}/${kind}`, e), NotRegularFile);
      await assert.rejects(() => checkEventsFile(`${h.dir}/${kind}`), (err: unknown) => {
        assert.ok(err instanceof DroverError && err.code === "STATE_UNWRITABLE");
        assert.match(err.message, /stands where the events file .* belongs/);
        return true;
      });
    }
    await untouched(h);
    await checkEventsFile(`${h.dir}/sub/ev.jsonl`);
    await appendEvent(`${h.dir}/sub/ev.jsonl`, e);
    assert.equal(JSON.parse(await Deno.readTextFile(`${h.dir}/sub/ev.jsonl`)).message, "hello");
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("state: a symlink at the state path is refused (74) on load and save, its target untouched", async () => {
  const h = await hostileDir();
  try {
    for (const kind of h.kinds) {
      const path = `${h.dir}/${kind}`;
      await assert.rejects(() => loadState(path, "s"), (e: unknown) => {
        assert.ok(e instanceof DroverError && e.code === "STATE_UNWRITABLE" && e.exitCode === 74);
        assert.ok(e.message.includes(path), e.message);
        return true;
      });
      await assert.rejects(() => saveState(path, freshState("s")), NotRegularFile);
    }
    await untouched(h);
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("state: fields of the wrong type are reset with a state-reset warning naming them; the rest is kept", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drover-state-" });
  try {
    const path = `${dir}/s.state.json`;
    const good = {
      ...freshState("s"),
      panes: {
        "%1": { strayKey: { text: "1", at: 5 } },
        "%2": { submitted: { text: "ok", at: 7 } },
      },
      orchestrator: { idleSince: 3 },
    };
    // The two: a list where the dedup map belongs, a number where a text belongs.
    const cases: [unknown, RegExp, (s: ReturnType<typeof freshState>) => void][] = [
      [{ ...good, dedup: [] }, /dedup: expected record, received array/, (s) => {
        assert.deepEqual(s.dedup, {});
        assert.deepEqual(s.panes["%2"]?.submitted, { text: "ok", at: 7 });
      }],
      [
        { ...good, panes: { ...good.panes, "%1": { submitted: { text: 5, at: 1 } } } },
        /panes\.%1\.submitted\.text: expected string, received number/,
        (s) => {
          assert.equal(s.panes["%1"]?.submitted, undefined);
          assert.deepEqual(s.panes["%2"]?.submitted, { text: "ok", at: 7 });
          assert.equal(s.orchestrator.idleSince, 3);
        },
      ],
      [
        { ...good, orchestrator: { idleSince: "yesterday" }, updatedAt: null },
        /orchestrator\.idleSince: expected number, received string; updatedAt/,
        (s) => assert.equal(s.orchestrator.idleSince, undefined),
      ],
      [
        {
          ...good,
          panes: {
            "%3": {
              limit: { text: "x", resetsAt: 1, dueAt: 2, resumes: -1, seenAt: 0 },
            },
          },
        },
        /panes\.%3\.limit\.resumes: Too small/,
        (s) => assert.equal(s.panes["%3"]?.limit, undefined),
      ],
    ];
    for (const [i, [content, want, check]] of cases.entries()) {
      await Deno.writeTextFile(path, JSON.stringify(content));
      const r = await loadState(path, "s", 100 + i);
      assert.match(r.warning ?? "", want);
      assert.match(r.warning ?? "", /do not fit its schema were reset .*the rest is kept; kept as/);
      check(r.state);
      assert.ok((await Deno.lstat(`${path}.corrupt-${100 + i}`)).isFile);
    }
    // A state that fits loads without a word, and round-trips exactly.
    await saveState(path, good);
    assert.deepEqual(await loadState(path, "s"), { state: good });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("other files drover writes: the availability cache and saved screens never go through a symlink", async () => {
  const h = await hostileDir();
  try {
    // The availability cache: a symlink at its path is left alone (no cache is kept, the target
    // untouched), and a FIFO there is never opened for reading (it would hang every launch).
    const cache = `${h.dir}/cache.json`;
    await Deno.symlink(h.victim, cache);
    const m = await probeAvailability(["sh"], { shell: "/bin/sh", cache, timeoutMs: 30_000 });
    assert.equal(m.get("sh")?.status, "available");
    assert.equal(await Deno.readTextFile(h.victim), "precious\n");
    assert.ok((await Deno.lstat(cache)).isSymlink, "refused, left where it is");
    const fifoCache = `${h.dir}/fifo`;
    const again = await probeAvailability(["sh"], { shell: "/bin/sh", cache: fifoCache });
    assert.equal(again.get("sh")?.status, "available");
    assert.ok((await Deno.lstat(fifoCache)).isFifo);
    // profile test's saved screens: a symlink planted at the styled name is refused.
    await Deno.mkdir(`${h.dir}/screens`);
    await Deno.symlink(h.victim, `${h.dir}/screens/busy-1.ansi.txt`);
    await assert.rejects(
      () => saveScreen(`${h.dir}/screens`, "busy", "plain\n", "styled\n"),
      (e: unknown) => e instanceof DroverError && /symbolic link/.test(e.message),
    );
    await untouched(h);
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("state: a file drover wrote is taken as written; one edited since is held to the schema", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drover-state-" });
  try {
    const path = `${dir}/s.state.json`;
    const st = { ...freshState("s"), dedup: { k: 5 }, updatedAt: 9 };
    await saveState(path, st);
    const text = await Deno.readTextFile(path);
    assert.match(text, /,"written":"sha256:[0-9a-f]{64}"\}\n$/);
    assert.deepEqual(await loadState(path, "s"), { state: st });
    // Edited by hand (or by anything but drover): the checksum no longer fits, the schema decides.
    await Deno.writeTextFile(path, text.replace('"dedup":{"k":5}', '"dedup":[]'));
    const r = await loadState(path, "s", 1);
    assert.match(r.warning ?? "", /dedup: expected record, received array/);
    // A file drover wrote for another session is still not this session's.
    await saveState(path, freshState("t"));
    assert.match((await loadState(path, "s", 2)).warning ?? "", /belongs to session "t"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
