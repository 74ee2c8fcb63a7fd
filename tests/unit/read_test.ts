import assert from "node:assert/strict";
import { DroverError } from "../../lib/errors.ts";
import { lastLines, readSettings, waitStable } from "../../lib/launch/read.ts";

const noSleep = () => Promise.resolve();

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DroverError) return e.code;
    throw e;
  }
  return "OK";
}

Deno.test("waitStable: defaults need 4 identical follow-up samples (ceil(800/200))", async () => {
  const r = await waitStable(() => Promise.resolve("same"), readSettings({}), noSleep);
  assert.deepEqual(r, { text: "same", stabilized: true, waited_ms: 800, samples: 5 });
});

Deno.test("waitStable: a change resets the streak and the latest text wins", async () => {
  const seq = ["a", "a", "b", "b", "b", "b", "b"];
  let i = 0;
  const r = await waitStable(() => Promise.resolve(seq[Math.min(i++, seq.length - 1)]), {
    intervalMs: 200,
    periodMs: 800,
    timeoutS: 10,
  }, noSleep);
  assert.equal(r.text, "b");
  assert.equal(r.stabilized, true);
  assert.equal(r.samples, 7);
});

Deno.test("waitStable: never settling ends at the timeout with stabilized false", async () => {
  let i = 0;
  const r = await waitStable(() => Promise.resolve(String(i++)), {
    intervalMs: 100,
    periodMs: 800,
    timeoutS: 1,
  }, noSleep);
  assert.equal(r.stabilized, false);
  assert.equal(r.waited_ms, 1000);
  assert.equal(r.samples, 11);
  assert.equal(r.text, "10");
});

Deno.test("waitStable: the pane vanishing ends the loop with the best capture so far", async () => {
  const seq: (string | null)[] = ["x", "x", null];
  let i = 0;
  const r = await waitStable(() => Promise.resolve(seq[i++] ?? null), readSettings({}), noSleep);
  assert.equal(r.text, "x");
  assert.equal(r.stabilized, false);
  await assert.rejects(
    waitStable(() => Promise.resolve(null), readSettings({}), noSleep),
    (e) => e instanceof DroverError && e.code === "TARGET_NOT_FOUND",
  );
});

Deno.test("readSettings validates ranges and that tuning needs --wait-stable", () => {
  assert.equal(code(() => readSettings({ stableInterval: "100" })), "INVALID_ARGUMENT");
  assert.equal(
    code(() => readSettings({ waitStable: true, stableInterval: "49" })),
    "INVALID_ARGUMENT",
  );
  assert.equal(
    code(() => readSettings({ waitStable: true, stableInterval: "5001" })),
    "INVALID_ARGUMENT",
  );
  assert.equal(
    code(() => readSettings({ waitStable: true, stablePeriod: "99" })),
    "INVALID_ARGUMENT",
  );
  assert.equal(
    code(() => readSettings({ waitStable: true, waitTimeout: "301" })),
    "INVALID_ARGUMENT",
  );
  assert.equal(
    code(() => readSettings({ waitStable: true, waitTimeout: "1.5" })),
    "INVALID_ARGUMENT",
  );
  assert.equal(code(() => readSettings({ last: "0" })), "INVALID_ARGUMENT");
  assert.equal(
    code(() =>
      readSettings({
        waitStable: true,
        stableInterval: "50",
        stablePeriod: "60000",
        waitTimeout: "300",
      })
    ),
    "OK",
  );
});

Deno.test("lastLines drops trailing blank screen rows before taking the last N", () => {
  assert.deepEqual(lastLines("a\nb\nc\n\n  \n\n", 2), ["b", "c"]);
  assert.deepEqual(lastLines("a\nb\n", null), ["a", "b"]);
  assert.deepEqual(lastLines("\n\n", 3), []);
});
