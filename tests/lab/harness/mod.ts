/**
 * The lab harness: everything a suite in tests/lab/suites/ needs, in one import.
 *
 * - {@link LabServer} / {@link LabPane} (tmux.ts): private tmux server, a CLI in a pane of a given size
 *   with a controlled env + throwaway HOME, `type` / `keys` / `paste`, `waitFor` (timeout → failure with
 *   the last screen), `capture` (plain `-p -J` + styled `-p -e -J`), relaunch-once on a failed start.
 * - {@link resolveCli} (clis.ts): the pinned real CLIs (versions only in tests/lab/clis/package.json).
 * - {@link startClaude} (claude.ts): Claude Code + the Anthropic stand-in + a seeded HOME, ready to drive.
 * - {@link LabSuite} / {@link ScenarioContext} (scenario.ts): how to write a suite; `ctx.screen()` records or
 *   compares a fixture.
 * - fixtures.ts: fixture layout, manifest, normalised comparison; runner.ts: `runLab` (used by main.ts).
 */
export * from "./tmux.ts";
export * from "./clis.ts";
export * from "./claude.ts";
export * from "./scenario.ts";
export * from "./fixtures.ts";
export { runLab } from "./runner.ts";
export * from "../../../lib/scenarios/standins/anthropic.ts";
export * from "./anthropic_turns.ts";
export type { JobResult, LabReport, RunOptions } from "./runner.ts";
export { loadDetector } from "./detect_hook.ts";
export type { Detector, Verdicts } from "./detect_hook.ts";
