/**
 * Runs lab suites: every (scenario × size) is one job on its own private tmux server; jobs run side by
 * side with bounded concurrency; slow scenarios start first. In record mode the screens become
 * fixtures; in check mode each fresh screen's state-defining lines are compared with its fixture and
 * detect() (when the engine exists) must give the manifest's state.
 *
 * ```ts
 * const report = await runLab(suites, { mode: "check", jobs: 2, only: ["bash"] });
 * report.failures  // 0 = all good
 * ```
 */
import {
  compareDefining,
  fixtureDir,
  type ManifestScreen,
  readFixture,
  readManifest,
  screenFile,
  styledFile,
  writeFixtures,
} from "./fixtures.ts";
import {
  type LabScenario,
  type LabSuite,
  makeContext,
  type RecordedScreen,
  type Size,
} from "./scenario.ts";
import { DEFAULT_SIZES } from "./scenario.ts";
import { compareVersions } from "./clis.ts";
import { LabServer, type Screen } from "./tmux.ts";
import { type Detector, loadDetector } from "./detect_hook.ts";
import { type FieldDrift, verdictDrift } from "./drift.ts";

/** One screen against its baseline fixture, in the drift check. */
export interface ScreenDrift {
  cli: string;
  /** The version whose fixture is the baseline. */
  baseline: string;
  fields: FieldDrift[];
  /** Scenario expectations (state, expect) the fresh screen does not meet. */
  expectations: string[];
  /** Where the fresh capture was written, when it was. */
  fresh?: string;
}

export interface RunOptions {
  mode: "record" | "check";
  /** Parallel jobs (default 3: a job mostly waits on a CLI; measured ~12% of one core per job). */
  jobs?: number;
  /** Only scenarios whose "suite/scenario" contains one of these. */
  only?: string[];
  /** Only these sizes ("120x40"). */
  sizes?: string[];
  /** Only these CLI versions (suites that run against several). */
  versions?: string[];
  /**
   * Every discovered suite, when `suites` is a subset (--suite): a fixture dir another suite also
   * records into keeps the entries this run did not produce.
   */
  allSuites?: LabSuite[];
  /** Skip detect() even when the engine exists. */
  noDetect?: boolean;
  /** Where fresh screens are written for inspection (check mode). */
  outDir?: string;
  /**
   * The drift check (`--latest`): which fixture folder a run version is compared with (the newest
   * pinned version for a scratch-installed latest one), and per screen the verdicts of detect() on
   * that fixture vs on the fresh screen (`JobResult.screens[].drift`).
   */
  drift?: { baseline(cli: string, version: string): string };
  log?: (line: string) => void;
}

export interface JobResult {
  suite: string;
  scenario: string;
  size: string;
  /** The CLI version the job ran against ("" when the suite has none). */
  version: string;
  ok: boolean;
  ms: number;
  error?: string;
  /** Short reasons for a failure: "fixture differs", "no fixture", "detect mismatch", "error". */
  reasons: string[];
  screens: Array<
    {
      name: string;
      compare: "recorded" | "same" | "differs" | "no-fixture";
      detect: string;
      diff?: string;
      /** Drift check only: what changed against the baseline fixture. */
      drift?: ScreenDrift;
    }
  >;
}

export interface LabReport {
  results: JobResult[];
  failures: number;
  screens: number;
  ms: number;
  detectAvailable: boolean;
}

interface Job {
  suite: LabSuite;
  scenario: LabScenario;
  size: Size;
  version: string;
}

const sizeName = (s: Size) => `${s.cols}x${s.rows}`;

/** The versions a suite runs against: `versions()`, else its one fixture version, else [""]. */
export async function suiteVersions(suite: LabSuite): Promise<string[]> {
  if (suite.versions) return await suite.versions();
  if (suite.fixtures) return [await suite.fixtures.version().catch(() => "?")];
  return [""];
}

/** Does a scenario exist in this CLI version (its `since` / `before` bounds)? */
export function scenarioApplies(scenario: LabScenario, version: string): boolean {
  if (version === "" || version === "?") return true;
  if (scenario.since && compareVersions(version, scenario.since) < 0) return false;
  if (scenario.before && compareVersions(version, scenario.before) >= 0) return false;
  return true;
}

/** " [2.1.332]" for jobs of multi-version suites, "" otherwise. */
function versionTag(job: { suite: LabSuite; version: string }): string {
  return job.suite.versions && job.version ? ` [${job.version}]` : "";
}

export async function runLab(suites: LabSuite[], opts: RunOptions): Promise<LabReport> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const started = Date.now();
  const jobs: Job[] = [];
  const versionsOf = new Map<LabSuite, string[]>();
  for (const s of new Set([...suites, ...(opts.allSuites ?? [])])) {
    versionsOf.set(s, await suiteVersions(s));
  }
  for (const suite of suites) {
    for (const version of versionsOf.get(suite)!) {
      if (opts.versions?.length && suite.versions && !opts.versions.includes(version)) continue;
      for (const scenario of suite.scenarios) {
        const id = `${suite.name}/${scenario.name}`;
        if (opts.only?.length && !opts.only.some((o) => id.includes(o))) continue;
        if (!scenarioApplies(scenario, version)) continue;
        for (const size of scenario.sizes ?? suite.sizes ?? DEFAULT_SIZES) {
          if (opts.sizes?.length && !opts.sizes.includes(sizeName(size))) continue;
          jobs.push({ suite, scenario, size, version });
        }
      }
    }
  }
  const detector = opts.noDetect ? undefined : await loadDetector();
  if (!opts.noDetect && !detector) {
    log(
      "  note: lib/detect/mod.ts (detect) is not available yet: screens are compared with fixtures only",
    );
  }
  const recorded = new Map<string, Array<{ entry: ManifestScreen; screen: Screen }>>();
  const results: JobResult[] = [];
  // Slow scenarios (a full retry cycle: minutes of an idle CLI waiting on backoff) get a lane each, so
  // they overlap the whole run instead of holding one of the `jobs` slots.
  const slow = jobs.filter((j) => j.scenario.slow);
  const queue = jobs.filter((j) => !j.scenario.slow);
  const run = async (job: Job) => results.push(await runJob(job, opts, detector, recorded, log));
  const workers = [
    ...slow.map(run),
    ...Array.from({ length: Math.max(1, opts.jobs ?? 3) }, async () => {
      while (queue.length) await run(queue.shift()!);
    }),
  ];
  await Promise.all(workers);

  if (opts.mode === "record") {
    // One write per fixture dir: several suites (and each version of a multi-version suite) record
    // into their own CLI version's folder.
    const dirOf = (s: LabSuite, v: string) => s.fixtures ? fixtureDir(s.fixtures.cli, v) : "";
    for (const [dir, screens] of recorded) {
      if (!screens.length) continue;
      const version = dir.split("/").at(-1)!;
      const mine = suites.filter((s) => versionsOf.get(s)!.some((v) => dirOf(s, v) === dir));
      const first = mine[0].fixtures!;
      // Rewrite the manifest from scratch only after a complete, clean run of everything that
      // records there; otherwise keep the entries this run did not produce.
      const merge = !!(opts.only?.length || opts.sizes?.length) ||
        results.some((r) =>
          mine.some((s) => s.name === r.suite) && r.version === version && !r.ok
        ) ||
        [...suites, ...(opts.allSuites ?? [])].some((s) =>
          s.fixtures && !mine.includes(s) && versionsOf.get(s)!.some((v) => dirOf(s, v) === dir)
        );
      await writeFixtures(dir, { cli: first.cli, version, setup: first.setup }, screens, {
        merge,
      });
      log(`  wrote ${screens.length} screens to ${dir.replace(/^.*\/tests\//, "tests/")}`);
    }
  }
  const failures = results.filter((r) => !r.ok).length;
  return {
    results,
    failures,
    screens: results.reduce((n, r) => n + r.screens.length, 0),
    ms: Date.now() - started,
    detectAvailable: !!detector,
  };
}

async function runJob(
  job: Job,
  opts: RunOptions,
  detector: Detector | undefined,
  recorded: Map<string, Array<{ entry: ManifestScreen; screen: Screen }>>,
  log: (l: string) => void,
): Promise<JobResult> {
  const { suite, scenario, size, version } = job;
  const tag = versionTag(job);
  const t0 = Date.now();
  const result: JobResult = {
    suite: suite.name,
    scenario: scenario.name,
    size: sizeName(size),
    version,
    ok: true,
    ms: 0,
    screens: [],
    reasons: [],
  };
  const got: RecordedScreen[] = [];
  const deadline = new AbortController();
  const timeoutMs = scenario.timeoutMs ?? 240_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await using lab = await LabServer.start({
      tag: scenario.name.slice(0, 20),
      keyLog: scenario.keyLog === true,
    });
    const ctx = makeContext({
      lab,
      size,
      version,
      mode: opts.mode,
      suite,
      scenario,
      signal: deadline.signal,
      log: (m) => log(`    [${suite.name}/${scenario.name}@${sizeName(size)}${tag}] ${m}`),
    }, (s) => got.push(s));
    await Promise.race([
      scenario.run(ctx),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          deadline.abort();
          reject(new Error(`scenario exceeded its deadline of ${timeoutMs} ms`));
        }, timeoutMs);
      }),
    ]);
  } catch (e) {
    result.ok = false;
    result.error = e instanceof Error ? e.message : String(e);
    result.reasons.push("error");
  } finally {
    clearTimeout(timer);
  }

  const baseline = suite.fixtures && version && version !== "?"
    ? (opts.drift?.baseline(suite.fixtures.cli, version) ?? version)
    : "";
  const dir = suite.fixtures && baseline ? fixtureDir(suite.fixtures.cli, baseline) : undefined;
  const manifest = dir && opts.mode === "check" ? await readManifest(dir) : undefined;
  for (const s of got) {
    const file = screenFile(s.name, s.size.cols, s.size.rows);
    const row: JobResult["screens"][number] = { name: s.name, compare: "recorded", detect: "-" };
    let freshPath: string | undefined;
    if (opts.outDir) {
      const out = `${opts.outDir}/${suite.name}${suite.versions && version ? `/${version}` : ""}`;
      await Deno.mkdir(out, { recursive: true });
      freshPath = `${out}/${file}`;
      await Deno.writeTextFile(freshPath, s.screen.plain);
      await Deno.writeTextFile(
        `${out}/${styledFile(s.name, s.size.cols, s.size.rows)}`,
        s.screen.styled,
      );
    }
    if (dir && opts.mode === "record") {
      const entry: ManifestScreen = {
        file,
        styled: styledFile(s.name, s.size.cols, s.size.rows),
        scenario: s.name,
        size: sizeName(s.size),
        state: s.spec.state,
        defining: s.spec.defining,
        steps: s.steps,
        ...(s.spec.expect ? { expect: s.spec.expect } : {}),
        ...(s.screen.title ? { title: s.screen.title } : {}),
        ...(s.spec.notes ? { notes: s.spec.notes } : {}),
      };
      if (!recorded.has(dir)) recorded.set(dir, []);
      recorded.get(dir)!.push({ entry, screen: s.screen });
    } else if (dir) {
      const fx = await readFixture(dir, file);
      const entry = manifest?.screens.find((e) => e.file === file);
      if (fx === undefined || !entry) {
        row.compare = "no-fixture";
        result.ok = false;
        result.reasons.push(`${s.name}: no fixture (run --record)`);
      } else {
        const cmp = compareDefining(fx, s.screen.plain, entry.defining);
        row.compare = cmp.ok ? "same" : "differs";
        if (!cmp.ok) {
          row.diff = cmp.diff;
          result.ok = false;
          result.reasons.push(`${s.name}: state-defining lines differ from the fixture`);
        }
        if (entry.state !== s.spec.state) {
          row.compare = "differs";
          row.diff = `${
            row.diff ?? ""
          }\n    manifest state ${entry.state} ≠ scenario state ${s.spec.state}`;
          result.ok = false;
        }
      }
    }
    let verdict: Awaited<ReturnType<Detector["judge"]>> | undefined;
    const problems: string[] = [];
    if (detector && suite.profile) {
      verdict = await detector.judge(s.screen, suite.profile);
      if (verdict.state !== s.spec.state) problems.push(`state ${verdict.state} ≠ ${s.spec.state}`);
      for (const [k, v] of Object.entries(s.spec.expect ?? {})) {
        // "*" = any value at all (not null/false/""), for fields whose exact text is not the point.
        const got = verdict[k];
        if (
          v === "*"
            ? (got === null || got === undefined || got === false || got === "")
            : JSON.stringify(got) !== JSON.stringify(v)
        ) {
          problems.push(`${k} ${JSON.stringify(verdict[k])} ≠ ${JSON.stringify(v)}`);
        }
      }
      row.detect = problems.length ? `MISMATCH: ${problems.join("; ")}` : "ok";
      if (problems.length && opts.mode === "check") {
        result.ok = false;
        result.reasons.push(`${s.name}: detect() ${problems.join("; ")}`);
      }
    }
    if (opts.drift && dir && suite.fixtures) {
      const entry = manifest?.screens.find((e) => e.file === file);
      const fx = entry ? await readFixture(dir, file) : undefined;
      let fields: FieldDrift[] = [];
      if (detector && suite.profile && verdict && entry && fx !== undefined) {
        const fxStyled = await readFixture(dir, entry.styled);
        const pinned = await detector.judge(
          { plain: fx, styled: fxStyled ?? fx, title: entry.title },
          suite.profile,
        );
        fields = verdictDrift(pinned, verdict);
      }
      row.drift = {
        cli: suite.fixtures.cli,
        baseline,
        fields,
        expectations: problems,
        ...(freshPath ? { fresh: freshPath } : {}),
      };
    }
    result.screens.push(row);
  }
  result.ms = Date.now() - t0;
  const mark = result.ok ? "ok  " : "FAIL";
  log(
    `${mark} ${suite.name}/${scenario.name}@${result.size}${tag} (${
      (result.ms / 1000).toFixed(1)
    }s, ${got.length} screen${got.length === 1 ? "" : "s"})`,
  );
  for (const r of result.screens) {
    if (r.compare === "differs" || r.compare === "no-fixture" || r.detect.startsWith("MISMATCH")) {
      log(`     ${r.name}: fixture ${r.compare}; detect ${r.detect}`);
      if (r.diff) log(r.diff);
    }
  }
  if (result.error) log(result.error.split("\n").map((l) => `     ${l}`).join("\n"));
  return result;
}
