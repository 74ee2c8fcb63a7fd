/**
 * drive on issue 21's unavailable screens (recorded from the real Claude Code, and the hand-made
 * limit menu with no banner), without tmux: the auth banner on a worker is one cli-unavailable
 * escalation per dedup window, on the orchestrator exit 75; the limit menu alone is a limit-menu
 * escalation; a status-area limit is unavailable with its reset; no key is ever sent.
 *
 * Mutations caught: decide.ts without the limit-menu branch (the menu escalates as a dialog),
 * toDriveVerdicts not counting limit_menu as unavailable (the orchestrator's --once exits 0),
 * detect() without the banner or the status limit (nothing escalated at all).
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { planPane } from "../../lib/drive/decide.ts";
import { type DriveVerdicts, toDriveVerdicts } from "../../lib/drive/verdicts.ts";
import type { DriveEvent, PaneRef } from "../../lib/drive/events.ts";
import type { ApproveResult, DriveHost, HostPane } from "../../lib/drive/host.ts";
import { DRIVE_EXIT } from "../../lib/drive/outcome.ts";
import { DriveLoop } from "../../lib/drive/run.ts";
import { freshState } from "../../lib/drive/state.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const FIELD = new URL("../fixtures/field/claude-code/", import.meta.url).pathname;
const T0 = Date.parse("2026-12-02T18:00:00Z");
const ORCH: PaneRef = { id: "%0", target: "s:0.0", cli: "claude", role: "orchestrator" };
const AGENT: PaneRef = { id: "%1", target: "s:1.0", cli: "claude", role: "agent" };
const profile = resolveProfile("claude", EMPTY_CONFIG);

/** What drive reads on a field screen, judged as the tmux host judges a capture. */
function seen(rel: string): DriveVerdicts {
  const plain = Deno.readTextFileSync(`${FIELD}${rel}.txt`);
  return toDriveVerdicts(detect({ plain }, profile, { now: T0, timeZone: "UTC" }), plain);
}

const SETTINGS = {
  approve: "allowlist" as const,
  allow: ["npm run build"],
  dedupWindowMs: 3600_000,
};

/** One pane showing one screen; every key it is sent is kept. */
class Pane implements DriveHost {
  t = T0;
  sent: string[] = [];
  events: DriveEvent[] = [];
  constructor(public screen: DriveVerdicts, public ref: PaneRef) {}
  panes() {
    return Promise.resolve([{ ref: this.ref, settleMs: 10 }]);
  }
  look(panes: HostPane[]) {
    return Promise.resolve(new Map(panes.map((p) => [p.ref.id, this.screen])));
  }
  lookOne() {
    return Promise.resolve(this.screen);
  }
  keys(_p: HostPane, keys: string[]) {
    this.sent.push(...keys);
    return Promise.resolve();
  }
  typeLiteral(_p: HostPane, text: string) {
    this.sent.push(`literal:${text}`);
    return Promise.resolve();
  }
  approve(): Promise<ApproveResult> {
    this.sent.push("approve");
    return Promise.resolve({ outcome: "refused", reason: "dialog", message: "no", sent: [] });
  }
  hook() {
    return Promise.resolve(undefined);
  }
  sleep(ms: number) {
    this.t += ms;
    return Promise.resolve();
  }
  now() {
    return this.t;
  }
}

const STATE_DIR = Deno.makeTempDirSync({ prefix: "drover-unavail-test-" });
globalThis.addEventListener("unload", () => Deno.removeSync(STATE_DIR, { recursive: true }));
let states = 0;

/** `drive --once` twice with one state: the events, keys and exit codes of both. */
async function twice(h: Pane) {
  const st = freshState("s");
  const statePath = `${STATE_DIR}/state-${++states}.json`;
  const codes: number[] = [];
  for (let k = 0; k < 2; k++) {
    const out = await new DriveLoop(
      h,
      {
        session: "s",
        once: true,
        intervalMs: 15_000,
        settings: SETTINGS,
        confirmMs: 10,
        verifyMs: 10,
        statePath,
      },
      st,
      (e) => {
        if (e.event !== "warning") h.events.push(e);
      },
    ).run();
    codes.push(out.exitCode);
    h.t += 60_000;
  }
  const named = h.events
    .filter((e) => e.event !== "drive-started" && e.event !== "drive-stopped")
    .map((e) => e.event === "escalated" ? `escalated:${e.reason}` : e.event);
  return { named, codes };
}

for (const v of ["2.1.197", "2.1.332"]) {
  Deno.test(`drive (${v}): the /login banner on a worker is one cli-unavailable escalation, no key`, async () => {
    const screen = seen(`${v}/unavailable/auth-login-banner@80x24`);
    const plan = planPane(AGENT, screen, freshState("s"), T0, SETTINGS);
    assert.equal(plan.kind, "escalate");
    assert.equal(plan.kind === "escalate" && plan.reason, "cli-unavailable");
    const h = new Pane(screen, AGENT);
    const { named } = await twice(h);
    assert.deepEqual(named, ["escalated:cli-unavailable"]);
    const esc = h.events.find((e) => e.event === "escalated")!;
    assert.match(esc.text ?? "", /^Please run \/login · API Error: 401 /);
    assert.deepEqual(h.sent, []);
  });

  Deno.test(`drive (${v}): the /login banner on the orchestrator exits 75`, async () => {
    const h = new Pane(seen(`${v}/unavailable/auth-login-banner@80x24`), ORCH);
    const { named, codes } = await twice(h);
    assert.equal(codes[0], DRIVE_EXIT.orchestratorUnavailable);
    assert.ok(named.includes("orchestrator-unavailable"), named.join(", "));
    assert.deepEqual(h.sent, []);
  });

  Deno.test(`drive (${v}): a status-area limit is an unavailable CLI with its reset; a decorated status line is not`, () => {
    const limited = seen(`${v}/unavailable/statusline-limit@80x24`);
    const plan = planPane(AGENT, limited, freshState("s"), T0, SETTINGS);
    assert.equal(plan.kind === "escalate" && plan.reason, "cli-unavailable");
    assert.equal(plan.kind === "escalate" && plan.resets_at, "2026-12-02T18:08:00.000Z");
    const words = seen(`${v}/unavailable/statusline-words@80x24`);
    assert.equal(words.cli_unavailable, null);
    assert.equal(planPane(AGENT, words, freshState("s"), T0, SETTINGS).kind, "nothing");
  });
}

Deno.test("drive: the limit menu with no banner is a limit-menu escalation, never answered", async () => {
  const screen = seen("hand-made-unavailable/limit-menu-no-banner@80x24");
  assert.equal(screen.live_prompt, true);
  assert.equal(screen.limit_menu, "Stop and wait for limit to reset");
  const h = new Pane(screen, AGENT);
  const { named } = await twice(h);
  assert.deepEqual(named, ["escalated:limit-menu"]);
  assert.deepEqual(h.sent, []);
  // On the orchestrator it is its CLI at a limit: exit 75, nothing sent.
  const o = new Pane(screen, ORCH);
  const run = await twice(o);
  assert.equal(run.codes[0], DRIVE_EXIT.orchestratorUnavailable);
  assert.deepEqual(o.sent, []);
});
