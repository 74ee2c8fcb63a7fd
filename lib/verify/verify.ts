/**
 * `drover verify`: prove each CLI's resolved profile against the CLI the user has installed. For
 * every CLI asked for: find it (as `clis list` does), read its `--version`, run its scenario table
 * (lib/scenarios) on a private tmux server against a local model stand-in, and judge every screen.
 * No printing here (lib/cli/verify.ts does that); progress goes through `onProgress`.
 */
import { overridesOf } from "../launch/config.ts";
import { resolveProfile } from "../profile/resolve.ts";
import { paneEnv } from "../scenarios/homes.ts";
import { tableFor } from "../scenarios/mod.ts";
import { type ScenarioTable, STANDARD_SCENARIOS, VERIFY_SIZE } from "../scenarios/types.ts";
import { Aborted } from "./aborted.ts";
import { cliVersion, commandFor, findCli, type FoundCli } from "./find.ts";
import type { CliReport, CliStatus, VerifyRequest } from "./report_types.ts";
import type { ScenarioResult } from "./result.ts";
import { runTable } from "./run.ts";
import type { RunTarget } from "./run_types.ts";
import { saveCaptures } from "./save.ts";

export const VERIFY_SCHEMA = "drover.verify.v1";

/** Exit codes of `verify` (README "Exit codes"). */
export const VERIFY_EXIT = {
  HOLD: 0,
  DRIFT: 1,
  USAGE: 2,
  NOT_INSTALLED: 69,
  INTERRUPTED: 130,
} as const;

/**
 * The CLIs a request names: `--cli` as given; otherwise (no flag, or `--all`) every CLI drover has
 * scenarios for: the ones not installed are reported as such and do not fail the run.
 */
export function chooseClis(
  flags: { cli?: string[]; all?: boolean },
  verifiable: readonly string[],
): string[] {
  if (flags.cli?.length && !flags.all) return [...new Set(flags.cli)];
  return [...verifiable];
}

/** What every CLI's run shares: the request, drover's PATH for the CLIs, the one temp root. */
interface RunContext {
  req: VerifyRequest;
  path: string;
  tmpRoot: string;
}

/** A report before its CLI ran: what was found, and under which profile. */
type ReportBase = Omit<CliReport, "status" | "counts" | "scenarios" | "ms" | "summary">;

/** Verify each CLI in turn (one CLI's sessions run side by side). */
export async function verify(req: VerifyRequest): Promise<CliReport[]> {
  const reports: CliReport[] = [];
  const path = req.path ?? Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin";
  const tmpRoot = await Deno.makeTempDir({ prefix: "drover-verify-" });
  const ctx: RunContext = { req, path, tmpRoot };
  // Without --keep-going, the first CLI that drifts stops the CLIs after it.
  let stopped = false;
  try {
    for (const cli of req.clis) {
      const r = await verifyCli(ctx, tableFor(cli)!, stopped);
      reports.push(r);
      req.onProgress?.({ kind: "done", report: r });
      if (r.status === "interrupted") break;
      if (r.status === "drift" && !req.keepGoing) stopped = true;
    }
  } finally {
    await Deno.remove(tmpRoot, { recursive: true }).catch(() => {});
  }
  return reports;
}

/** One CLI's report: not installed, or its table run (not run at all once `stopped`). */
async function verifyCli(
  ctx: RunContext,
  table: ScenarioTable,
  stopped: boolean,
): Promise<CliReport> {
  const { req } = ctx;
  const command = commandFor(table.cli, overridesOf(req.config));
  const found = await findCli(command);
  const profile = resolveProfile(table.cli, req.config);
  const base = reportBase(ctx, table, command, found);
  base.profile.shipped = profile.shipped;
  if (!found.path) {
    req.onProgress?.({ kind: "not-installed", cli: table.cli, command });
    return notInstalled(base, table, command);
  }
  const t0 = Date.now();
  const vhome = await Deno.makeTempDir({ dir: ctx.tmpRoot, prefix: "version-" });
  await Deno.mkdir(`${vhome}/tmp`);
  base.version = (await cliVersion(found.path, paneEnv({ home: vhome }, ctx.path, {}))).version;
  req.onProgress?.({
    kind: "start",
    cli: table.cli,
    version: base.version,
    path: found.path,
    sessions: table.sessions.length,
  });
  const { status, scenarios } = stopped
    ? { status: "drift" as const, scenarios: notRunAll() }
    : await runCli(ctx, { table, exec: found.path, profile, version: base.version });
  const counts = countsOf(scenarios);
  const r: CliReport = {
    ...base,
    status,
    counts,
    scenarios,
    ms: Date.now() - t0,
    summary: status === "interrupted"
      ? `${table.cli} ${base.version ?? ""}: interrupted`.replace("  ", " ")
      : summaryOf(table.cli, base.version, counts),
  };
  if (req.save && status !== "interrupted") r.saved = await saveCaptures(req.save, r);
  return r;
}

function reportBase(
  ctx: RunContext,
  table: ScenarioTable,
  command: string,
  found: FoundCli,
): ReportBase {
  return {
    cli: table.cli,
    command,
    path: found.path,
    found_by: found.how,
    version: null,
    profile: { shipped: null, config: ctx.req.config.path },
    size: `${VERIFY_SIZE.cols}x${VERIFY_SIZE.rows}`,
    saved: null,
  };
}

function notInstalled(base: ReportBase, table: ScenarioTable, command: string): CliReport {
  return {
    ...base,
    status: "not-installed",
    counts: { hold: 0, drift: 0, skipped: 0, not_run: 0, total: 0 },
    scenarios: [],
    ms: 0,
    summary: `${table.cli}: not installed (no "${command}" on the login shell's PATH)`,
  };
}

/** The CLI's table run: its results, or none when it was interrupted. */
async function runCli(
  ctx: RunContext,
  cli: Pick<RunTarget, "table" | "exec" | "profile" | "version">,
): Promise<{ status: CliStatus; scenarios: ScenarioResult[] }> {
  const { req } = ctx;
  try {
    const scenarios = await runTable(
      { ...cli, config: req.config, path: ctx.path },
      {
        keepGoing: req.keepGoing,
        signal: req.signal,
        tmpRoot: ctx.tmpRoot,
        onResult: (result) => req.onProgress?.({ kind: "scenario", cli: cli.table.cli, result }),
      },
    );
    const drifted = scenarios.some((s) => s.status === "drift" || s.status === "not-run");
    return { status: drifted ? "drift" : "hold", scenarios };
  } catch (e) {
    if (!(e instanceof Aborted)) throw e;
    return { status: "interrupted", scenarios: [] };
  }
}

function countsOf(scenarios: ScenarioResult[]): CliReport["counts"] {
  return {
    hold: scenarios.filter((s) => s.status === "hold").length,
    drift: scenarios.filter((s) => s.status === "drift").length,
    skipped: scenarios.filter((s) => s.status === "skipped").length,
    not_run: scenarios.filter((s) => s.status === "not-run").length,
    total: scenarios.length,
  };
}

function summaryOf(cli: string, version: string | null, c: CliReport["counts"]): string {
  const parts = [`${c.hold}/${c.total - c.skipped} scenarios hold`];
  if (c.drift) parts.push(`${c.drift} drifted`);
  if (c.not_run) parts.push(`${c.not_run} not run`);
  if (c.skipped) parts.push(`${c.skipped} skipped`);
  return `${cli} ${version ?? "(version unknown)"}: ${parts.join(", ")}`;
}

function notRunAll(): ScenarioResult[] {
  return STANDARD_SCENARIOS.map((name) => ({
    scenario: name,
    session: "-",
    status: "not-run" as const,
    expect: {},
    seen: null,
    problems: [],
    fields: [],
    reason: "an earlier CLI drifted (--keep-going runs every CLI)",
    wording_missing: [],
    approve: null,
    ms: 0,
    screen: null,
  }));
}

/** The command's exit code for a set of reports. */
export function exitCodeOf(reports: CliReport[]): number {
  if (reports.some((r) => r.status === "interrupted")) return VERIFY_EXIT.INTERRUPTED;
  if (reports.some((r) => r.status === "drift")) return VERIFY_EXIT.DRIFT;
  if (reports.length > 0 && reports.every((r) => r.status === "not-installed")) {
    return VERIFY_EXIT.NOT_INSTALLED;
  }
  return VERIFY_EXIT.HOLD;
}
