/** The drift report's comparison and rendering (tests/lab/harness/drift.ts). */
import assert from "node:assert/strict";
import { driftMarkdown, type DriftReport, hasDrift, verdictDrift } from "../lab/harness/drift.ts";

Deno.test("drift: only fields whose normalised value changed; the CLI version never counts", () => {
  const pinned = {
    state: "busy",
    mode: "interactive",
    stream_error: "✕ [API Error: 429 …] (Retrying in 42s…",
    options: [{ number: 1, text: "Yes, allow once", selected: true }],
    cli_version: "0.15.10",
  };
  const latest = {
    state: "busy",
    mode: "auto",
    stream_error: "✕ [API Error: 429 …] (Retrying in 7s…",
    options: [{ number: 1, text: "Yes, allow once", selected: true }],
    cli_version: "0.24.4",
    input_box: "summarise the notes",
  };
  assert.deepEqual(verdictDrift(pinned, latest), [
    { field: "mode", pinned: "interactive", latest: "auto" },
    { field: "input_box", pinned: null, latest: "summarise the notes" },
  ]);
  assert.deepEqual(verdictDrift(pinned, { ...pinned, cli_version: "9.9.9" }), []);
});

Deno.test("drift: the report says drift for a changed, missing or unchecked screen, and shows it", () => {
  const base: Omit<DriftReport, "drift"> = {
    schema: "drover.lab-drift.v1",
    started: "2026-12-01T00:00:00Z",
    ms: 60_000,
    clis: [{
      cli: "qwen",
      pkg: "@qwen-code/qwen-code",
      pinned: ["0.15.10"],
      latest: "0.24.4",
      status: "ran",
    }],
    screens: [{
      cli: "qwen",
      suite: "qwen",
      scenario: "modes",
      screen: "mode-plan",
      size: "120x40",
      pinned: "0.15.10",
      latest: "0.24.4",
      status: "same",
      fields: [],
      lines: "",
      expectations: [],
    }],
    jobs: [],
  };
  assert.equal(hasDrift(base), false);
  assert.match(driftMarkdown({ ...base, drift: false }), /No drift/);
  const changed = structuredClone(base);
  changed.screens[0].status = "drift";
  changed.screens[0].fields = [{ field: "mode", pinned: "interactive", latest: "plan" }];
  assert.equal(hasDrift(changed), true);
  const md = driftMarkdown({ ...changed, drift: true });
  assert.match(md, /Drift found/);
  assert.match(md, /### qwen qwen\/mode-plan@120x40 — drift \(0\.15\.10 → 0\.24\.4\)/);
  assert.match(md, /\| mode \| `interactive` \| `plan` \|/);
  const missing = structuredClone(base);
  missing.screens[0].status = "missing";
  assert.equal(hasDrift(missing), true);
  const failedInstall = structuredClone(base);
  failedInstall.clis[0].status = "install-failed";
  assert.equal(hasDrift(failedInstall), true);
});
