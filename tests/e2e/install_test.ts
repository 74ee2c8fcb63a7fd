/**
 * install.sh end to end, on a clean environment (`env -i`, a throwaway HOME, as an unprivileged
 * user when the test runs as root), against release archives served by a local HTTP server on
 * 127.0.0.1 — archives packaged from this tree by tools/package.sh, exactly as the release
 * workflow packages them.
 *
 * What `drover` in those archives is: with DENORT_BIN set, the real `deno compile` binary of this
 * tree (tools/compile.ts). Without it (no denort runtime can be downloaded here), a STAND-IN: a
 * two-line shell script that runs this checkout's main.ts with deno. The installer treats both the
 * same (download, checksum, unpack, run `--version`, rename into place); the test prints which.
 */
import assert from "node:assert/strict";
import { REPO_ROOT, V8_FLAGS } from "../helpers/drover.ts";
import { VERSION } from "../../lib/version.ts";
import { optionalTool, testWithTools } from "../helpers/tools.ts";

const INSTALLER = `${REPO_ROOT}install.sh`;
const README = `${REPO_ROOT}README.md`;
const dec = new TextDecoder();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function exec(argv: string[], opts: { stdin?: string; cwd?: string } = {}): Promise<Run> {
  const child = new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    cwd: opts.cwd ?? REPO_ROOT,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    try {
      await w.write(new TextEncoder().encode(opts.stdin));
      await w.close();
    } catch (e) {
      // A shell that stopped at a syntax error no longer reads its script: not our failure.
      if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
    }
  }
  const out = await child.output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

function which(cmd: string): string | undefined {
  for (const dir of ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"]) {
    try {
      if (Deno.statSync(`${dir}/${cmd}`).isFile) return `${dir}/${cmd}`;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The target triple install.sh should pick on this machine. */
function hostTarget(): string {
  const arch = Deno.build.arch === "aarch64" ? "aarch64" : "x86_64";
  return Deno.build.os === "darwin" ? `${arch}-apple-darwin` : `${arch}-unknown-linux-gnu`;
}

const TARGET = hostTarget();
const ARCHIVE = `drover-${TARGET}.tar.gz`;
const ROOT_RUN = Deno.uid() === 0;
const NOBODY = 65534;

/** Who runs install.sh: as root, `nobody` (a clean unprivileged user); otherwise ourselves. */
function asUser(argv: string[]): string[] {
  return ROOT_RUN
    ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", ...argv]
    : argv;
}

async function chownForUser(path: string): Promise<void> {
  if (!ROOT_RUN) return;
  const r = await exec(["chown", "-R", `${NOBODY}:${NOBODY}`, path]);
  assert.equal(r.code, 0, r.stderr);
}

interface Fixture {
  work: string;
  kind: string;
  /** The binary (or stand-in) of release r1 and r2; r2 differs so an upgrade is visible. */
  drover: { r1: string; r2: string };
}

/** The drover that goes into the archives: the compiled binary, or the labelled stand-in. */
async function buildDrover(work: string): Promise<Fixture> {
  const denort = Deno.env.get("DENORT_BIN");
  if (denort) {
    const r = await exec([Deno.execPath(), "run", "-A", "tools/compile.ts"]);
    assert.equal(r.code, 0, r.stderr);
    await Deno.copyFile(`${REPO_ROOT}dist/drover`, `${work}/drover-r1`);
    await Deno.copyFile(`${REPO_ROOT}dist/drover`, `${work}/drover-r2`);
    return {
      work,
      kind: "deno compile binary (DENORT_BIN)",
      drover: { r1: `${work}/drover-r1`, r2: `${work}/drover-r2` },
    };
  }
  // The unprivileged user cannot read root's deno cache, nor a checkout (or a deno) under a private
  // directory such as a CI clone in `mktemp -d`: give the stand-in copies it owns.
  const denoDir = `${work}/deno-dir`;
  const cache = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  await Deno.mkdir(denoDir);
  const cp = await exec(["cp", "-r", `${cache}/npm`, `${denoDir}/`]);
  assert.equal(cp.code, 0, `copying the deno npm cache: ${cp.stderr}`);
  const standIn = (build: string) =>
    "#!/bin/sh\n" +
    `# TEST STAND-IN for the drover binary (no denort runtime here): runs main.ts with deno. ${build}\n` +
    `DENO_DIR='${denoDir}' exec '${work}/src/deno' run -A --quiet ${V8_FLAGS} '${work}/src/main.ts' "$@"\n`;
  await Deno.mkdir(`${work}/src`);
  for (const part of ["main.ts", "deno.json", "deno.lock", "lib", "profiles"]) {
    const r = await exec(["cp", "-r", `${REPO_ROOT}${part}`, `${work}/src/`]);
    assert.equal(r.code, 0, `copying ${part}: ${r.stderr}`);
  }
  await Deno.copyFile(Deno.execPath(), `${work}/src/deno`);
  await Deno.chmod(`${work}/src/deno`, 0o755);
  for (const build of ["r1", "r2"]) {
    await Deno.writeTextFile(`${work}/drover-${build}`, standIn(`release ${build}`));
    await Deno.chmod(`${work}/drover-${build}`, 0o755);
  }
  return {
    work,
    kind: "shell stand-in running `deno run main.ts` (no denort runtime on this machine)",
    drover: { r1: `${work}/drover-r1`, r2: `${work}/drover-r2` },
  };
}

/** A release directory as the workflow publishes it: the archive plus SHA256SUMS. */
async function makeRelease(dir: string, drover: string): Promise<void> {
  const r = await exec(["sh", "tools/package.sh", drover, TARGET, dir]);
  assert.equal(r.code, 0, r.stderr);
  await Deno.writeTextFile(
    `${dir}/SHA256SUMS`,
    `${await sha256(`${dir}/${ARCHIVE}`)}  ${ARCHIVE}\n`,
  );
}

const RELEASE_URL = /https:\/\/github\.com\/[^/ ]+\/[^/ ]+\/releases\/latest\/download/g;

/** The commands of the README's install section, in order. */
async function readmeInstallBlock(): Promise<string[]> {
  const text = await Deno.readTextFile(README);
  const at = text.indexOf("<!-- drover:install");
  assert.ok(at >= 0, "README has no <!-- drover:install marker");
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at));
  assert.ok(block, "no ```sh block after the install marker");
  return block[1]!.split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter((l) => l);
}

function serve(root: string, log: string[]): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    log.push(path);
    if (path.includes("..")) return new Response("no", { status: 400 });
    try {
      return new Response(await Deno.readFile(root + path));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
}

Deno.test("install.sh: lints clean as POSIX sh (sh -n, dash -n, shellcheck -s sh, checkbashisms)", async () => {
  for (const argv of [["sh", "-n", INSTALLER], ["dash", "-n", INSTALLER]]) {
    const r = await exec(argv);
    assert.equal(r.code, 0, `${argv.join(" ")}: ${r.stderr}`);
  }
  const linters: [string, string[], string][] = [
    ["shellcheck", ["-s", "sh"], "apt: shellcheck"],
    ["checkbashisms", ["-p", "-f"], "apt: devscripts"],
  ];
  for (const [tool, flags, pkg] of linters) {
    const at = optionalTool(tool, `${tool} on install.sh`, `${pkg}; .ci/run installs it`);
    if (at === undefined) continue;
    const r = await exec([at, ...flags, INSTALLER, "tools/smoke.sh", "tools/package.sh"]);
    assert.equal(r.code, 0, `${tool}:\n${r.stdout}${r.stderr}`);
  }
});

Deno.test("install.sh: a download cut short anywhere runs nothing", async () => {
  const text = await Deno.readTextFile(INSTALLER);
  const work = await Deno.makeTempDir({ prefix: "drover-install-cut-" });
  try {
    // Every line end, and 10 characters before it, of everything before the final call.
    const end = text.lastIndexOf('main "$@"');
    const cuts: number[] = [];
    for (let i = 0; i < end; i++) {
      if (text[i] === "\n") cuts.push(i + 1, Math.max(0, i - 10));
    }
    const log = `${work}/ran`;
    // A logging stand-in for every tool the script calls first: any call leaves a trace.
    await Deno.mkdir(`${work}/bin`);
    for (const tool of ["uname", "id", "mktemp", "curl", "wget", "tar", "mkdir", "cp", "mv"]) {
      await Deno.writeTextFile(`${work}/bin/${tool}`, `#!/bin/sh\necho ${tool} >> '${log}'\n`);
      await Deno.chmod(`${work}/bin/${tool}`, 0o755);
    }
    for (const cut of cuts) {
      const r = await exec(["env", "-i", `HOME=${work}`, `PATH=${work}/bin`, "/bin/sh"], {
        stdin: text.slice(0, cut),
      });
      assert.ok(!(await exists(log)), `cut at ${cut} ran a command`);
      assert.doesNotMatch(r.stderr, /drover-install:/, `cut at ${cut} printed: ${r.stderr}`);
    }
    // The probe is not blind: the complete script does call them.
    await exec(["env", "-i", `HOME=${work}`, `PATH=${work}/bin`, "/bin/sh"], { stdin: text });
    assert.ok(await exists(log), "the complete script ran nothing");
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});

// The README's install command is `curl … | sh`.
testWithTools(
  "install.sh: installs from a local release server, upgrades in place, refuses tampering",
  [
    "curl",
  ],
  async (_tools, t) => {
    const work = await Deno.makeTempDir({ prefix: "drover-install-" });
    const log: string[] = [];
    const server = serve(`${work}/www`, log);
    const base = `http://127.0.0.1:${server.addr.port}`;
    try {
      const fx = await buildDrover(work);
      console.log(`install test archives hold: ${fx.kind}`);
      await makeRelease(`${work}/www/r1`, fx.drover.r1);
      await makeRelease(`${work}/www/r2`, fx.drover.r2);
      await Deno.copyFile(INSTALLER, `${work}/www/r1/install.sh`);
      for (const unit of ["drover-drive@.service", "drover-drive@.timer"]) {
        await Deno.copyFile(`${REPO_ROOT}docs/systemd/${unit}`, `${work}/www/r1/${unit}`);
      }
      await Deno.copyFile(INSTALLER, `${work}/install.sh`);
      // Tampered: r2's archive with another drover inside, next to r2's genuine SHA256SUMS.
      await Deno.mkdir(`${work}/evil`);
      await Deno.writeTextFile(`${work}/evil/drover`, "#!/bin/sh\necho pwned > /tmp/pwned\n");
      await Deno.chmod(`${work}/evil/drover`, 0o755);
      await makeRelease(`${work}/www/bad`, `${work}/evil/drover`);
      await Deno.copyFile(`${work}/www/r2/SHA256SUMS`, `${work}/www/bad/SHA256SUMS`);
      // An archive the SHA256SUMS does not list at all.
      await makeRelease(`${work}/www/nosum`, fx.drover.r1);
      await Deno.writeTextFile(`${work}/www/nosum/SHA256SUMS`, `${"0".repeat(64)}  other.tar.gz\n`);

      const home = `${work}/home`;
      await Deno.mkdir(home);
      await chownForUser(work);
      const bin = `${home}/.local/bin`;
      const env = (extra: string[] = []) => [
        "env",
        "-i",
        `HOME=${home}`,
        "PATH=/usr/bin:/bin",
        ...extra,
      ];
      const leftovers = async (dir: string) => {
        const names: string[] = [];
        for await (const e of Deno.readDir(dir)) names.push(e.name);
        return names.sort();
      };

      await t.step("the README's install command installs drover and sweep.sh", async () => {
        const lines = await readmeInstallBlock();
        // The order a new user follows: install, verify, the systemd timer, the live board.
        const order = [
          "install.sh | sh",
          "drover verify",
          "enable --now drover-drive@",
          "panes --watch",
        ]
          .map((w) => lines.findIndex((l) => l.includes(w)));
        assert.ok(
          order.every((i, n) => i >= 0 && (n === 0 || i > order[n - 1]!)),
          lines.join("\n"),
        );
        const command = lines[order[0]!]!.replace(RELEASE_URL, `${base}/r1`);
        assert.match(command, /^curl -fsSL http:\/\/127\.0\.0\.1:\d+\/r1\/install\.sh \| sh$/);
        const r = await exec(asUser([...env([`DROVER_BASE_URL=${base}/r1`]), "sh", "-c", command]));
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, new RegExp(`installed drover ${VERSION} in ${bin}`));
        assert.match(r.stderr, /checksum ok/);
        assert.match(r.stderr, /next: drover verify/);
        assert.deepEqual(await leftovers(bin), ["drover", "sweep.sh"]);
        assert.equal(await sha256(`${bin}/drover`), await sha256(fx.drover.r1));
        assert.equal(
          await Deno.readTextFile(`${bin}/sweep.sh`),
          await Deno.readTextFile(`${REPO_ROOT}sweep/sweep.sh`),
        );
        assert.equal((await Deno.stat(`${bin}/drover`)).mode! & 0o777, 0o755);
        assert.deepEqual(log.slice(-3), ["/r1/install.sh", "/r1/SHA256SUMS", `/r1/${ARCHIVE}`]);
        // The installed drover works: the release smoke test, run by the same clean user.
        const smoke = await exec(
          asUser([...env(), "sh", "tools/smoke.sh", `${bin}/drover`, VERSION]),
        );
        assert.equal(smoke.code, 0, smoke.stdout + smoke.stderr);
        const sweep = await exec(
          asUser([...env([`DROVER=${bin}/drover`]), `${bin}/sweep.sh`, "--help"]),
        );
        assert.equal(sweep.code, 0, sweep.stderr);
        assert.match(sweep.stdout + sweep.stderr, /snapshot/);
      });

      await t.step(
        "the README's unit lines fetch the systemd units the release publishes",
        async () => {
          const lines = (await readmeInstallBlock()).filter((l) =>
            l.startsWith("mkdir ") || l.startsWith("curl -fsSLO ")
          );
          assert.equal(lines.length, 3, lines.join("\n"));
          const script = lines.join("\n").replace(RELEASE_URL, `${base}/r1`);
          const r = await exec(asUser([...env(), "sh", "-ec", script]));
          assert.equal(r.code, 0, r.stderr);
          for (const unit of ["drover-drive@.service", "drover-drive@.timer"]) {
            assert.equal(
              await Deno.readTextFile(`${home}/.config/systemd/user/${unit}`),
              await Deno.readTextFile(`${REPO_ROOT}docs/systemd/${unit}`),
            );
          }
        },
      );

      await t.step("a second run upgrades in place (dash, from a file), by rename", async () => {
        const before = await Deno.stat(`${bin}/drover`);
        const r = await exec(
          asUser([...env([`DROVER_BASE_URL=${base}/r2`]), "dash", `${work}/install.sh`]),
        );
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, new RegExp(`upgraded drover ${VERSION} -> ${VERSION} in ${bin}`));
        assert.equal(await sha256(`${bin}/drover`), await sha256(fx.drover.r2));
        assert.notEqual((await Deno.stat(`${bin}/drover`)).ino, before.ino, "replaced by rename");
        assert.deepEqual(await leftovers(bin), ["drover", "sweep.sh"]);
      });

      // Issue 27: all or nothing, and never into a directory standing where a file belongs.
      await t.step(
        "a directory where drover belongs is refused: nothing lands inside it, nothing changes",
        async () => {
          const prefix = `${home}/dirprefix`;
          await Deno.mkdir(`${prefix}/drover`, { recursive: true });
          await Deno.writeTextFile(`${prefix}/sweep.sh`, "#!/bin/sh\necho old sweep\n");
          await chownForUser(prefix);
          const r = await exec(asUser([
            ...env([`DROVER_BASE_URL=${base}/r2`]),
            "sh",
            `${work}/install.sh`,
            "--prefix",
            prefix,
          ]));
          assert.equal(r.code, 1, r.stderr);
          assert.match(
            r.stderr,
            /error: .*dirprefix\/drover is a directory: drover installs a file there, never into it; .*\(nothing was changed\)/,
          );
          assert.doesNotMatch(r.stderr, /upgraded|installed drover/);
          assert.deepEqual(await leftovers(`${prefix}/drover`), []);
          assert.equal(
            await Deno.readTextFile(`${prefix}/sweep.sh`),
            "#!/bin/sh\necho old sweep\n",
          );
          assert.deepEqual(await leftovers(prefix), ["drover", "sweep.sh"]);
          // A FIFO there is not a file either.
          await Deno.remove(`${prefix}/drover`);
          const fifo = await exec(["mkfifo", `${prefix}/drover`]);
          assert.equal(fifo.code, 0, fifo.stderr);
          await chownForUser(prefix);
          const f = await exec(asUser([
            ...env([`DROVER_BASE_URL=${base}/r2`]),
            "sh",
            `${work}/install.sh`,
            "--prefix",
            prefix,
          ]));
          assert.equal(f.code, 1, f.stderr);
          assert.match(
            f.stderr,
            /dirprefix\/drover is not a regular file; .*\(nothing was changed\)/,
          );
          assert.deepEqual(await leftovers(prefix), ["drover", "sweep.sh"]);
        },
      );

      await t.step(
        "a drover that cannot be replaced (immutable): exit 1, says so, sweep.sh put back",
        async () => {
          const chattr = which("chattr");
          if (!ROOT_RUN || !chattr) {
            console.log(
              `SKIP unreplaceable drover: ${ROOT_RUN ? "chattr is not installed" : "needs root"}`,
            );
            return;
          }
          // An install of r1 with an older sweep.sh, then drover made immutable (chattr +i): no
          // rename can replace it, so the upgrade to r2 has to undo its first step.
          const prefix = `${home}/immutable`;
          const r1 = await exec(asUser([
            ...env([`DROVER_BASE_URL=${base}/r1`]),
            "sh",
            `${work}/install.sh`,
            "--prefix",
            prefix,
          ]));
          assert.equal(r1.code, 0, r1.stderr);
          await Deno.writeTextFile(`${prefix}/sweep.sh`, "#!/bin/sh\necho old sweep\n");
          await chownForUser(prefix);
          const sweepBefore = await Deno.stat(`${prefix}/sweep.sh`);
          const droverBefore = await sha256(`${prefix}/drover`);
          const lock = await exec([chattr, "+i", `${prefix}/drover`]);
          if (lock.code !== 0) {
            console.log(`SKIP unreplaceable drover: chattr +i failed here (${lock.stderr.trim()})`);
            return;
          }
          try {
            const r = await exec(asUser([
              ...env([`DROVER_BASE_URL=${base}/r2`]),
              "sh",
              `${work}/install.sh`,
              "--prefix",
              prefix,
            ]));
            assert.equal(r.code, 1, r.stderr);
            assert.match(
              r.stderr,
              /error: cannot replace .*immutable\/drover \(.*Operation not permitted.*\); put back the previous sweep\.sh; the previous install is as it was/,
            );
            assert.doesNotMatch(r.stderr, /upgraded|installed drover/);
            assert.equal(await sha256(`${prefix}/drover`), droverBefore);
            assert.equal(
              await Deno.readTextFile(`${prefix}/sweep.sh`),
              "#!/bin/sh\necho old sweep\n",
            );
            assert.equal(
              (await Deno.stat(`${prefix}/sweep.sh`)).ino,
              sweepBefore.ino,
              "the same file",
            );
            assert.deepEqual(await leftovers(prefix), ["drover", "sweep.sh"]);
            // No sweep.sh before: the new one is removed again.
            await Deno.remove(`${prefix}/sweep.sh`);
            const fresh = await exec(asUser([
              ...env([`DROVER_BASE_URL=${base}/r2`]),
              "sh",
              `${work}/install.sh`,
              "--prefix",
              prefix,
            ]));
            assert.equal(fresh.code, 1, fresh.stderr);
            assert.match(
              fresh.stderr,
              /; removed the new sweep\.sh; the previous install is as it was/,
            );
            assert.deepEqual(await leftovers(prefix), ["drover"]);
          } finally {
            await exec([chattr, "-i", `${prefix}/drover`]);
          }
          // Replaceable again: the upgrade goes through.
          const ok = await exec(asUser([
            ...env([`DROVER_BASE_URL=${base}/r2`]),
            "sh",
            `${work}/install.sh`,
            "--prefix",
            prefix,
          ]));
          assert.equal(ok.code, 0, ok.stderr);
          assert.equal(await sha256(`${prefix}/drover`), await sha256(fx.drover.r2));
          assert.deepEqual(await leftovers(prefix), ["drover", "sweep.sh"]);
        },
      );

      await t.step(
        "a tampered archive is refused and nothing is installed or changed",
        async () => {
          const installed = await sha256(`${bin}/drover`);
          const r = await exec(
            asUser([...env([`DROVER_BASE_URL=${base}/bad`]), "sh", `${work}/install.sh`]),
          );
          assert.equal(r.code, 5, r.stderr);
          assert.match(r.stderr, /error: checksum mismatch for drover-.*nothing was installed/);
          assert.equal(await sha256(`${bin}/drover`), installed);
          assert.deepEqual(await leftovers(bin), ["drover", "sweep.sh"]);
          const fresh = `${home}/fresh`;
          const r2 = await exec(asUser([
            ...env([`DROVER_BASE_URL=${base}/bad`]),
            "sh",
            `${work}/install.sh`,
            "--prefix",
            fresh,
          ]));
          assert.equal(r2.code, 5, r2.stderr);
          assert.ok(!(await exists(fresh)), "a refused install created its prefix");
          assert.ok(!(await exists("/tmp/pwned")), "the tampered drover ran");
          const nosum = await exec(asUser([
            ...env([`DROVER_BASE_URL=${base}/nosum`]),
            "sh",
            `${work}/install.sh`,
            "--prefix",
            fresh,
          ]));
          assert.equal(nosum.code, 5, nosum.stderr);
          assert.match(nosum.stderr, /SHA256SUMS .* has no entry for drover-/);
          assert.ok(!(await exists(fresh)));
          // Nothing of the installer is left in the temporary directory either.
          const tmpLeft = (await leftovers(Deno.env.get("TMPDIR") ?? "/tmp")).filter((n) =>
            n.startsWith("drover-install.")
          );
          assert.deepEqual(tmpLeft, []);
        },
      );

      // A PATH holding only the tools install.sh may use, to take curl and wget away.
      const tools = [
        "sh",
        "uname",
        "id",
        "mktemp",
        "rm",
        "mkdir",
        "cp",
        "mv",
        "ln",
        "chmod",
        "tar",
        "gzip",
        "sha256sum",
        "cut",
        "cat",
      ];
      const minimalPath = async (name: string, extra: string[]) => {
        const dir = `${work}/${name}`;
        await Deno.mkdir(dir);
        for (const tool of [...tools, ...extra]) {
          const at = which(tool);
          assert.ok(at, `${tool} is not installed`);
          await Deno.symlink(at, `${dir}/${tool}`);
        }
        return dir;
      };
      const onlyBase = await minimalPath("path-base", []);
      const withWget =
        optionalTool("wget", "install.sh with wget", "apt: wget; .ci/run installs it")
          ? await minimalPath("path-wget", ["wget"])
          : undefined;

      await t.step(
        "no curl and no wget: a clear refusal (exit 4); file:// still works",
        async () => {
          const prefix = `${home}/nodl`;
          const r = await exec(asUser([
            "env",
            "-i",
            `HOME=${home}`,
            `PATH=${onlyBase}`,
            `DROVER_BASE_URL=${base}/r1`,
            "sh",
            `${work}/install.sh`,
            "--prefix",
            prefix,
          ]));
          assert.equal(r.code, 4, r.stderr);
          assert.match(r.stderr, /error: neither curl nor wget is installed/);
          assert.ok(!(await exists(prefix)));
          const f = await exec(asUser([
            "env",
            "-i",
            `HOME=${home}`,
            `PATH=${onlyBase}`,
            `DROVER_BASE_URL=file://${work}/www/r1/`,
            "sh",
            `${work}/install.sh`,
            "--prefix",
            prefix,
          ]));
          assert.equal(f.code, 0, f.stderr);
          assert.equal(await sha256(`${prefix}/drover`), await sha256(fx.drover.r1));
        },
      );

      await t.step("wget alone is enough (run by bash --posix)", async () => {
        if (!withWget) return; // skipped, and said so above
        const prefix = `${home}/wget`;
        const r = await exec(asUser([
          "env",
          "-i",
          `HOME=${home}`,
          `PATH=${withWget}`,
          `DROVER_BASE_URL=${base}/r2`,
          "/bin/bash",
          "--posix",
          `${work}/install.sh`,
          `--prefix=${prefix}`,
        ]));
        assert.equal(r.code, 0, r.stderr);
        assert.equal(await sha256(`${prefix}/drover`), await sha256(fx.drover.r2));
      });

      await t.step(
        "an unknown platform is refused (exit 3), a bad flag is a usage error (2)",
        async () => {
          const fake = `${work}/fake-uname`;
          await Deno.mkdir(fake);
          await Deno.writeTextFile(
            `${fake}/uname`,
            "#!/bin/sh\ncase $1 in -s) echo Plan9 ;; -m) echo x86_64 ;; esac\n",
          );
          await Deno.chmod(`${fake}/uname`, 0o755);
          await chownForUser(fake);
          const prefix = `${home}/plan9`;
          const r = await exec(asUser([
            "env",
            "-i",
            `HOME=${home}`,
            `PATH=${fake}:/usr/bin:/bin`,
            `DROVER_BASE_URL=${base}/r1`,
            "sh",
            `${work}/install.sh`,
            "--prefix",
            prefix,
          ]));
          assert.equal(r.code, 3, r.stderr);
          assert.match(r.stderr, /error: unsupported platform: Plan9 x86_64/);
          assert.ok(!(await exists(prefix)));
          const usage = await exec(asUser([...env(), "sh", `${work}/install.sh`, "--bogus"]));
          assert.equal(usage.code, 2);
          assert.match(usage.stderr, /unknown argument: --bogus/);
        },
      );

      await t.step(
        "as root the default prefix is /usr/local/bin (in a private mount namespace)",
        async () => {
          if (!ROOT_RUN) {
            console.log("SKIP root default prefix: the test does not run as root");
            return;
          }
          const probe = await exec(["unshare", "-m", "true"]);
          if (probe.code !== 0) {
            console.log(
              `SKIP root default prefix: unshare -m is not permitted (${probe.stderr.trim()})`,
            );
            return;
          }
          // A tmpfs over /usr/local/bin inside a new mount namespace: the real one is never touched.
          const script = `mount -t tmpfs tmpfs /usr/local/bin && ` +
            `env -i HOME=${home} PATH=/usr/bin:/bin DROVER_BASE_URL=${base}/r1 sh ${work}/install.sh && ` +
            `ls -A /usr/local/bin && /usr/local/bin/drover --version`;
          const r = await exec(["unshare", "-m", "sh", "-c", script]);
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stdout, `drover\nsweep.sh\n${VERSION}\n`);
          assert.match(r.stderr, /installed drover .* in \/usr\/local\/bin/);
        },
      );
    } finally {
      await server.shutdown();
      await Deno.remove(work, { recursive: true });
    }
  },
  { hint: "apt: curl; .ci/run installs it" },
);
