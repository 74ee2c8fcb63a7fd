import assert from "node:assert/strict";
import { DroverError } from "../../lib/errors.ts";
import { type SendObservation, sendText, validateSendText } from "../../lib/launch/send.ts";

/** A scripted pane: what each observe() returns, and a log of what was sent. */
function pane(seq: SendObservation[]) {
  const sent: string[] = [];
  let i = 0;
  return {
    sent,
    deps: {
      observe: () => Promise.resolve(seq[Math.min(i++, seq.length - 1)]!),
      type: (t: string) => {
        sent.push(`type:${t}`);
        return Promise.resolve();
      },
      enter: () => {
        sent.push("Enter");
        return Promise.resolve();
      },
      sleep: () => Promise.resolve(),
    },
  };
}

const o = (state: SendObservation["state"], input_box: string | null = null): SendObservation => ({
  gone: false,
  state,
  input_box,
});

Deno.test("send: type, see it in the box, Enter, see the box empty", async () => {
  const p = pane([o("idle"), o("idle", "hi"), o("busy", null)]);
  const r = await sendText("hi", "%1", p.deps);
  assert.deepEqual(p.sent, ["type:hi", "Enter"]);
  assert.equal(r.enter_presses, 1);
  assert.equal(r.state_after, "busy");
  assert.equal(r.method, "keys");
});

Deno.test("send: one more Enter when the first did not take, then SEND_FAILED", async () => {
  const p = pane([o("idle"), o("idle", "hi"), ...Array(60).fill(o("idle", "hi")), o("idle", null)]);
  const r = await sendText("hi", "%1", p.deps, { leaveMs: 5000, pollMs: 100 });
  assert.equal(r.enter_presses, 2);
  const stuck = pane([o("idle"), o("idle", "hi")]);
  await assert.rejects(
    sendText("hi", "%1", stuck.deps),
    (e) => e instanceof DroverError && e.code === "SEND_FAILED",
  );
  assert.deepEqual(stuck.sent, ["type:hi", "Enter", "Enter"]);
});

Deno.test("send: refuses prompts, dialogs, shells, unknown screens and a non-empty box — sends nothing", async () => {
  for (
    const before of [
      o("prompt"),
      o("dialog"),
      o("shell"),
      o("unknown"),
      o("unavailable"),
      o("idle", "draft"),
    ]
  ) {
    const p = pane([before]);
    await assert.rejects(
      sendText("hi", "%1", p.deps),
      (e) => e instanceof DroverError && e.code === "SEND_REFUSED" && e.exitCode === 8,
    );
    assert.deepEqual(p.sent, []);
  }
});

Deno.test("send: text that never shows in the box is SEND_FAILED without Enter", async () => {
  const p = pane([o("idle")]);
  await assert.rejects(
    sendText("hi", "%1", p.deps, { settleMs: 300 }),
    (e) => e instanceof DroverError && e.code === "SEND_FAILED",
  );
  assert.deepEqual(p.sent, ["type:hi"]);
});

Deno.test("send: input validation", () => {
  assert.throws(
    () => validateSendText(" \n"),
    (e) => e instanceof DroverError && e.code === "EMPTY_INPUT",
  );
  assert.throws(
    () => validateSendText("a\u001bb"),
    (e) => e instanceof DroverError && e.code === "INVALID_ARGUMENT",
  );
  assert.throws(() => validateSendText("x".repeat(64 * 1024 + 1)), (e) => e instanceof DroverError);
  assert.equal(validateSendText("line 1\n\tline 2"), "line 1\n\tline 2");
});

Deno.test("send judges first: busy and retrying panes are refused before anything is typed", async () => {
  const busy = pane([o("busy")]);
  await assert.rejects(
    sendText("hi", "%1", busy.deps),
    (e) => e instanceof DroverError && e.code === "SEND_REFUSED" && /busy/.test(e.message),
  );
  assert.deepEqual(busy.sent, []);
  const retrying = pane([{ ...o("busy"), stream_error: "API error · Retrying in 3s" }]);
  await assert.rejects(
    sendText("hi", "%1", retrying.deps),
    (e) =>
      e instanceof DroverError && e.code === "SEND_REFUSED" && /retrying/.test(e.message) &&
      e.details?.state === "retrying",
  );
  assert.deepEqual(retrying.sent, []);
  // A final API error leaves the CLI idle and waiting for input: that pane takes text.
  const final = pane([
    { ...o("idle"), stream_error: "API Error: 500" },
    o("idle", "hi"),
    o("idle"),
  ]);
  await sendText("hi", "%1", final.deps);
  assert.deepEqual(final.sent, ["type:hi", "Enter"]);
});

Deno.test("send never types into a synchronized window (PANES_SYNCHRONIZED, exit 19), nor presses Enter there", async () => {
  const synced = pane([{ ...o("idle"), synchronized: true, window: "@4" }]);
  await assert.rejects(
    sendText("hi", "%1", synced.deps),
    (e) => e instanceof DroverError && e.code === "PANES_SYNCHRONIZED" && e.exitCode === 19,
  );
  assert.deepEqual(synced.sent, []);
  // Turned on while the text was being typed: no Enter.
  const late = pane([o("idle"), { ...o("idle", "hi"), synchronized: true, window: "@4" }]);
  await assert.rejects(
    sendText("hi", "%1", late.deps),
    (e) => e instanceof DroverError && e.code === "PANES_SYNCHRONIZED",
  );
  assert.deepEqual(late.sent, ["type:hi"]);
});

Deno.test("send: a pane that closes just before the second Enter is gone, not an error; before the first, it is", async () => {
  const closed = new DroverError(
    "TARGET_NOT_FOUND",
    "pane %1 no longer exists on this tmux server",
  );
  // The first Enter was taken but the box still showed the text; the CLI then quit.
  const seq = [o("idle"), o("idle", "quit"), ...Array(80).fill(o("idle", "quit"))];
  const gone: SendObservation = { gone: true, state: "gone", input_box: null };
  const racing = (failOn: number) => {
    const p = pane([...seq]);
    let presses = 0;
    p.deps.enter = () => {
      if (++presses === failOn) {
        p.deps.observe = () => Promise.resolve(gone);
        return Promise.reject(closed);
      }
      p.sent.push("Enter");
      return Promise.resolve();
    };
    return p;
  };
  const second = racing(2);
  const r = await sendText("quit", "%1", second.deps);
  assert.equal(r.state_after, "gone");
  assert.equal(r.enter_presses, 1);
  assert.deepEqual(second.sent, ["type:quit", "Enter"]);

  const first = racing(1);
  await assert.rejects(sendText("quit", "%1", first.deps), (e) => e === closed);

  // A second Enter that fails while the pane is still there is still the error it was.
  const there = pane([...seq]);
  let n = 0;
  there.deps.enter = () => ++n === 2 ? Promise.reject(closed) : Promise.resolve();
  await assert.rejects(sendText("quit", "%1", there.deps), (e) => e === closed);
});
