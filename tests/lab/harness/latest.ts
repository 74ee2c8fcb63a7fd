/**
 * The drift check, `deno task lab --latest`: install the newest published version of each lab CLI
 * into a scratch prefix (`npm view` + `npm install --prefix`), run the selected suites against those
 * installs exactly as the pinned ones run, compare every screen with the newest pinned version's
 * fixture (state-defining lines, and detect()'s verdicts field by field) and write the drift report
 * (drift.md + drift.json). Not part of `.ci/run`: its input changes whenever a CLI ships.
 *
 * ```ts
 * const report = await runLatest(suites, { jobs: 4, reportDir: "/tmp/drift", scratchRoot, … });
 * report.drift  // true → exit 1
 * ```
 */
import { type CliId, compareVersions, LAB_CLIS, pinnedCliVersions, useScratchCli } from "./clis.ts";
import {
  buildDriftReport,
  type DriftCli,
  type DriftReport,
  installScratch,
  latestVersion,
  type ScreenKey,
  writeDriftReport,
} from "./drift.ts";
import { fixtureDir, readManifest } from "./fixtures.ts";
import { runLab } from "./runner.ts";
import type { LabSuite } from "./scenario.ts";

export interface LatestOptions {
  jobs: number;
  only?: string[];
  sizes?: string[];
  allSuites?: LabSuite[];
  noDetect?: boolean;
  /** Fresh screens go here (the report links them). */
  outDir: string;
  /** Scratch npm prefixes, one per CLI and version (`<root>/<cli>-<version>`); reused when present. */
  scratchRoot: string;
  /** drift.md + drift.json. */
  reportDir: string;
  log?: (line: string) => void;
  /** Seams for tests: the registry look-up and the scratch install. */
  lookup?: (pkg: string) => Promise<string>;
  install?: (root: string, id: string, pkg: string, version: string) => Promise<string>;
}

/**
 * Which lab CLI a suite drives: its fixtures' CLI, else the CLI its name starts with
 * (`qwen-approve`), else Claude Code (the `approve`, `drive` and `launch` suites).
 */
export function suiteCli(s: LabSuite): CliId {
  const fromFixtures = LAB_CLIS.find((c) => c.id === s.fixtures?.cli);
  if (fromFixtures) return fromFixtures.id;
  const named = LAB_CLIS.find((c) => s.name === c.id || s.name.startsWith(`${c.id}-`));
  return named?.id ?? "claude-code";
}

export async function runLatest(suites: LabSuite[], opts: LatestOptions): Promise<DriftReport> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const lookup = opts.lookup ?? latestVersion;
  const install = opts.install ?? installScratch;
  const started = new Date();
  const wanted = new Set(suites.map(suiteCli));
  const clis: DriftCli[] = [];
  const baselineOf = new Map<string, { baseline: string; latest: string }>();
  for (const { id, pkg } of LAB_CLIS) {
    if (!wanted.has(id)) continue;
    const pinned = await pinnedCliVersions(id);
    const entry: DriftCli = { cli: id, pkg, pinned, latest: "", status: "ran" };
    clis.push(entry);
    try {
      entry.latest = await lookup(pkg);
    } catch (e) {
      entry.status = "lookup-failed";
      entry.error = e instanceof Error ? e.message : String(e);
      log(`  ${id}: ${entry.error}`);
      continue;
    }
    try {
      log(`  ${id}: newest published ${entry.latest} (pinned: ${pinned.join(", ")}); installing`);
      const prefix = await install(opts.scratchRoot, id, pkg, entry.latest);
      useScratchCli(id, entry.latest, prefix);
      // The baseline is the newest pinned version at or below the latest one.
      const older = pinned.filter((v) => compareVersions(v, entry.latest) <= 0);
      baselineOf.set(id, { baseline: older.at(-1) ?? pinned.at(-1) ?? "", latest: entry.latest });
    } catch (e) {
      entry.status = "install-failed";
      entry.error = e instanceof Error ? e.message : String(e);
      log(`  ${id}: ${entry.error}`);
    }
  }
  // A CLI that could not be looked up or installed has no scratch stand-in: its suites would run
  // the pinned versions again, which says nothing about drift.
  const runnable = suites.filter((s) => baselineOf.has(suiteCli(s)));
  const lab = await runLab(runnable, {
    mode: "check",
    jobs: opts.jobs,
    only: opts.only,
    sizes: opts.sizes,
    allSuites: opts.allSuites,
    noDetect: opts.noDetect,
    outDir: opts.outDir,
    log,
    drift: {
      baseline: (cli, version) => {
        const b = baselineOf.get(cli);
        return b && b.latest === version && b.baseline ? b.baseline : version;
      },
    },
  });
  // Screens of the baseline that the latest version never showed (only when no scenario filter
  // hides some of them).
  const expected = new Map<string, { baseline: string; latest: string; screens: ScreenKey[] }>();
  if (!opts.only?.length) {
    const sizesRun = new Set(lab.results.map((r) => r.size));
    for (const s of runnable) {
      if (!s.fixtures || !s.profile) continue;
      const b = baselineOf.get(s.fixtures.cli);
      if (!b?.baseline || expected.has(s.fixtures.cli)) continue;
      const manifest = await readManifest(fixtureDir(s.fixtures.cli, b.baseline));
      expected.set(s.fixtures.cli, {
        ...b,
        screens: (manifest?.screens ?? [])
          .filter((e) => sizesRun.has(e.size))
          .map((e) => ({ screen: e.file.replace(/@\d+x\d+\.txt$/, ""), size: e.size })),
      });
    }
  }
  const report = buildDriftReport({
    started: started.toISOString(),
    ms: Date.now() - started.getTime(),
    clis,
    results: lab.results,
    expected,
  });
  const paths = await writeDriftReport(opts.reportDir, report);
  log("");
  log(`lab --latest: ${report.drift ? "DRIFT" : "no drift"}; report: ${paths.markdown}`);
  return report;
}
