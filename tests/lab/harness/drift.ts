/**
 * The drift alarm (`deno task lab --latest`): what changed when the newest published version of a
 * CLI is run through the same scenarios as its newest pinned version. This module holds the parts
 * that are not the runner: finding and installing the newest versions into a scratch prefix, the
 * per-field verdict comparison, and the report (markdown for people, JSON for scripts).
 *
 * ```ts
 * const latest = await latestVersion("@qwen-code/qwen-code");     // "0.24.4" (npm view)
 * const prefix = await installScratch(root, "qwen", "@qwen-code/qwen-code", latest);
 * const fields = verdictDrift(pinnedVerdicts, latestVerdicts);     // [{ field, pinned, latest }]
 * await writeDriftReport(dir, report);                             // drift.md + drift.json
 * ```
 *
 * Drift is any of: a verdict field that differs (volatile text normalised the way fixtures are
 * compared), a state-defining line that differs from the pinned fixture, a scenario expectation the
 * latest version no longer meets, a screen the latest version never reached (the scenario failed),
 * or a screen with no pinned fixture to compare with.
 */
import { normalise } from "./fixtures.ts";
import type { JobResult } from "./runner.ts";

/** One verdict field that differs between the pinned fixture and the latest screen. */
export interface FieldDrift {
  field: string;
  pinned: unknown;
  latest: unknown;
}

/** Fields whose change is expected between versions and never counts as drift. */
export const NOT_DRIFT = new Set(["cli_version"]);

/** Strings compare after the fixture normalisation (timers, counters, temp paths, spinners). */
function comparable(v: unknown): unknown {
  if (typeof v === "string") return normalise(v);
  if (Array.isArray(v)) return v.map(comparable);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, comparable(x)]));
  }
  return v;
}

/** Every verdict field (by name) whose value differs between the two screens. */
export function verdictDrift(
  pinned: Record<string, unknown>,
  latest: Record<string, unknown>,
): FieldDrift[] {
  const out: FieldDrift[] = [];
  for (const field of new Set([...Object.keys(pinned), ...Object.keys(latest)])) {
    if (NOT_DRIFT.has(field)) continue;
    const a = comparable(pinned[field] ?? null);
    const b = comparable(latest[field] ?? null);
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      out.push({ field, pinned: pinned[field] ?? null, latest: latest[field] ?? null });
    }
  }
  return out;
}

export type ScreenStatus = "same" | "drift" | "missing" | "no-fixture";

/** One screen of one scenario at one size: pinned fixture → latest fresh screen. */
export interface DriftScreen {
  cli: string;
  suite: string;
  scenario: string;
  screen: string;
  size: string;
  /** The pinned version whose fixture is the baseline. */
  pinned: string;
  latest: string;
  status: ScreenStatus;
  /** Verdict fields that changed (detect() on the fixture vs on the fresh screen). */
  fields: FieldDrift[];
  /** The state-defining lines, normalised, when they differ ("" otherwise). */
  lines: string;
  /** Expectations of the scenario (state, expect) the latest screen no longer meets. */
  expectations: string[];
  /** Why the screen is missing (the scenario's error), when it is. */
  error?: string;
  /** Where the fresh capture was written. */
  fresh?: string;
}

/** One scenario run that did not produce its screens or failed outright. */
export interface DriftJob {
  suite: string;
  scenario: string;
  size: string;
  version: string;
  ok: boolean;
  error?: string;
}

export interface DriftCli {
  cli: string;
  pkg: string;
  /** Pinned versions, oldest first. */
  pinned: string[];
  /** The newest published version ("" when npm could not say). */
  latest: string;
  /** What it was run against: "ran", or why not. */
  status: "ran" | "lookup-failed" | "install-failed" | "no-suite";
  error?: string;
}

export interface DriftReport {
  schema: "drover.lab-drift.v1";
  started: string;
  ms: number;
  clis: DriftCli[];
  screens: DriftScreen[];
  jobs: DriftJob[];
  /** True when anything drifted, a screen is missing or a CLI could not be checked. */
  drift: boolean;
}

/** Does the report hold any drift (or anything that kept a CLI from being checked)? */
export function hasDrift(r: Omit<DriftReport, "drift">): boolean {
  return r.screens.some((s) => s.status !== "same") || r.jobs.some((j) => !j.ok) ||
    r.clis.some((c) => c.status !== "ran");
}

/** What the drift report is built from (see {@link buildDriftReport}). */
export interface DriftInput {
  started: string;
  ms: number;
  clis: DriftCli[];
  /** The runner's results (check mode, `RunOptions.drift` set). */
  results: JobResult[];
  /**
   * Per CLI, every screen of its baseline fixtures at the sizes that ran: one the latest version
   * never showed is `missing`. Leave out when the run was filtered by scenario (`--only`).
   */
  expected?: Map<string, { baseline: string; latest: string; screens: ScreenKey[] }>;
}

export interface ScreenKey {
  screen: string;
  size: string;
}

/** Turn the runner's per-screen comparisons into the drift report. */
export function buildDriftReport(input: DriftInput): DriftReport {
  const screens: DriftScreen[] = [];
  const seen = new Set<string>();
  for (const r of input.results) {
    for (const row of r.screens) {
      if (!row.drift) continue;
      const d = row.drift;
      seen.add(`${d.cli}\n${row.name}\n${r.size}`);
      const status: ScreenStatus = row.compare === "no-fixture"
        ? "no-fixture"
        : row.compare === "differs" || d.fields.length || d.expectations.length
        ? "drift"
        : "same";
      screens.push({
        cli: d.cli,
        suite: r.suite,
        scenario: r.scenario,
        screen: row.name,
        size: r.size,
        pinned: d.baseline,
        latest: r.version,
        status,
        fields: d.fields,
        lines: row.compare === "differs" ? row.diff ?? "" : "",
        expectations: d.expectations,
        ...(d.fresh ? { fresh: d.fresh } : {}),
      });
    }
  }
  for (const [cli, e] of input.expected ?? []) {
    for (const k of e.screens) {
      if (seen.has(`${cli}\n${k.screen}\n${k.size}`)) continue;
      screens.push({
        cli,
        suite: "",
        scenario: "",
        screen: k.screen,
        size: k.size,
        pinned: e.baseline,
        latest: e.latest,
        status: "missing",
        fields: [],
        lines: "",
        expectations: [],
        error: "no scenario run of the latest version reached this screen",
      });
    }
  }
  const jobs: DriftJob[] = input.results.map((r) => ({
    suite: r.suite,
    scenario: r.scenario,
    size: r.size,
    version: r.version,
    ok: !r.error,
    ...(r.error ? { error: r.error } : {}),
  }));
  const report = {
    schema: "drover.lab-drift.v1" as const,
    started: input.started,
    ms: input.ms,
    clis: input.clis,
    screens,
    jobs,
  };
  return { ...report, drift: hasDrift(report) };
}

function cell(v: unknown): string {
  const s = v === null || v === undefined ? "null" : typeof v === "string" ? v : JSON.stringify(v);
  const one = s.replace(/\s+/g, " ");
  return "`" + (one.length > 90 ? one.slice(0, 89) + "…" : one).replaceAll("`", "'") + "`";
}

/** The report for people: per CLI, versions; then every screen that is not the same. */
export function driftMarkdown(r: DriftReport): string {
  const out: string[] = [];
  out.push(`# Drift report (${r.started.slice(0, 10)})`, "");
  out.push(
    r.drift
      ? "**Drift found.** The newest published versions do not behave like the pinned ones on " +
        "the screens below."
      : "No drift: the newest published versions give the pinned verdicts on every screen.",
    "",
  );
  out.push("| CLI | pinned | latest | screens | drifted | missing | status |");
  out.push("| --- | --- | --- | --- | --- | --- | --- |");
  for (const c of r.clis) {
    const mine = r.screens.filter((s) => s.cli === c.cli);
    const drifted = mine.filter((s) => s.status === "drift" || s.status === "no-fixture").length;
    const missing = mine.filter((s) => s.status === "missing").length;
    out.push(
      `| ${c.cli} | ${c.pinned.join(", ")} | ${
        c.latest || "?"
      } | ${mine.length} | ${drifted} | ${missing} | ${c.status}${
        c.error ? `: ${c.error.split("\n")[0]}` : ""
      } |`,
    );
  }
  out.push("", `Took ${(r.ms / 60_000).toFixed(1)} min.`, "");
  const bad = r.screens.filter((s) => s.status !== "same");
  if (bad.length) out.push("## Screens that changed", "");
  for (const s of bad) {
    out.push(
      `### ${s.cli} ${s.suite}/${s.screen}@${s.size} — ${s.status} (${s.pinned} → ${s.latest})`,
      "",
    );
    if (s.error) out.push("Not reached: " + s.error.split("\n")[0], "");
    if (s.fields.length) {
      out.push("| field | pinned | latest |", "| --- | --- | --- |");
      for (const f of s.fields) out.push(`| ${f.field} | ${cell(f.pinned)} | ${cell(f.latest)} |`);
      out.push("");
    }
    if (s.expectations.length) {
      out.push("Scenario expectations not met:", "");
      for (const e of s.expectations) out.push(`- ${e}`);
      out.push("");
    }
    if (s.lines) {
      out.push("State-defining lines (- pinned, + latest):", "", "```", s.lines, "```", "");
    }
    if (s.fresh) out.push(`Fresh capture: \`${s.fresh}\``, "");
  }
  const failed = r.jobs.filter((j) => !j.ok);
  if (failed.length) {
    out.push("## Scenario runs that failed", "");
    for (const j of failed) {
      out.push(
        `- ${j.suite}/${j.scenario}@${j.size} [${j.version}]: ${(j.error ?? "").split("\n")[0]}`,
      );
    }
    out.push("");
  }
  return out.join("\n");
}

/** Write `drift.md` and `drift.json` into `dir`; returns their paths. */
export async function writeDriftReport(
  dir: string,
  r: DriftReport,
): Promise<{ markdown: string; json: string }> {
  await Deno.mkdir(dir, { recursive: true });
  const markdown = `${dir}/drift.md`;
  const json = `${dir}/drift.json`;
  await Deno.writeTextFile(markdown, driftMarkdown(r));
  await Deno.writeTextFile(json, JSON.stringify(r, null, 2) + "\n");
  return { markdown, json };
}

// ---- npm: the newest version, installed into a scratch prefix ----

async function npm(args: string[], timeoutMs: number): Promise<string> {
  const cmd = new Deno.Command("npm", {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  });
  const out = await cmd.output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" ");
    throw new Error(`npm ${args.slice(0, 2).join(" ")} failed: ${err || `exit ${out.code}`}`);
  }
  return text;
}

/** The newest published version of an npm package (`npm view <pkg> version`). */
export async function latestVersion(pkg: string): Promise<string> {
  const v = (await npm(["view", pkg, "version"], 60_000)).trim().split("\n").at(-1)?.trim() ?? "";
  if (!/^[0-9]+\.[0-9]+\.[0-9]+/.test(v)) throw new Error(`npm view ${pkg} version said "${v}"`);
  return v;
}

/**
 * Install `pkg@version` into `<root>/<id>-<version>` (no scripts, no lockfile, no audit) unless it
 * is already there; returns the prefix.
 */
export async function installScratch(
  root: string,
  id: string,
  pkg: string,
  version: string,
): Promise<string> {
  const prefix = `${root}/${id}-${version}`;
  const installed = await Deno.readTextFile(`${prefix}/node_modules/${pkg}/package.json`)
    .then((t) => JSON.parse(t).version as string, () => "");
  if (installed === version) return prefix;
  await Deno.mkdir(prefix, { recursive: true });
  await npm([
    "install",
    "--prefix",
    prefix,
    "--no-save",
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    "--no-package-lock",
    `${pkg}@${version}`,
  ], 600_000);
  return prefix;
}
