/** The drift report's comparison and rendering (tests/lab/harness/drift.ts). */
import assert from "node:assert/strict";
import {
  buildDriftReport,
  type DriftCli,
  driftMarkdown,
  type DriftReport,
  hasDrift,
  verdictDrift,
} from "../lab/harness/drift.ts";
import { runLatest, suiteCli } from "../lab/harness/latest.ts";
import { LAB_CLIS, pinnedCliVersions } from "../lab/harness/clis.ts";
import type { JobResult } from "../lab/harness/runner.ts";
import type { LabSuite } from "../lab/harness/scenario.ts";

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

function job(over: Partial<JobResult> = {}): JobResult {
  return {
    suite: "qwen",
    scenario: "modes",
    size: "120x40",
    version: "0.25.0",
    ok: true,
    ms: 1,
    reasons: [],
    screens: [],
    ...over,
  };
}

const cliRan: DriftCli = {
  cli: "qwen",
  pkg: "@qwen-code/qwen-code",
  pinned: ["0.15.10", "0.24.4"],
  latest: "0.25.0",
  status: "ran",
};

Deno.test("drift: the runner's comparisons become screens: same, drift, no-fixture, missing", () => {
  const results = [
    job({
      screens: [
        {
          name: "mode-plan",
          compare: "same",
          detect: "ok",
          drift: { cli: "qwen", baseline: "0.24.4", fields: [], expectations: [] },
        },
        {
          name: "mode-yolo",
          compare: "same",
          detect: "MISMATCH: mode",
          drift: {
            cli: "qwen",
            baseline: "0.24.4",
            fields: [{ field: "mode", pinned: "bypass", latest: "unknown" }],
            expectations: ['mode "unknown" ≠ "bypass"'],
          },
        },
        {
          name: "mode-default",
          compare: "differs",
          diff: "    - ⏸ Ask permissions\n    + ⏸ Ask first",
          detect: "ok",
          drift: { cli: "qwen", baseline: "0.24.4", fields: [], expectations: [] },
        },
        // A screen of a suite without fixtures carries no drift row and is left out.
        { name: "elsewhere", compare: "recorded", detect: "-" },
      ],
    }),
    job({
      scenario: "new-thing",
      screens: [{
        name: "mode-new",
        compare: "no-fixture",
        detect: "ok",
        drift: { cli: "qwen", baseline: "0.24.4", fields: [], expectations: [] },
      }],
    }),
    job({ scenario: "busy", ok: false, error: 'screen "busy" never showed' }),
  ];
  const expected = new Map([["qwen", {
    baseline: "0.24.4",
    latest: "0.25.0",
    screens: ["mode-plan", "mode-yolo", "mode-default", "busy"].map((screen) => ({
      screen,
      size: "120x40",
    })),
  }]]);
  const r = buildDriftReport({
    started: "2026-12-01T06:00:00Z",
    ms: 5,
    clis: [cliRan],
    results,
    expected,
  });
  const by = Object.fromEntries(r.screens.map((s) => [s.screen, s]));
  assert.equal(by["mode-plan"].status, "same");
  assert.equal(by["mode-yolo"].status, "drift");
  assert.deepEqual(by["mode-yolo"].fields, [{
    field: "mode",
    pinned: "bypass",
    latest: "unknown",
  }]);
  assert.equal(by["mode-default"].status, "drift");
  assert.match(by["mode-default"].lines, /Ask first/);
  assert.equal(by["mode-new"].status, "no-fixture");
  assert.equal(by["busy"].status, "missing");
  assert.equal(by["elsewhere"], undefined);
  assert.equal(by["mode-plan"].pinned, "0.24.4");
  assert.equal(by["mode-plan"].latest, "0.25.0");
  assert.deepEqual(r.jobs.filter((j) => !j.ok).map((j) => j.scenario), ["busy"]);
  assert.equal(r.drift, true);
  const md = driftMarkdown(r);
  assert.match(md, /\| qwen \| 0\.15\.10, 0\.24\.4 \| 0\.25\.0 \| 5 \| 3 \| 1 \| ran \|/);
  assert.match(md, /## Scenario runs that failed/);

  // Every screen the same and every run clean: no drift.
  const clean = buildDriftReport({
    started: "2026-12-01T06:00:00Z",
    ms: 5,
    clis: [cliRan],
    results: [job({ screens: [results[0].screens[0]] })],
  });
  assert.equal(clean.drift, false);
});

Deno.test("drift: which CLI a suite drives", () => {
  const s = (name: string, cli?: string): LabSuite => ({
    name,
    scenarios: [],
    ...(cli ? { fixtures: { cli, version: () => Promise.resolve("1") } } : {}),
  });
  assert.equal(suiteCli(s("claude-screens", "claude-code")), "claude-code");
  assert.equal(suiteCli(s("qwen", "qwen")), "qwen");
  assert.equal(suiteCli(s("qwen-approve")), "qwen");
  assert.equal(suiteCli(s("opencode-approve")), "opencode");
  assert.equal(suiteCli(s("copilot-approve")), "copilot");
  assert.equal(suiteCli(s("copilot-launch")), "copilot");
  assert.equal(suiteCli(s("approve")), "claude-code");
  assert.equal(suiteCli(s("drive")), "claude-code");
});

Deno.test("drift: a CLI the registry cannot name, or that will not install, is reported and is drift", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drover-drift-test-" });
  try {
    const suite: LabSuite = {
      name: "qwen",
      profile: "qwen",
      fixtures: { cli: "qwen", version: () => Promise.resolve("0.24.4") },
      scenarios: [],
    };
    const lines: string[] = [];
    const failedLookup = await runLatest([suite], {
      jobs: 1,
      outDir: `${dir}/out`,
      scratchRoot: `${dir}/scratch`,
      reportDir: `${dir}/report`,
      log: (l) => lines.push(l),
      lookup: () => Promise.reject(new Error("npm view @qwen-code/qwen-code version failed: E404")),
      install: () => Promise.reject(new Error("must not install")),
    });
    assert.equal(failedLookup.drift, true);
    assert.deepEqual(failedLookup.clis.map((c) => [c.cli, c.status]), [["qwen", "lookup-failed"]]);
    assert.match(await Deno.readTextFile(`${dir}/report/drift.md`), /lookup-failed: npm view/);
    const json = JSON.parse(await Deno.readTextFile(`${dir}/report/drift.json`));
    assert.equal(json.schema, "drover.lab-drift.v1");
    assert.equal(json.drift, true);

    const failedInstall = await runLatest([suite], {
      jobs: 1,
      outDir: `${dir}/out`,
      scratchRoot: `${dir}/scratch`,
      reportDir: `${dir}/report2`,
      log: (l) => lines.push(l),
      lookup: () => Promise.resolve("0.99.0"),
      install: () => Promise.reject(new Error("npm install failed: ETARGET")),
    });
    assert.equal(failedInstall.drift, true);
    assert.deepEqual(failedInstall.clis[0].latest, "0.99.0");
    assert.equal(failedInstall.clis[0].status, "install-failed");
    assert.equal(failedInstall.screens.length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pins: every pinned version of every lab CLI is verified by its profile and has fixtures", async () => {
  const profileOf: Record<string, string> = {
    "claude-code": "claude-code",
    codex: "codex",
    gemini: "gemini",
    qwen: "qwen",
    opencode: "opencode",
    copilot: "copilot",
    cline: "cline",
  };
  assert.deepEqual(await pinnedCliVersions("qwen"), ["0.15.10", "0.24.4"]);
  for (const { id } of LAB_CLIS) {
    const pinned = await pinnedCliVersions(id);
    assert.ok(pinned.length >= 1, `${id}: nothing pinned`);
    const toml = await Deno.readTextFile(
      new URL(`../../profiles/${profileOf[id]}.toml`, import.meta.url),
    );
    const verified = JSON.parse(/^verified_versions = (\[.*\])$/m.exec(toml)?.[1] ?? "[]");
    for (const v of pinned) {
      assert.ok(verified.includes(v), `${id} ${v} is pinned but not in verified_versions`);
      const manifest = new URL(`../fixtures/${id}/${v}/manifest.json`, import.meta.url);
      assert.ok(await Deno.stat(manifest).then(() => true, () => false), `${id} ${v}: no fixtures`);
    }
  }
});
