/**
 * The process table is read only where identification can use it, and with pane roots only their
 * subtrees' argv are read — with the same verdicts as a full read.
 */
import assert from "node:assert/strict";
import { identifyPane, needsProcessTable } from "../../lib/identify/pane_cli.ts";
import { readProcTable } from "../../lib/identify/procs.ts";
import type { PaneInfo } from "../../lib/tmux/panes.ts";

const pane = (over: Partial<PaneInfo>): PaneInfo => ({
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
  pid: Deno.pid,
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
});

Deno.test("needsProcessTable: not for a drover-launched pane or a known command without config", () => {
  assert.equal(needsProcessTable(pane({ droverCli: "codex" }), {}), false);
  assert.equal(needsProcessTable(pane({ currentCommand: "claude" }), {}), false);
  assert.equal(needsProcessTable(pane({ currentCommand: "bash" }), {}), true);
  assert.equal(needsProcessTable(pane({ currentCommand: "node" }), {}), true);
  assert.equal(needsProcessTable(pane({ currentCommand: "" }), {}), true);
  // A configured command may sit anywhere in the tree, under a known name too.
  const config = { clis: { mine: { command: "/opt/bin/my-agent --x" } } };
  assert.equal(needsProcessTable(pane({ currentCommand: "claude" }), config), true);
  // Without the table the verdict is the same for a known command.
  const p = pane({ currentCommand: "claude" });
  assert.deepEqual(identifyPane({ pane: p, config: {} }), {
    cli: "claude",
    source: "process",
    evidence: "pane command claude",
  });
});

Deno.test("readProcTable(roots): every process with its parent, argv only under the roots", async () => {
  const full = await readProcTable();
  const rooted = await readProcTable([Deno.pid]);
  const me = rooted.get(Deno.pid);
  assert.ok(me, "own process present");
  assert.ok(me.argv.length > 1, `own argv read: ${me.argv}`);
  assert.deepEqual(me, full.get(Deno.pid));
  // Processes outside the subtree are still there (for the tree), with their command name only.
  const parent = rooted.get(me.ppid);
  if (parent && full.get(me.ppid)!.argv.length > 1) assert.equal(parent.argv.length, 1);
  const kid = new Deno.Command("sleep", { args: ["5"] }).spawn();
  try {
    const t = await readProcTable([Deno.pid]);
    assert.deepEqual(t.get(kid.pid)?.argv.slice(1), ["5"], "a child of a root gets its argv");
  } finally {
    kid.kill();
    await kid.status;
  }
});
