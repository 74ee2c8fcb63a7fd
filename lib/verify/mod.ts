/**
 * `drover verify`, its public entry: verifying CLIs (verify.ts) and reading the reports to a person
 * (report.ts), and the table runner the lab drives too (run.ts). One file per concern: find.ts
 * (which executable, its version), run.ts (one table on a private server), session.ts,
 * session_start.ts and session_end.ts (one session, from the CLI's start to everything it started
 * ended), scenario.ts, steps.ts and wait.ts (one scenario on the pane), judge.ts (its screen
 * against the expectation, pure), result.ts and report_types.ts (the shapes reported), untorn.ts
 * (a capture without a torn frame), save.ts (`--save`), aborted.ts (an interrupted run).
 */
export { chooseClis, exitCodeOf, verify, VERIFY_EXIT, VERIFY_SCHEMA } from "./verify.ts";
export type { CliReport, CliStatus, ProgressEvent, VerifyRequest } from "./report_types.ts";
export { cliTable, expectText, humanReport, progressLine, seenText } from "./report.ts";
export { runTable } from "./run.ts";
export type { RunOptions, RunTarget } from "./run_types.ts";
export type { FieldReport, ScenarioResult, Screen, Status } from "./result.ts";
