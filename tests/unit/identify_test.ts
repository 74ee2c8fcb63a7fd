import assert from "node:assert/strict";
import { identifyPane } from "../../lib/identify/pane_cli.ts";
import type { ProcTable } from "../../lib/identify/procs.ts";
import { orchestrators, roleOf } from "../../lib/identify/roles.ts";
import type { PaneInfo } from "../../lib/tmux/panes.ts";

function pane(over: Partial<PaneInfo> = {}): PaneInfo {
  return {
    id: "%3",
    sessionName: "agents",
    sessionId: "$1",
    windowIndex: 1,
    windowId: "@2",
    windowName: "w",
    paneIndex: 0,
    title: "",
    currentCommand: "bash",
    currentPath: "/tmp",
    pid: 100,
    width: 120,
    height: 40,
    active: true,
    windowActive: true,
    dead: false,
    droverCli: "",
    synchronized: false,
    windowSynchronized: false,
    target: "agents:1.0",
    ...over,
  };
}

const procs = (rows: [number, number, string[]][]): ProcTable =>
  new Map(rows.map(([pid, ppid, argv]) => [pid, { pid, ppid, argv }]));

Deno.test("identify: pane option wins over everything", () => {
  const r = identifyPane({
    pane: pane({ droverCli: "gemini", currentCommand: "claude" }),
    config: { defaultCli: "codex" },
    cliFlag: "qwen",
  });
  assert.deepEqual([r.cli, r.source], ["gemini", "pane-option"]);
});

Deno.test("identify: current command matches a known CLI", () => {
  const r = identifyPane({ pane: pane({ currentCommand: "claude" }), config: {} });
  assert.deepEqual([r.cli, r.source], ["claude", "process"]);
});

Deno.test("identify: a CLI running under node is found by its script argument", () => {
  const r = identifyPane({
    pane: pane({ currentCommand: "node", pid: 100 }),
    config: {},
    procs: procs([
      [100, 1, ["-bash"]],
      [200, 100, [
        "node",
        "--no-warnings",
        "/usr/lib/node_modules/@google/gemini-cli/dist/index.js",
      ]],
    ]),
  });
  assert.deepEqual([r.cli, r.source], ["gemini", "process"]);
  const q = identifyPane({
    pane: pane({ currentCommand: "node" }),
    config: {},
    procs: procs([[100, 1, ["bash"]], [150, 100, ["node", "/home/u/.npm/bin/qwen"]]]),
  });
  assert.equal(q.cli, "qwen");
});

Deno.test("identify: configured commands beat known names", () => {
  const r = identifyPane({
    pane: pane({ currentCommand: "my-agent" }),
    config: { clis: { mine: { command: "/opt/bin/my-agent --x" }, other: { command: null } } },
  });
  assert.deepEqual([r.cli, r.source], ["mine", "process"]);
});

Deno.test("identify: then --cli, then default_cli, then claude", () => {
  const p = pane({ currentCommand: "bash" });
  const empty = procs([[100, 1, ["bash"]]]);
  assert.deepEqual(
    [identifyPane({ pane: p, config: { defaultCli: "codex" }, cliFlag: "qwen", procs: empty })]
      .map((r) => [r.cli, r.source])[0],
    ["qwen", "flag"],
  );
  const d = identifyPane({ pane: p, config: { defaultCli: "codex" }, procs: empty });
  assert.deepEqual([d.cli, d.source], ["codex", "default_cli"]);
  const f = identifyPane({ pane: p, config: {}, procs: empty });
  assert.deepEqual([f.cli, f.source], ["claude", "fallback"]);
});

Deno.test("roles: default orchestrator is the first pane of each session", () => {
  const a = pane({ id: "%1", windowIndex: 0, paneIndex: 0, target: "agents:0.0" });
  const b = pane({ id: "%2", windowIndex: 1, paneIndex: 0 });
  const c = pane({ id: "%3", sessionName: "other", windowIndex: 1, paneIndex: 1 });
  const set = orchestrators([a, b, c]);
  assert.equal(roleOf(a, set), "orchestrator");
  assert.equal(roleOf(b, set), "agent");
  assert.equal(roleOf(c, set), "orchestrator", "base-index 1 sessions still have one");
});

Deno.test("roles: a configured orchestrator replaces the default only in its session", () => {
  const a = pane({ id: "%1", windowIndex: 0, paneIndex: 0 });
  const b = pane({ id: "%2", windowIndex: 1, paneIndex: 0 });
  const c = pane({ id: "%3", sessionName: "other", windowIndex: 0, paneIndex: 0 });
  const set = orchestrators([a, b, c], "agents:1.0");
  assert.equal(roleOf(a, set), "agent");
  assert.equal(roleOf(b, set), "orchestrator");
  assert.equal(roleOf(c, set), "orchestrator");
  const bad = orchestrators([a, b], "nowhere:9.9");
  assert.equal(roleOf(a, bad), "orchestrator", "an unresolvable setting keeps the default");
});
