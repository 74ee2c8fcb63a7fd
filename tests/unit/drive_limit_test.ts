/**
 * Driving through a usage limit without tmux (lib/drive/limit.ts, decide.ts, run.ts): one `limit`
 * event, nothing typed before the reset + margin, exactly one resume through the verified send
 * path, a limit that comes back backs off (doubling, capped at 6 h), a limit menu is never
 * answered, the orchestrator's --once run exits 75 quietly while it waits, and resume is off by
 * default (the limit is escalated as an unavailable CLI, as before, now with `resets_at`).
 */
import assert from "node:assert/strict";
import { type DriveSettings, observe, planPane } from "../../lib/drive/decide.ts";
import { type DriveVerdicts, toDriveVerdicts } from "../../lib/drive/verdicts.ts";
import type { DriveEvent, PaneRef } from "../../lib/drive/events.ts";
import {
  comebackWhen,
  limitAfterResume,
  limitStep,
  MAX_BACKOFF_MS,
  waitAfterReset,
} from "../../lib/drive/limit.ts";
import { resolveDriveOptions } from "../../lib/drive/options.ts";
import type { ApproveResult, DriveHost, HostPane } from "../../lib/drive/host.ts";
import { DRIVE_EXIT } from "../../lib/drive/outcome.ts";
import { DriveLoop } from "../../lib/drive/run.ts";
import { freshState } from "../../lib/drive/state.ts";
import { loadState, saveState } from "../../lib/drive/state_file.ts";

const MIN = 60_000;
const T0 = Date.parse("2026-12-01T18:00:00Z");
const RESET = "2026-12-01T18:37:00.000Z";
const BANNER = "You've hit your session limit · resets 6:37pm (UTC)";

const ORCH: PaneRef = { id: "%0", target: "s:0.0", cli: "claude", role: "orchestrator" };
const AGENT: PaneRef = { id: "%1", target: "s:1.0", cli: "claude", role: "agent" };

const base: DriveVerdicts = {
  state: "idle",
  live_prompt: false,
  permission_prompt: false,
  mid_response: false,
  input_box: null,
  command: null,
  file_path: null,
  cli_unavailable: null,
  limit: null,
  limit_resets_at: null,
  input_line: true,
  tail: [],
};

/** Claude Code's limit screen (session-limit fixture, 2.1.197), as the drive loop reads it. */
const LIMITED: DriveVerdicts = {
  ...base,
  state: "unavailable",
  cli_unavailable: BANNER,
  limit: BANNER,
  limit_resets_at: RESET,
  // the bottom lines as toDriveVerdicts gives them: decoration stripped, rules and the empty input
  // line left as ""
  tail: ["say hello", BANNER, "✻ Churned for 2s", "", "", "", "? for shortcuts · ← for agents"],
};
/** The same screen with the limit menu open over it (session-limit-options). */
const MENU: DriveVerdicts = {
  ...LIMITED,
  live_prompt: true,
  input_line: false,
  tail: [
    "say hello",
    BANNER,
    "✻ Churned for 2s",
    "/rate-limit-options",
    "",
    "What do you want to do?",
    "1. Stop and wait for limit to reset",
    "2. Upgrade your plan",
    "Enter to confirm · Esc to cancel",
  ],
};
/** After the resume went through: the old banner above the echo, the answer below. */
const ANSWERED: DriveVerdicts = {
  ...LIMITED,
  tail: ["say hello", BANNER, "✻ Churned for 2s", "continue", "Hello! How can I help?", "", "", ""],
};
/** The limit came back: a new banner below the echo of the resume. */
const CAME_BACK = (banner = BANNER, resets = RESET): DriveVerdicts => ({
  ...LIMITED,
  limit: banner,
  cli_unavailable: banner,
  limit_resets_at: resets,
  tail: [
    "say hello",
    BANNER,
    "✻ Churned for 2s",
    "continue",
    banner,
    "✻ Churned for 1s",
    "",
    "",
    "",
  ],
});
const TYPED: DriveVerdicts = { ...LIMITED, input_box: "continue" };

const SETTINGS: DriveSettings = { approve: "none", allow: [], dedupWindowMs: 5 * MIN };
const RESUME: DriveSettings = { ...SETTINGS, resume: "continue", resumeMarginMs: 2 * MIN };

// ---------------------------------------------------------------------------------------------
// Pure judgement

Deno.test("limit: resume off (the default) escalates as an unavailable CLI, with resets_at", () => {
  const st = freshState("s");
  const p = planPane(AGENT, LIMITED, st, T0, SETTINGS);
  assert.equal(p.kind, "escalate");
  assert.equal(p.kind === "escalate" && p.reason, "cli-unavailable");
  assert.equal(p.kind === "escalate" && p.resets_at, RESET);
  assert.equal(planPane(ORCH, LIMITED, st, T0, SETTINGS).kind, "confirm-unavailable");
});

Deno.test("limit: a limit with no readable reset is escalated as before, even with resume", () => {
  const st = freshState("s");
  const unread = { ...LIMITED, limit_resets_at: null };
  const p = planPane(AGENT, unread, st, T0, RESUME);
  assert.equal(p.kind === "escalate" && p.reason, "cli-unavailable");
  assert.equal(planPane(ORCH, unread, st, T0, RESUME).kind, "confirm-unavailable");
});

Deno.test("limit: first sighting, waiting, due at reset + margin", () => {
  const st = freshState("s");
  const first = planPane(AGENT, LIMITED, st, T0, RESUME);
  assert.equal(first.kind, "limit");
  if (first.kind !== "limit" || first.step.kind !== "limit") throw new Error("limit");
  assert.equal(first.step.comeback, false);
  assert.equal(first.step.memory.resetsAt, Date.parse(RESET));
  assert.equal(first.step.memory.dueAt, Date.parse(RESET) + 2 * MIN);
  st.panes[AGENT.id] = { limit: first.step.memory };
  const due = Date.parse(RESET) + 2 * MIN;
  const step = (now: number) => {
    const p = planPane(AGENT, LIMITED, st, now, RESUME);
    return p.kind === "limit" ? p.step.kind : p.kind;
  };
  assert.equal(step(T0 + MIN), "limit-wait");
  assert.equal(step(Date.parse(RESET)), "limit-wait");
  assert.equal(step(due - 1), "limit-wait");
  assert.equal(step(due), "resume");
  // the menu over the limit is still a limit: waiting, never a dialog to escalate or answer
  const m = planPane(AGENT, MENU, st, T0 + MIN, RESUME);
  assert.equal(m.kind === "limit" && m.step.kind, "limit-wait");
});

Deno.test("limit: the banner gone while waiting forgets it (the CLI went on by itself)", () => {
  const st = freshState("s");
  const first = planPane(AGENT, LIMITED, st, T0, RESUME);
  if (first.kind !== "limit" || first.step.kind !== "limit") throw new Error("limit");
  st.panes[AGENT.id] = { limit: first.step.memory };
  observe(st, AGENT, { ...base, tail: ["Hello!"] }, T0 + 60 * MIN);
  assert.equal(st.panes[AGENT.id]?.limit, undefined);
});

Deno.test("limit: after the resume the old banner is transcript; a new one below the echo is a comeback", () => {
  assert.equal(limitAfterResume(ANSWERED, "continue"), false);
  assert.equal(limitAfterResume(CAME_BACK(), "continue"), true);
  // the echo scrolled away, a banner is on screen: it is the newer one
  assert.equal(limitAfterResume({ ...LIMITED, tail: [BANNER, ""] }, "continue"), true);
  const mem = {
    text: BANNER,
    resetsAt: Date.parse(RESET),
    dueAt: Date.parse(RESET) + 2 * MIN,
    resumes: 1,
    seenAt: T0,
    resumedAt: Date.parse(RESET) + 2 * MIN,
    resumeText: "continue",
  };
  const now = Date.parse(RESET) + 3 * MIN;
  assert.equal(limitStep(ANSWERED, mem, now, 2 * MIN)?.kind, "limit-stale");
  // a stale banner does not make the pane unavailable: it is planned like any other screen
  const st = freshState("s");
  st.panes[AGENT.id] = { limit: mem };
  assert.equal(planPane(AGENT, ANSWERED, st, now, RESUME).kind, "nothing");
  assert.equal(
    planPane(AGENT, { ...ANSWERED, input_box: "next task" }, st, now, RESUME).kind,
    "submit",
  );
  // the same words again: the printed reset has passed, so the wait runs from now, doubled
  const back = limitStep(CAME_BACK(), mem, now, 2 * MIN);
  assert.equal(back?.kind, "limit");
  if (back?.kind !== "limit") throw new Error("limit");
  assert.equal(back.comeback, true);
  assert.equal(back.memory.dueAt, now + 4 * MIN);
  assert.equal(back.memory.resumes, 1);
  // new words with a later reset: that reset, plus the doubled wait
  const later = "2026-12-01T23:37:00.000Z";
  const back2 = limitStep(
    CAME_BACK("You've hit your session limit · resets 11:37pm (UTC)", later),
    mem,
    now,
    2 * MIN,
  );
  assert.equal(back2?.kind === "limit" && back2.memory.dueAt, Date.parse(later) + 4 * MIN);
});

Deno.test("limit: new words whose reset cannot be read are escalated, never resumed on the old time", () => {
  const mem = {
    text: BANNER,
    resetsAt: Date.parse(RESET),
    dueAt: Date.parse(RESET) + 2 * MIN,
    resumes: 0,
    seenAt: T0,
  };
  const past = "You've hit your session limit · resets Jan 1, 2020, 6am (UTC)";
  // waiting, the banner now names a reset the detector cannot trust (in the past): no resume step
  const unread = { ...LIMITED, limit: past, cli_unavailable: past, limit_resets_at: null };
  const due = Date.parse(RESET) + 3 * MIN;
  assert.equal(limitStep(unread, mem, due, 2 * MIN), null);
  const st = freshState("s");
  st.panes[AGENT.id] = { limit: mem };
  const p = planPane(AGENT, unread, st, due, RESUME);
  assert.equal(p.kind === "escalate" && p.reason, "cli-unavailable");
  assert.equal(planPane(ORCH, unread, st, due, RESUME).kind, "confirm-unavailable");
  // after a resume, a comeback in new unreadable words: the same
  const resumed = { ...mem, resumes: 1, resumedAt: due, resumeText: "continue" };
  const back = { ...CAME_BACK(past, RESET), limit_resets_at: null };
  assert.equal(limitStep(back, resumed, due + MIN, 2 * MIN), null);
});

Deno.test("limit: a comeback in the same words keeps the reset that passed (read again it rolls on a day)", () => {
  const mem = {
    text: BANNER,
    resetsAt: Date.parse(RESET),
    dueAt: Date.parse(RESET) + 2 * MIN,
    resumes: 1,
    seenAt: T0,
    resumedAt: Date.parse(RESET) + 2 * MIN,
    resumeText: "continue",
  };
  const now = Date.parse(RESET) + 6 * MIN;
  // after 6:37pm the detector reads "resets 6:37pm" as tomorrow's 6:37pm
  const tomorrow = new Date(Date.parse(RESET) + 24 * 60 * MIN).toISOString();
  const back = limitStep(CAME_BACK(BANNER, tomorrow), mem, now, 2 * MIN);
  if (back?.kind !== "limit") throw new Error("limit");
  assert.equal(back.memory.resetsAt, Date.parse(RESET));
  assert.equal(back.memory.dueAt, now + 4 * MIN);
  assert.equal(comebackWhen(back.memory), `4m from now, its reset at ${RESET} having passed`);
  // new words with a reset still ahead: counted from that reset
  const later = "2026-12-01T23:37:00.000Z";
  const ahead = limitStep(
    CAME_BACK("You've hit your session limit · resets 11:37pm (UTC)", later),
    mem,
    now,
    2 * MIN,
  );
  if (ahead?.kind !== "limit") throw new Error("limit");
  assert.equal(comebackWhen(ahead.memory), `4m after its reset at ${later}`);
});

Deno.test("limit: the wait doubles per resume and stops at 6 h; a zero margin still backs off", () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((n) => waitAfterReset(n, 2 * MIN)),
    [2 * MIN, 4 * MIN, 8 * MIN, 16 * MIN, 32 * MIN],
  );
  assert.equal(waitAfterReset(8, 2 * MIN), MAX_BACKOFF_MS);
  assert.equal(waitAfterReset(1000, 2 * MIN), 6 * 60 * MIN);
  assert.equal(waitAfterReset(0, 0), 0);
  assert.equal(waitAfterReset(1, 0), 2 * MIN);
});

Deno.test("limit: verdicts carry limit, reset, input line and the bottom lines", () => {
  const plain = [
    "❯ say hello",
    "  ⎿  " + BANNER,
    "",
    "✻ Churned for 2s",
    "",
    "────────",
    "❯ ",
    "────────",
  ].join("\n");
  const dv = toDriveVerdicts({
    state: "unavailable",
    cli_unavailable: null,
    limit: BANNER,
    limit_resets_at: RESET,
    input_line: true,
  }, plain);
  assert.equal(dv.limit, BANNER);
  assert.equal(dv.limit_resets_at, RESET);
  assert.equal(dv.input_line, true);
  // a banner is an unavailable CLI even when the profile's markers do not say so
  assert.equal(dv.cli_unavailable, BANNER);
  // decoration (⎿ ❯ ─) stripped, the rules and the empty input line left as ""
  assert.deepEqual(dv.tail, ["say hello", BANNER, "✻ Churned for 2s", "", "", ""]);
});

Deno.test("limit: options — off by default, --resume, [drive].resume, margin, hidden --now", () => {
  const env = (k: string) => ({ HOME: "/home/u" } as Record<string, string>)[k];
  const off = resolveDriveOptions({ session: "s" }, {}, env);
  assert.equal(off.resume, undefined);
  assert.equal(off.resumeMarginMs, 2 * MIN);
  const cfg = resolveDriveOptions(
    { session: "s" },
    { resume: "go on", resumeMarginMs: 5 * MIN },
    env,
  );
  assert.deepEqual([cfg.resume, cfg.resumeMarginMs], ["go on", 5 * MIN]);
  const flags = resolveDriveOptions(
    { session: "s", resume: "continue", resumeMargin: "30s", now: "2026-12-01T18:00:00Z" },
    { resume: "go on" },
    env,
  );
  assert.deepEqual([flags.resume, flags.resumeMarginMs, flags.startAt], ["continue", 30_000, T0]);
  assert.throws(() => resolveDriveOptions({ session: "s", resume: " " }, {}, env), /--resume/);
  assert.throws(
    () => resolveDriveOptions({ session: "s", resumeMargin: "1m" }, {}, env),
    /--resume-margin needs --resume/,
  );
  assert.throws(
    () => resolveDriveOptions({ session: "s", resume: "x", resumeMargin: "2d" }, {}, env),
    /at most 24h/,
  );
  assert.throws(
    () => resolveDriveOptions({ session: "s", now: "yesterday" }, {}, env),
    /--now/,
  );
});

Deno.test("limit: the state file keeps a pane's limit; a damaged entry is dropped", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const st = freshState("s");
    st.panes["%1"] = {
      limit: {
        text: BANNER,
        resetsAt: 1,
        dueAt: 2,
        resumes: 1,
        seenAt: 0,
        resumedAt: 3,
        resumeText: "continue",
      },
    };
    st.panes["%2"] = { limit: { text: "x", resetsAt: 1, dueAt: 2, resumes: 0, seenAt: 0 } };
    await saveState(`${dir}/st.json`, st);
    assert.deepEqual((await loadState(`${dir}/st.json`, "s")).state, st);
    const raw = JSON.parse(await Deno.readTextFile(`${dir}/st.json`));
    raw.panes["%2"].limit.dueAt = "soon";
    await Deno.writeTextFile(`${dir}/st.json`, JSON.stringify(raw));
    const back = await loadState(`${dir}/st.json`, "s");
    assert.equal(back.state.panes["%2"]?.limit, undefined);
    assert.equal(back.state.panes["%1"]?.limit?.resumes, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// ---------------------------------------------------------------------------------------------
// The loop against a fake host: what is typed, and when

/**
 * One pane whose screen follows what is typed into it: `screen` is the verdict shown now; typing
 * puts the text in the box, Enter submits it and `afterEnter` says what the CLI shows then.
 */
class Pane implements DriveHost {
  t = T0;
  sent: string[] = [];
  events: DriveEvent[] = [];
  box: string | null = null;
  constructor(
    public screen: DriveVerdicts,
    public afterEnter: () => DriveVerdicts,
    public ref: PaneRef = AGENT,
  ) {}
  private show(): DriveVerdicts {
    return this.box === null ? this.screen : { ...this.screen, input_box: this.box };
  }
  panes() {
    return Promise.resolve([{ ref: this.ref, settleMs: 10 }]);
  }
  look(panes: HostPane[]) {
    return Promise.resolve(new Map(panes.map((p) => [p.ref.id, this.show()])));
  }
  lookOne() {
    return Promise.resolve(this.show());
  }
  keys(_p: HostPane, keys: string[]) {
    for (const k of keys) {
      this.sent.push(k);
      if (k === "Enter" && this.box !== null) {
        this.box = null;
        this.screen = this.afterEnter();
      }
      if (k === "C-u") this.box = null;
    }
    return Promise.resolve();
  }
  typeLiteral(_p: HostPane, text: string) {
    this.sent.push(`literal:${text}`);
    this.box = (this.box ?? "") + text;
    return Promise.resolve();
  }
  approve(): Promise<ApproveResult> {
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

const STATE_DIR = Deno.makeTempDirSync({ prefix: "drover-limit-test-" });
globalThis.addEventListener("unload", () => Deno.removeSync(STATE_DIR, { recursive: true }));
let states = 0;

function loop(host: Pane, settings: DriveSettings, st = freshState("s"), once = true) {
  const statePath = `${STATE_DIR}/state-${++states}.json`;
  return {
    st,
    run: () =>
      new DriveLoop(
        host,
        {
          session: "s",
          once,
          intervalMs: 15_000,
          settings,
          confirmMs: 10,
          verifyMs: 10,
          statePath,
        },
        st,
        (e) => {
          if (e.event !== "warning") host.events.push(e);
        },
      ).run(),
  };
}

const kinds = (h: Pane) =>
  h.events.filter((e) => e.event !== "drive-started" && e.event !== "drive-stopped").map((e) =>
    e.event === "escalated" ? `escalated:${e.reason}` : e.event
  );

Deno.test("drive: an agent's limit — one event, nothing before the reset, one resume after", async () => {
  const h = new Pane(LIMITED, () => ANSWERED);
  const { st, run } = loop(h, RESUME);
  await run();
  assert.deepEqual(kinds(h), ["limit"]);
  const ev = h.events.find((e) => e.event === "limit")!;
  assert.equal(ev.resets_at, RESET);
  assert.equal(ev.text, BANNER);
  assert.deepEqual(ev.detail, {
    due_at: "2026-12-01T18:39:00.000Z",
    resumes: 0,
    comeback: false,
  });
  // every tick up to reset + margin: nothing typed, nothing reported again
  for (const at of ["18:10", "18:37", "18:38:59"]) {
    h.t = Date.parse(`2026-12-01T${at.length === 5 ? at + ":00" : at}Z`);
    await run();
  }
  assert.deepEqual(h.sent, []);
  assert.deepEqual(kinds(h), ["limit"]);
  // the first tick after it: the resume, typed once, verified
  h.t = Date.parse("2026-12-01T18:39:00Z");
  await run();
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
  assert.deepEqual(kinds(h), ["limit", "resumed"]);
  const resumed = h.events.find((e) => e.event === "resumed")!;
  assert.equal(resumed.text, "continue");
  assert.equal(resumed.resets_at, RESET);
  assert.equal(st.panes[AGENT.id]?.limit?.resumedAt !== undefined, true);
  // later ticks: the old banner is transcript now — nothing more
  for (let i = 0; i < 5; i++) {
    h.t += 10 * MIN;
    await run();
  }
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
  assert.deepEqual(kinds(h), ["limit", "resumed"]);
});

Deno.test("drive: a limit that comes back backs off, doubling, and each one is resumed once", async () => {
  const h = new Pane(LIMITED, () => CAME_BACK());
  const { st, run } = loop(h, RESUME);
  await run();
  h.t = Date.parse(RESET) + 2 * MIN;
  await run(); // resume 1 → the limit comes back at once
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
  h.t += 15_000;
  await run(); // sees it: limit (comeback), due 4 minutes from now
  assert.deepEqual(kinds(h), ["limit", "resumed", "limit"]);
  const back = h.events.findLast((e) => e.event === "limit")!;
  assert.equal((back.detail as { comeback: boolean }).comeback, true);
  const seen = h.t;
  assert.equal(st.panes[AGENT.id]?.limit?.dueAt, seen + 4 * MIN);
  // nothing before the backed-off time
  h.t = seen + 4 * MIN - 1;
  await run();
  assert.equal(h.sent.length, 2);
  // the new banner sits below the echo of the first resume; after the second resume a third
  // banner comes below the second echo
  h.afterEnter = () => ({
    ...LIMITED,
    tail: ["continue", BANNER, "✻ Churned for 1s", "continue", BANNER, "", "", ""],
  });
  h.t = seen + 4 * MIN;
  await run();
  assert.deepEqual(h.sent, ["literal:continue", "Enter", "literal:continue", "Enter"]);
  h.t += 15_000;
  await run();
  assert.equal(st.panes[AGENT.id]?.limit?.resumes, 2);
  assert.equal(st.panes[AGENT.id]?.limit?.dueAt, h.t + 8 * MIN);
  assert.deepEqual(kinds(h), ["limit", "resumed", "limit", "resumed", "limit"]);
});

Deno.test("drive: the comeback event of a repeated resume names a due time after the reset (issue 27)", async () => {
  // The real detector reads the same "resets 6:37pm" as the next day's once 6:37pm has passed.
  const tomorrow = new Date(Date.parse(RESET) + 24 * 60 * MIN).toISOString();
  const h = new Pane(LIMITED, () => CAME_BACK(BANNER, tomorrow));
  const { st, run } = loop(h, RESUME);
  await run();
  h.t = Date.parse(RESET) + 2 * MIN;
  await run(); // the resume; the limit comes back at once, in the same words
  h.t = Date.parse("2026-12-01T18:43:00Z");
  await run();
  const back = h.events.findLast((e) => e.event === "limit")!;
  assert.equal((back.detail as { comeback: boolean }).comeback, true);
  assert.equal(back.resets_at, RESET);
  assert.equal((back.detail as { due_at: string }).due_at, "2026-12-01T18:47:00.000Z");
  assert.match(
    back.message,
    /; resuming again at 2026-12-01T18:47:00\.000Z \(4m from now, its reset at 2026-12-01T18:37:00\.000Z having passed; backing off\)$/,
  );
  assert.doesNotMatch(back.message, /-\d+m/);
  const mem = st.panes[AGENT.id]!.limit!;
  assert.ok(mem.dueAt >= mem.resetsAt);
});

Deno.test("drive: a limit menu is never answered; it is escalated once the reset is due", async () => {
  const h = new Pane(MENU, () => ANSWERED);
  const { run } = loop(h, RESUME);
  await run();
  h.t = Date.parse(RESET) + 2 * MIN;
  await run();
  h.t += MIN;
  await run(); // within the dedup window: not again
  assert.deepEqual(h.sent, []);
  assert.deepEqual(kinds(h), ["limit", "escalated:limit-menu"]);
  // a person closes the menu: the next tick types the resume
  h.screen = LIMITED;
  h.t += MIN;
  await run();
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
  assert.deepEqual(kinds(h), ["limit", "escalated:limit-menu", "resumed"]);
});

Deno.test("drive: typed text in the box at the due tick waits; a wedged resume is never retyped", async () => {
  const h = new Pane(TYPED, () => TYPED);
  const { run } = loop(h, RESUME);
  await run();
  h.t = Date.parse(RESET) + 2 * MIN;
  await run();
  assert.deepEqual(h.sent, []); // someone's text is in the box: not ours to touch
  // an empty box whose Enter does nothing: two recoveries, then resume-wedged, once
  h.screen = LIMITED;
  h.afterEnter = () => LIMITED;
  const stuck = new Pane(LIMITED, () => LIMITED);
  stuck.keys = (_p, keys) => {
    stuck.sent.push(...keys);
    if (keys.includes("C-u")) stuck.box = null;
    return Promise.resolve();
  };
  const s = loop(stuck, RESUME);
  await s.run();
  stuck.t = Date.parse(RESET) + 2 * MIN;
  await s.run();
  const typed = stuck.sent.filter((k) => k.startsWith("literal:")).length;
  assert.equal(typed, 3);
  assert.deepEqual(kinds(stuck), ["limit", "escalated:resume-wedged"]);
  stuck.t += 60 * MIN;
  await s.run();
  assert.equal(stuck.sent.filter((k) => k.startsWith("literal:")).length, 3);
});

Deno.test("drive: the orchestrator's --once run exits 75 quietly until the reset, then resumes", async () => {
  const h = new Pane(LIMITED, () => ANSWERED, ORCH);
  const { run } = loop(h, RESUME);
  const first = await run();
  assert.equal(first.exitCode, DRIVE_EXIT.orchestratorUnavailable);
  assert.equal(first.reason, "orchestrator-limit");
  assert.deepEqual(kinds(h), ["limit"]); // no escalation, no orchestrator-unavailable
  for (const min of [5, 30, 38]) {
    h.t = T0 + min * MIN;
    const r = await run();
    assert.equal(r.exitCode, 75);
  }
  assert.deepEqual(kinds(h), ["limit"]);
  assert.deepEqual(h.sent, []);
  h.t = Date.parse(RESET) + 2 * MIN;
  const after = await run();
  assert.equal(after.exitCode, DRIVE_EXIT.ok);
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
  assert.deepEqual(kinds(h), ["limit", "resumed"]);
  h.t += 10 * MIN;
  assert.equal((await run()).exitCode, 0);
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
});

Deno.test("drive: the orchestrator in loop mode keeps looping while it waits", async () => {
  const h = new Pane(LIMITED, () => ANSWERED, ORCH);
  const st = freshState("s");
  const r = await new DriveLoop(
    h,
    {
      session: "s",
      once: false,
      intervalMs: 15 * MIN,
      settings: RESUME,
      confirmMs: 10,
      verifyMs: 10,
      statePath: `${STATE_DIR}/loop.json`,
      maxTicks: 5,
    },
    st,
    (e) => void h.events.push(e),
  ).run();
  assert.equal(r.reason, "max-ticks");
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
  assert.deepEqual(kinds(h).filter((k) => k !== "warning"), ["limit", "resumed"]);
});

Deno.test("drive: without --resume a limit is an unavailable CLI as before (exit 75, escalation)", async () => {
  const h = new Pane(LIMITED, () => ANSWERED, ORCH);
  const { run } = loop(h, SETTINGS);
  const r = await run();
  assert.equal(r.exitCode, 75);
  assert.equal(r.reason, "orchestrator-unavailable");
  assert.deepEqual(kinds(h), ["orchestrator-unavailable", "escalated:orchestrator-unavailable"]);
  assert.equal(h.events.find((e) => e.event === "orchestrator-unavailable")?.resets_at, RESET);
  h.t = Date.parse(RESET) + 60 * MIN;
  await run();
  assert.deepEqual(h.sent, []);
});

Deno.test("drive: a CLI that goes on by itself gets nothing typed; its old banner stays quiet", async () => {
  // (Claude Code 2.1.332 continues by itself at the reset; the output lands below the banner.)
  const continued: DriveVerdicts = {
    ...LIMITED,
    tail: [
      "say hello",
      BANNER,
      "✻ Churned for 2s",
      "● Hello! Carrying on.",
      "✻ Worked for 1s",
      "",
      "",
      "",
    ],
  };
  const h = new Pane(LIMITED, () => ANSWERED);
  const { st, run } = loop(h, RESUME);
  await run(); // first sighting
  h.t = Date.parse(RESET) + 30_000;
  h.screen = continued;
  await run(); // before the due time: it went on by itself
  h.t = Date.parse(RESET) + 3 * MIN;
  await run(); // past the due time: nothing to type
  h.t += 30 * MIN;
  await run();
  assert.deepEqual(h.sent, []);
  assert.deepEqual(kinds(h), ["limit"]);
  assert.deepEqual(st.panes[AGENT.id]?.limit?.movedOn, [
    "● hello! carrying on.",
    "✻ worked for 1s",
  ]);
  // a new limit below all that: a limit of its own, resumed once when due
  h.screen = {
    ...LIMITED,
    tail: [
      BANNER,
      "✻ Churned for 2s",
      "● Hello! Carrying on.",
      "✻ Worked for 1s",
      BANNER,
      "✻ Churned for 3s",
      "",
      "",
    ],
  };
  await run();
  assert.deepEqual(kinds(h), ["limit", "limit"]);
  h.t = st.panes[AGENT.id]!.limit!.dueAt;
  await run();
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
});

Deno.test("drive: a menu that opens after the limit was first seen does not read as going on", async () => {
  const h = new Pane(LIMITED, () => ANSWERED);
  const { run } = loop(h, RESUME);
  await run();
  h.screen = MENU;
  h.t = T0 + 5 * MIN;
  await run();
  h.t = Date.parse(RESET) + 2 * MIN;
  await run();
  assert.deepEqual(kinds(h), ["limit", "escalated:limit-menu"]);
  h.screen = LIMITED; // a person closed it
  h.t += MIN;
  await run();
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
});

Deno.test("drive: 2.1.332's own 'continue automatically' line is quiet once the limit is over; a new failure is not", async () => {
  // The lab's drive-resume-self screens (2.1.332, its auto-continue did not fire in detached tmux):
  // the line the CLI writes under the banner stays in the transcript after the resume and still
  // matches cli_unavailable_markers ("Usage limit reached").
  const banner = "You've hit your 5-hour limit · resets 5:56am (UTC)";
  const auto = "● Usage limit reached · set to continue automatically at 5:56am";
  const reset = "2026-12-01T05:56:00.000Z";
  const waiting: DriveVerdicts = {
    ...LIMITED,
    cli_unavailable: "⚠ Usage limit reached · limit resets 5:56am",
    limit: banner,
    limit_resets_at: reset,
    tail: ["say hello", banner, auto, "", "", "", "⚠ Usage limit reached · limit resets 5:56am"],
  };
  const answered: DriveVerdicts = {
    ...waiting,
    cli_unavailable: auto,
    tail: [
      banner,
      auto,
      "continue",
      "● Resumed after the limit: carrying on with the task.",
      "✻ Sautéed for 0s · done 5:57 AM",
      "",
      "",
      "",
      "⏸ manual mode on · ? for shortcuts",
    ],
  };
  const h = new Pane(waiting, () => answered);
  h.t = Date.parse("2026-12-01T05:55:00Z");
  const { run } = loop(h, RESUME);
  await run();
  h.t = Date.parse(reset) + 2 * MIN;
  await run();
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
  for (let i = 0; i < 3; i++) {
    h.t += 10 * MIN;
    await run();
  }
  assert.deepEqual(kinds(h), ["limit", "resumed"]);
  // A credit failure after it is a new unavailable line: escalated as always.
  h.screen = {
    ...answered,
    cli_unavailable: "Credit balance too low · Add funds",
    tail: [...answered.tail!.slice(0, 5), "Credit balance too low · Add funds", "", ""],
  };
  h.t += MIN;
  await run();
  assert.deepEqual(kinds(h), ["limit", "resumed", "escalated:cli-unavailable"]);
  assert.deepEqual(h.sent, ["literal:continue", "Enter"]);
});
