/**
 * lib/verify/untorn.ts: verify judges a scenario on a capture that still shows the lines its wait
 * reached. The torn frame below is hand-made after one the lab caught from Qwen Code 0.24.4 at
 * 120x40 (a whole-screen redraw: the first logo rows, then blank lines).
 */
import assert from "node:assert/strict";
import { untornCapture } from "../../lib/verify/untorn.ts";

const TORN = "  ██████╗ ██╗    ██╗███████╗███╗   ██╗\n\n\n\n";
const FULL =
  "  > summarise the notes\n\n  ⠙ Brewing fresh bytes... (2s · esc to cancel)\n>   Type your message";

/** Captures in turn from `frames` (the last one repeats); a clock that moves 250 ms per sleep. */
function pane(frames: string[]) {
  let i = 0;
  let t = 0;
  const captures: string[] = [];
  return {
    captures,
    capture: () => {
      const plain = frames[Math.min(i++, frames.length - 1)];
      captures.push(plain);
      return Promise.resolve({ plain });
    },
    opts: { sleep: (ms: number) => Promise.resolve(void (t += ms)), now: () => t, pollMs: 250 },
  };
}

Deno.test("untorn: a torn capture is taken again until the reached lines are back", async () => {
  const p = pane([TORN, TORN, FULL]);
  const s = await untornCapture(p.capture, ["esc to cancel"], p.opts);
  assert.equal(s.plain, FULL);
  assert.equal(p.captures.length, 3);
});

Deno.test("untorn: a screen showing the lines is judged at once (one capture)", async () => {
  const p = pane([FULL, TORN]);
  assert.equal((await untornCapture(p.capture, ["esc to cancel"], p.opts)).plain, FULL);
  assert.equal(p.captures.length, 1);
});

Deno.test("untorn: a CLI that moved on is judged on what it shows once the grace is over", async () => {
  const moved = "  ◆︎ Done.\n>   Type your message";
  const p = pane([moved]);
  const s = await untornCapture(p.capture, ["esc to cancel"], { ...p.opts, graceMs: 3_000 });
  assert.equal(s.plain, moved);
  // 3 s of 250 ms polls, then one capture past the deadline: bounded, never a hang.
  assert.equal(p.captures.length, 14);
});

Deno.test("untorn: no reached lines (a wait on settling alone) takes one capture", async () => {
  const p = pane([TORN, FULL]);
  assert.equal((await untornCapture(p.capture, [], p.opts)).plain, TORN);
  assert.equal(p.captures.length, 1);
});
