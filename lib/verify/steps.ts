/**
 * A scenario's steps on the way to its screen (lib/scenarios `Action`): type, submit, keys, a
 * pause, a wait of the step's own, and `drover approve` through the real gate. Each step says what
 * happened; a wait that is not met ends the steps, and the scenario drifts.
 */
import { approve, type ApproveOutcome } from "../approve/approve.ts";
import { makeJudge } from "../approve/judge.ts";
import type { Standin } from "../scenarios/standin.ts";
import type { Action } from "../scenarios/types.ts";
import { socketPath } from "../tmux/options.ts";
import { resolveTarget } from "../tmux/panes.ts";
import { sendKeys, typeText } from "../tmux/send.ts";
import { sleep } from "./aborted.ts";
import type { Screen } from "./result.ts";
import type { Live } from "./run_types.ts";
import { plainOf, POLL_MS, waitFor } from "./wait.ts";

/**
 * How long each of the gate's watching windows lasts after verify's `drover approve` step. verify
 * runs a CLI's sessions side by side on a shared machine: OpenCode under load once redrew its
 * answered choice row only after both default 3 s windows (unconfirmed, in CI). verify judges which
 * key the gate sends, not how fast the CLI redraws.
 */
const APPROVE_SETTLE_MS = 6_000;

/** Where a scenario's steps run: its stand-in, the requests it had before them, its project. */
export interface StepContext {
  base: number;
  standin: Standin;
  project: string;
}

/** The steps went through (with the last `approve` step's answer), or a step's wait was not met. */
export type StepsDone =
  | { ok: true; outcome: ApproveOutcome | undefined }
  | { ok: false; why: string; screen: Screen | null };

type StepDone =
  | { ok: true; outcome?: ApproveOutcome }
  | { ok: false; why: string; screen: Screen | null };

/** Run `steps` in turn, up to the first that is not met. */
export async function runSteps(
  live: Live,
  paneId: string,
  steps: readonly Action[],
  ctx: StepContext,
): Promise<StepsDone> {
  let outcome: ApproveOutcome | undefined;
  for (const a of steps) {
    const done = await runStep(live, paneId, a, ctx);
    if (!done.ok) return done;
    if (done.outcome) outcome = done.outcome;
  }
  return { ok: true, outcome };
}

async function runStep(
  live: Live,
  paneId: string,
  a: Action,
  ctx: StepContext,
): Promise<StepDone> {
  const { server, opts } = live;
  if ("await" in a) {
    return await waitFor(
      live,
      paneId,
      a.await,
      ctx.base,
      a.timeoutMs ?? 30_000,
      ctx.standin,
      ctx.project,
    );
  }
  if ("type" in a) await typeText(server, paneId, a.type);
  else if ("submit" in a) await submit(live, paneId, a.submit);
  else if ("keys" in a) {
    for (const [n, k] of a.keys.entries()) {
      if (n > 0) await sleep(a.gapMs ?? 150, opts.signal);
      await sendKeys(server, paneId, [k]);
    }
  } else if ("pause" in a) await sleep(a.pause, opts.signal);
  else if ("approve" in a) return { ok: true, outcome: await approveOn(live, paneId) };
  return { ok: true };
}

/** Type the text, wait until it shows, then Enter. */
async function submit(live: Live, paneId: string, text: string): Promise<void> {
  const { server, opts } = live;
  await typeText(server, paneId, text);
  const probe = text.slice(0, 20);
  const deadline = Date.now() + 10_000;
  while (!(await plainOf(live, paneId)).includes(probe) && Date.now() < deadline) {
    await sleep(POLL_MS, opts.signal);
  }
  // A burst of keys ending in Enter reads as a paste to some CLIs (Enter becomes a newline).
  await sleep(700, opts.signal);
  await sendKeys(server, paneId, ["Enter"]);
}

/** `drover approve` on the CLI's pane, as the command runs it. */
async function approveOn(live: Live, paneId: string): Promise<ApproveOutcome> {
  const { server, opts, target } = live;
  const pane = await resolveTarget(server, paneId);
  return await approve({
    server,
    pane,
    // A private server has no orchestrator: the CLI's pane is a coding pane.
    orchestrator: { is: false },
    judge: makeJudge(target.table.cli, target.config, pane.title),
    dryRun: false,
    // Its private servers: no other approver sees their panes.
    runtimeBases: [opts.tmpRoot],
    socketPath: await socketPath(server),
    settleMs: APPROVE_SETTLE_MS,
  });
}
