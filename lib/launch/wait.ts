/**
 * `drover wait TARGET --until …`: poll a pane until its detected state meets a condition.
 *
 * States come from the engine's detect() on the resolved profile of the pane's own CLI. `ready`
 * and `idle` must hold on two consecutive samples (a screen redrawing between turns can look idle
 * for one frame); `busy`, `prompt` and `changed` count at first sight; `exit` is the pane gone, its
 * process dead, or a bare shell left where the agent ran.
 */
import { DroverError, invalidArgument } from "../errors.ts";
import { sleep as baseSleep } from "../base/sleep.ts";
import type { PaneState, Readiness } from "../detect/mod.ts";

export const CONDITIONS = ["ready", "idle", "prompt", "busy", "changed", "exit"] as const;
export type Condition = typeof CONDITIONS[number];

export const WAIT_DEFAULT_TIMEOUT_S = 60;
export const WAIT_TIMEOUT_RANGE = [1, 3600] as const;
export const WAIT_POLL_MS = 500;

/** What one poll saw. `gone` = the pane no longer exists (or its process is dead). */
export interface Observation {
  gone: boolean;
  text: string;
  state: PaneState | "gone";
  readiness: Readiness;
}

export interface WaitResult {
  until: Condition;
  /** A wait that is not satisfied is an error (WAIT_TIMEOUT, TARGET_NOT_FOUND), not a result. */
  satisfied: true;
  state: PaneState | "gone";
  readiness: Readiness;
  waited_ms: number;
  samples: number;
}

export function parseCondition(v: string | undefined): Condition {
  if (v === undefined) throw invalidArgument("--until is required: " + CONDITIONS.join("|"));
  if (!(CONDITIONS as readonly string[]).includes(v)) {
    throw invalidArgument(`--until takes ${CONDITIONS.join(", ")}; got "${v}"`);
  }
  return v as Condition;
}

function holds(c: Condition, o: Observation, baseline: string): boolean {
  if (c === "exit") return o.gone || o.state === "shell";
  if (o.gone) return false;
  switch (c) {
    case "ready":
      return o.readiness === "ready" && !["busy", "prompt", "dialog"].includes(o.state);
    case "idle":
      return o.state === "idle";
    case "prompt":
      return o.state === "prompt";
    case "busy":
      return o.state === "busy";
    case "changed":
      return o.text !== baseline;
  }
}

const NEEDS_TWO: ReadonlySet<Condition> = new Set(["ready", "idle"]);

/** Poll `observe` until the condition holds or the timeout passes (WAIT_TIMEOUT). */
export async function waitFor(
  until: Condition,
  observe: () => Promise<Observation>,
  opts: { timeoutS: number; pollMs?: number; target: string },
  sleep: (ms: number) => Promise<void> = baseSleep,
): Promise<WaitResult> {
  const poll = opts.pollMs ?? WAIT_POLL_MS;
  const maxSleeps = Math.max(1, Math.ceil((opts.timeoutS * 1000) / poll));
  let o = await observe();
  const baseline = o.text;
  let samples = 1;
  let sleeps = 0;
  let run = 0;
  for (;;) {
    if (holds(until, o, baseline)) run++;
    else run = 0;
    if (run >= (NEEDS_TWO.has(until) ? 2 : 1)) {
      return {
        until,
        satisfied: true,
        state: o.gone ? "gone" : o.state,
        readiness: o.readiness,
        waited_ms: sleeps * poll,
        samples,
      };
    }
    if (o.gone && until !== "exit") {
      throw new DroverError(
        "TARGET_NOT_FOUND",
        `${opts.target} went away while waiting for ${until}`,
        { details: { until, waited_ms: sleeps * poll } },
      );
    }
    if (sleeps >= maxSleeps) {
      throw new DroverError(
        "WAIT_TIMEOUT",
        `${opts.target} did not become ${until} within ${opts.timeoutS}s (last state: ${o.state})`,
        {
          details: {
            until,
            state: o.state,
            readiness: o.readiness,
            waited_ms: sleeps * poll,
            samples,
          },
        },
      );
    }
    await sleep(poll);
    sleeps++;
    o = await observe();
    samples++;
  }
}
