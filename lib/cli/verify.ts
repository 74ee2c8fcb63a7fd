/**
 * `drover verify [--cli NAME …|--all] [--save DIR] [--keep-going]`: wiring only (lib/verify does
 * the work). Progress lines go to stderr as scenarios finish; the tables and summaries (or the
 * `drover.verify.v1` envelope) to stdout. Ctrl-C and SIGTERM stop the run, end every process it
 * started and exit 130.
 */
import { DroverError, invalidArgument } from "../errors.ts";
import { configFor } from "./cli_common.ts";
import type { Invocation } from "./invocation.ts";
import type { VERIFY } from "./command_specs.ts";
import { type CommandResult, printable, writeErr } from "./output.ts";
import type { VerifyData } from "../contracts/verify.ts";

export async function action(
  { opts: o, g }: Invocation<typeof VERIFY>,
): Promise<CommandResult<VerifyData>> {
  // Loaded here, not at the top: the stand-ins and tables are verify's alone.
  const { VERIFIABLE, tableFor } = await import("../scenarios/mod.ts");
  const { chooseClis, exitCodeOf, humanReport, progressLine, verify } = await import(
    "../verify/mod.ts"
  );
  if (o.all && o.cli?.length) throw invalidArgument("use either --cli NAME (repeatable) or --all");
  for (const name of o.cli ?? []) {
    if (!tableFor(name)) {
      throw invalidArgument(
        `verify has no scenarios for "${name}"; it verifies: ${VERIFIABLE.join(", ")}`,
      );
    }
  }
  if (o.save !== undefined) {
    if (o.save.trim() === "") throw invalidArgument("--save needs a folder");
    // Before anything starts: a folder that cannot be made must not cost a whole run.
    try {
      await Deno.mkdir(o.save, { recursive: true });
    } catch (e) {
      throw new DroverError(
        "IO_FAILED",
        `--save ${o.save}: cannot create the folder (${e instanceof Error ? e.message : e})`,
      );
    }
  }
  // verify leaves the user's HOME as it found it (docs/verify.md), the config cache included.
  const config = await configFor(g, { cache: false });
  const clis = chooseClis(o, VERIFIABLE).map((n) => tableFor(n)!.cli);

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  let reports;
  try {
    reports = await verify({
      clis,
      config,
      keepGoing: o.keepGoing === true,
      save: o.save ?? null,
      signal: stop.signal,
      onProgress: (e) => {
        const line = progressLine(e);
        if (line !== null) writeErr(printable(line) + "\n");
      },
    });
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  }
  const exit = exitCodeOf(reports);
  if (stop.signal.aborted) writeErr("verify: interrupted; every process it started has ended\n");
  const data: VerifyData = {
    exit_code: exit,
    clis: reports.map((r) => ({
      ...r,
      scenarios: r.scenarios.map(({ screen, ...s }) => ({
        ...s,
        capture: screen && r.saved && s.expect.state
          ? (s.reason === null
            ? `${r.saved}/${s.expect.state}-${s.scenario}.txt`
            : `${r.saved}/unreached/${s.scenario}.txt`)
          : null,
      })),
    })),
  };
  return { data, human: humanReport(reports).map(printable), exitCode: exit };
}
