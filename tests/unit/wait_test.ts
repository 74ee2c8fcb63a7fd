import assert from "node:assert/strict";
import { DroverError } from "../../lib/errors.ts";
import { type Observation, parseCondition, waitFor } from "../../lib/launch/wait.ts";

const noSleep = () => Promise.resolve();
const obs = (state: Observation["state"], extra: Partial<Observation> = {}): Observation => ({
  gone: false,
  text: state,
  state,
  readiness: state === "idle" ? "ready" : "indeterminate",
  ...extra,
});

function feed(seq: Observation[]): () => Promise<Observation> {
  let i = 0;
  return () => Promise.resolve(seq[Math.min(i++, seq.length - 1)]!);
}

Deno.test("wait: idle must hold on two consecutive samples", async () => {
  const r = await waitFor(
    "idle",
    feed([obs("busy"), obs("idle"), obs("busy"), obs("idle"), obs("idle")]),
    { timeoutS: 10, target: "%1" },
    noSleep,
  );
  assert.equal(r.samples, 5);
  assert.equal(r.state, "idle");
});

Deno.test("wait: busy and prompt count at first sight; changed compares with the first sample", async () => {
  assert.equal(
    (await waitFor(
      "busy",
      feed([obs("idle"), obs("busy")]),
      { timeoutS: 5, target: "%1" },
      noSleep,
    ))
      .samples,
    2,
  );
  const r = await waitFor(
    "changed",
    feed([obs("idle"), obs("idle"), obs("idle", { text: "new" })]),
    { timeoutS: 5, target: "%1" },
    noSleep,
  );
  assert.equal(r.samples, 3);
});

Deno.test("wait: exit = gone or a bare shell; gone otherwise is TARGET_NOT_FOUND", async () => {
  const gone: Observation = { gone: true, text: "", state: "gone", readiness: "indeterminate" };
  assert.equal(
    (await waitFor("exit", feed([obs("idle"), gone]), { timeoutS: 5, target: "%1" }, noSleep))
      .state,
    "gone",
  );
  assert.equal(
    (await waitFor(
      "exit",
      feed([obs("idle"), obs("shell")]),
      { timeoutS: 5, target: "%1" },
      noSleep,
    ))
      .state,
    "shell",
  );
  await assert.rejects(
    waitFor("idle", feed([obs("busy"), gone]), { timeoutS: 5, target: "%1" }, noSleep),
    (e) => e instanceof DroverError && e.code === "TARGET_NOT_FOUND",
  );
});

Deno.test("wait: timeout is WAIT_TIMEOUT (exit 7) with the last state", async () => {
  await assert.rejects(
    waitFor("prompt", feed([obs("idle")]), { timeoutS: 1, pollMs: 500, target: "%1" }, noSleep),
    (e) =>
      e instanceof DroverError && e.code === "WAIT_TIMEOUT" && e.exitCode === 7 &&
      (e.details as { samples: number }).samples === 3,
  );
});

Deno.test("wait: --until is validated", () => {
  assert.throws(() => parseCondition("done"), (e) => e instanceof DroverError);
  assert.throws(() => parseCondition(undefined), (e) => e instanceof DroverError);
  assert.equal(parseCondition("exit"), "exit");
});
