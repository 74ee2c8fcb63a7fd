/**
 * One scenario on a running CLI: its script for the stand-in, its steps, its `until` wait, a grace
 * for the CLI's own wording, then the screen judged by `detect()` with the resolved profile,
 * exactly as `drive` would see it.
 */
import { detect } from "../detect/mod.ts";
import { fillScript, type Standin } from "../scenarios/standin.ts";
import type { Scenario, Session } from "../scenarios/types.ts";
import { sleep } from "./aborted.ts";
import { judge, judgeApproval } from "./judge.ts";
import { approveView, blank, type ScenarioResult } from "./result.ts";
import type { Live } from "./run_types.ts";
import { runSteps } from "./steps.ts";
import { untornCapture } from "./untorn.ts";
import { POLL_MS, screenOf, waitFor, waitWording } from "./wait.ts";

/**
 * How long a reached screen may take to show the CLI's own wording (`defining`) before it is judged.
 * `until` can be met a moment early on a loaded machine: Qwen Code 0.15.10 once showed its shell
 * call, its busy line gone and the screen still for 1.2 s, with the permission prompt not yet drawn
 * 3 s later (in CI). A release that reworded the screen costs this much per scenario, then shows as
 * drift.
 */
export const WORDING_GRACE_MS = 8_000;

export async function runScenario(
  live: Live,
  session: Session,
  s: Scenario,
  paneId: string,
  standin: Standin,
  project: string,
): Promise<ScenarioResult> {
  const t0 = Date.now();
  const { target, opts } = live;
  const base = standin.mainCount();
  if (s.script?.length) standin.push(fillScript(s.script, { project }));
  const result = blank({ scenario: s.name, session: session.name, expect: s.expect });
  const steps = await runSteps(live, paneId, s.steps ?? [], { base, standin, project });
  if (!steps.ok) {
    return {
      ...result,
      status: "drift",
      reason: `a step on the way: ${steps.why}`,
      screen: steps.screen,
      problems: [`a step on the way: ${steps.why}`],
      ms: Date.now() - t0,
    };
  }
  const { outcome } = steps;
  const w = await waitFor(live, paneId, s.until, base, s.timeoutMs ?? 30_000, standin, project);
  if (!w.ok) {
    return {
      ...result,
      status: "drift",
      reason: w.why,
      screen: w.screen,
      problems: [w.why],
      approve: outcome ? approveView(outcome) : null,
      ms: Date.now() - t0,
    };
  }
  const missing = s.defining?.length
    ? await waitWording(live, paneId, s.defining, opts.wordingGraceMs ?? WORDING_GRACE_MS)
    : [];
  // The reached lines again: a capture taken mid-redraw (a torn frame) is taken again.
  const screen = await untornCapture(
    () => screenOf(live, paneId),
    [...(s.until.shows ?? []), ...(s.defining ?? []).filter((d) => !missing.includes(d))],
    { pollMs: POLL_MS, sleep: (ms) => sleep(ms, opts.signal) },
  );
  const v = detect({ plain: screen.plain, styled: screen.styled }, target.profile, {
    title: screen.title,
  });
  const seen = judge(s.expect, v, target.profile, screen.plain);
  const j = s.expect.approve ? judgeApproval(seen, s.expect.approve, outcome) : seen;
  return {
    ...result,
    status: j.problems.length ? "drift" : "hold",
    ...j,
    wording_missing: missing,
    approve: outcome ? approveView(outcome) : null,
    ms: Date.now() - t0,
    screen,
  };
}
