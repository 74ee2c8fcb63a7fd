/**
 * Record the held-out screens (tests/lab/unseen/suites.ts) into tests/fixtures/unseen/<cli>/<version>/.
 * Always record mode and never detect(): the expectations are written from the screens, and the
 * score is tests/unit/unseen_screens_test.ts.
 *
 *   deno run -A tests/lab/unseen/record.ts [--suite unseen-qwen] [--only TEXT]... [--size 100x30]
 *     [--cli-version V]... [--jobs N] [--out DIR]
 */
import { parseArgs } from "node:util";
import { runLab } from "../harness/runner.ts";
import { UNSEEN_SUITES } from "./suites.ts";

const { values: v } = parseArgs({
  args: Deno.args,
  options: {
    suite: { type: "string", multiple: true },
    only: { type: "string", multiple: true },
    size: { type: "string", multiple: true },
    "cli-version": { type: "string", multiple: true },
    jobs: { type: "string" },
    out: { type: "string" },
  },
});
const suites = v.suite?.length
  ? UNSEEN_SUITES.filter((s) => v.suite!.includes(s.name))
  : UNSEEN_SUITES;
const outDir = v.out ?? await Deno.makeTempDir({ prefix: "drover-unseen-" });
const report = await runLab(suites, {
  mode: "record",
  noDetect: true,
  jobs: Number(v.jobs ?? 3),
  only: v.only,
  sizes: v.size,
  versions: v["cli-version"],
  allSuites: UNSEEN_SUITES,
  outDir,
});
const failed = report.results.filter((r) => !r.ok);
console.log(
  `unseen: ${
    report.results.length - failed.length
  }/${report.results.length} runs, ${report.screens} screens recorded`,
);
for (const f of failed) {
  console.log(
    `  FAIL ${f.suite}/${f.scenario}@${f.size} [${f.version}]: ${
      (f.error ?? f.reasons.join(" | ")).split("\n")[0]
    }`,
  );
}
Deno.exit(failed.length ? 1 : 0);
