/**
 * `deno task lab` — run every real-CLI lab suite (modules in tests/lab/suites/ exporting `suite`).
 *
 *   deno task lab                      compare fresh screens with fixtures (+ detect() when available)
 *   deno task lab --record             re-record fixtures
 *   deno task lab --suite claude-screens  only that suite (repeatable)
 *   deno task lab --only bash-prompt   only scenarios whose "suite/scenario" contains the text (repeatable)
 *   deno task lab --size 120x40        only one pane size (repeatable)
 *   deno task lab --cli-version 2.1.332  only that version of suites pinned at several (repeatable)
 *   deno task lab --jobs 4             parallel scenarios (default 6, or $LAB_JOBS)
 *   deno task lab --no-detect          skip detect()
 *   deno task lab --list               list scenarios and exit
 *   deno task lab --latest             the drift check: the newest published version of each CLI,
 *                                      installed into a scratch prefix, through the same scenarios;
 *                                      compared with the newest pinned fixtures; drift.md + drift.json
 *                                      in --report DIR (default: the --out dir). Scratch installs go
 *                                      to --scratch DIR (default $TMPDIR/drover-lab-latest, reused).
 *
 * Exit status: 0 all passed, 1 a scenario failed or a screen differs (--latest: any drift, or a CLI
 * that could not be looked up or installed), 2 usage error.
 */
import { parseArgs } from "node:util";
import { type LabSuite, runLab } from "./harness/mod.ts";
import { scenarioApplies, suiteVersions } from "./harness/runner.ts";
import { runLatest } from "./harness/latest.ts";

const SUITES_DIR = new URL("./suites/", import.meta.url);

async function discover(): Promise<LabSuite[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(SUITES_DIR)) {
      if (e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) names.push(e.name);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const suites: LabSuite[] = [];
  for (const name of names.sort()) {
    const mod = await import(new URL(name, SUITES_DIR).href);
    // Helper modules without a `suite` export are allowed next to suites.
    if (mod.suite) suites.push(mod.suite as LabSuite);
  }
  return suites;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: Deno.args,
      options: {
        record: { type: "boolean", default: false },
        suite: { type: "string", multiple: true },
        only: { type: "string", multiple: true },
        size: { type: "string", multiple: true },
        "cli-version": { type: "string", multiple: true },
        jobs: { type: "string" },
        "no-detect": { type: "boolean", default: false },
        list: { type: "boolean", default: false },
        out: { type: "string" },
        latest: { type: "boolean", default: false },
        scratch: { type: "string" },
        report: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    });
  } catch (e) {
    console.error(`lab: ${e instanceof Error ? e.message : e} (see --help)`);
    return 2;
  }
  const v = args.values;
  if (v.help) {
    console.log(
      "usage: deno task lab [--record] [--suite NAME]... [--only TEXT]... [--size COLSxROWS]... [--cli-version V]... [--jobs N] [--no-detect] [--list] [--out DIR]\n" +
        "       deno task lab --latest [--scratch DIR] [--report DIR] [--suite NAME]... [--only TEXT]... [--size COLSxROWS]... [--jobs N] [--out DIR]",
    );
    return 0;
  }
  // A job mostly waits on its CLI (a model stand-in, retry back-offs, settle waits): the whole lab
  // is ~6600 job-seconds, 25 min at 4 side by side; 6 keep it under 20 min on 2 cores.
  const jobs = v.jobs === undefined ? Number(Deno.env.get("LAB_JOBS") ?? 6) : Number(v.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 8) {
    console.error("lab: --jobs must be an integer from 1 to 8");
    return 2;
  }
  for (const s of v.size ?? []) {
    if (!/^\d+x\d+$/.test(s)) {
      console.error(`lab: --size "${s}" must look like 120x40`);
      return 2;
    }
  }
  if (v.latest && (v.record || v["cli-version"]?.length)) {
    console.error(
      "lab: --latest runs the newest published versions; it takes no --record or --cli-version",
    );
    return 2;
  }
  if (!v.latest && (v.scratch !== undefined || v.report !== undefined)) {
    console.error("lab: --scratch and --report go with --latest");
    return 2;
  }
  const all = await discover();
  const unknown = (v.suite ?? []).filter((n) => !all.some((s) => s.name === n));
  if (unknown.length) {
    console.error(
      `lab: no suite named ${unknown.join(", ")} (have: ${all.map((s) => s.name).join(", ")})`,
    );
    return 2;
  }
  const suites = v.suite?.length ? all.filter((s) => v.suite!.includes(s.name)) : all;
  if (v.list) {
    for (const s of suites) {
      const versions = await suiteVersions(s);
      for (const sc of s.scenarios) {
        const at = s.versions ? versions.filter((ver) => scenarioApplies(sc, ver)) : [];
        console.log(
          `${s.name}/${sc.name}${sc.slow ? " (slow)" : ""}${
            at.length ? ` [${at.join(", ")}]` : ""
          }`,
        );
      }
    }
    return 0;
  }
  const outDir = v.out ?? await Deno.makeTempDir({ prefix: "drover-lab-out-" });
  if (v.latest) {
    const tmp = Deno.env.get("TMPDIR") ?? "/tmp";
    console.log(
      `lab: drift check — ${suites.length} suite(s), ${jobs} at a time; fresh screens in ${outDir}`,
    );
    const report = await runLatest(suites, {
      jobs,
      only: v.only,
      sizes: v.size,
      allSuites: all,
      noDetect: v["no-detect"],
      outDir,
      scratchRoot: v.scratch ?? `${tmp}/drover-lab-latest`,
      reportDir: v.report ?? outDir,
    });
    return report.drift ? 1 : 0;
  }
  const mode = v.record ? "record" : "check";
  console.log(
    `lab: ${mode} — ${suites.length} suite(s), ${
      suites.reduce((n, s) => n + s.scenarios.length, 0)
    } scenario(s), ${jobs} at a time; fresh screens in ${outDir}`,
  );
  const report = await runLab(suites, {
    mode,
    jobs,
    only: v.only,
    allSuites: all,
    sizes: v.size,
    versions: v["cli-version"],
    noDetect: v["no-detect"],
    outDir,
  });
  const runs = report.results.length;
  const failed = report.results.filter((r) => !r.ok);
  console.log("");
  console.log(
    `lab: ${runs - failed.length}/${runs} scenario runs passed, ${report.screens} screens ${
      mode === "record" ? "recorded" : "checked"
    }, detect() ${report.detectAvailable && !v["no-detect"] ? "checked" : "not run"}, ${
      (report.ms / 1000).toFixed(0)
    }s`,
  );
  for (const f of failed) {
    const why = f.error ? f.error.split("\n")[0] : f.reasons.join(" | ");
    console.log(
      `  FAIL ${f.suite}/${f.scenario}@${f.size}${f.version ? ` [${f.version}]` : ""}: ${why}`,
    );
  }
  if (runs === 0) {
    console.log("lab: nothing ran (check --only / --size)");
    return 1;
  }
  return failed.length ? 1 : 0;
}

Deno.exit(await main());
