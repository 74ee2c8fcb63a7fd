/**
 * Usage limits with the real Claude Code (issue 12), every pinned version. The stand-in answers a
 * turn with the subscription usage-limit rejection (HTTP 429 + unified rate-limit headers), which
 * Claude Code turns into "You've hit your session limit · resets <time> (<zone>)" (2.1.332: "5-hour
 * limit") and, with its own auto-continue off (2.1.197 has none; 2.1.332 setting
 * `autoContinueAtUsageLimit: false`), its "What do you want to do?" menu.
 *
 * - `session-limit-zone`, `weekly-limit-date`: recorded screens of the wordings the profile reads —
 *   the zone Claude Code runs in printed as an IANA name (TZ set), and a reset days ahead printed
 *   with its date.
 * - `drive-resume-agent`, `drive-resume-orchestrator`: `drover drive --once --resume continue`,
 *   tick by tick like cron, through a real limit that resets about a minute later (real time up to
 *   the reset: the CLI itself must be past it; drover's test clock, the hidden `--now`, for the
 *   margin and the backoff): one `limit` event; nothing typed before reset + margin; the menu still
 *   open then is escalated and never answered; once a person has closed it, "continue" is typed once
 *   and reaches the API; a limit that comes back (the API refuses again) waits twice the margin and
 *   is resumed once more. The orchestrator's runs exit 75 while it waits and 0 once resumed.
 * - `drive-resume-self` (2.1.332, its auto-continue on as shipped), all in real time with the
 *   default margin: drover must not add a second continuation to the CLI's own. Whether the CLI
 *   went on by itself in the lab's detached tmux is logged; either way exactly one continuation
 *   reaches the API.
 */
import type { DroverRun } from "../../helpers/drover.ts";
import { claudeAt, driveOnce } from "./drive_claude.ts";
import {
  type AnthropicStep,
  type ClaudeSession,
  compareVersions,
  type LabScenario,
  type LabSuite,
  lastUserTexts,
  pinnedCliVersions,
  resolveCli,
  type ScenarioContext,
  usageLimitHeaders,
} from "../harness/mod.ts";
import { orchestratorBeside, sleep } from "./others_common.ts";

const READY = "? for shortcuts";
const MENU = "What do you want to do?";
/** Both versions' session-limit banner ("session limit" / "5-hour limit") starts so. */
const HIT = "You've hit your";
/** The version that continues by itself at the reset unless settings say otherwise. */
const SELF_CONTINUE_SINCE = "2.1.332";
/** What 2.1.332 prints when it continues by itself at the reset. */
const SELF_CONTINUED = "Usage limit reset · Continuing automatically";
/** --resume-margin: past the printed minute (cut down) by at least 30 s. */
const MARGIN_MS = 90_000;
/** Beside the CLI's own auto-continue: drover's default margin (2m), in real time. */
const SELF_MARGIN_MS = 120_000;

// deno-lint-ignore no-explicit-any
type Loose = any;

const selfContinues = (version: string) => compareVersions(version, SELF_CONTINUE_SINCE) >= 0;

const limitError = (
  claim: "five_hour" | "seven_day",
  resetS: number,
  times = 1,
): AnthropicStep => ({
  kind: "error",
  status: 429,
  times,
  message: "This request would exceed your account's rate limit. Please try again later.",
  headers: usageLimitHeaders(claim, resetS),
});

/**
 * Claude Code at the scenario's version, subscription login, TZ set; `menu`: its own auto-continue
 * off where it has one, so the limit opens the menu as 2.1.197's does.
 */
async function claudeLimited(
  ctx: ScenarioContext,
  tz: string,
  menu: boolean,
  script: AnthropicStep[],
): Promise<ClaudeSession> {
  const off = menu && selfContinues(ctx.version);
  const c = await claudeAt(ctx, {
    auth: "subscription",
    env: { TZ: tz },
    ...(off ? { settings: { autoContinueAtUsageLimit: false } } : {}),
    script,
  });
  if (off) ctx.step("HOME/.claude/settings.json also sets autoContinueAtUsageLimit=false");
  return c;
}

/** One drive "crontab": its state directory, extra arguments and --resume-margin. */
interface Drive {
  state: string;
  args: string[];
  marginMs: number;
}

/** drover's clock for a tick: the real one, or `at` when that is later (the test clock). */
const clockAt = (at = 0) => new Date(Math.max(Date.now(), at)).toISOString();

/** `drover drive --once --json --resume continue --resume-margin M --now T` on the lab server. */
async function tick(
  ctx: ScenarioContext,
  c: ClaudeSession,
  d: Drive,
  at = 0,
): Promise<{ run: DroverRun; events: Loose[]; result: Loose }> {
  const now = clockAt(at);
  const r = await driveOnce(ctx, c, d.state, [
    "--resume",
    "continue",
    "--resume-margin",
    `${d.marginMs / 1000}s`,
    "--now",
    now,
    ...d.args,
  ]);
  const events = r.events.filter((e) => e.event !== "drive-started" && e.event !== "drive-stopped");
  ctx.log(
    `drive @${now}: exit ${r.run.code}: ${
      events.map((e) =>
        `${e.event}${e.reason ? `/${e.reason}` : ""}${
          e.detail?.recoveries ? ` (${e.detail.recoveries} recoveries)` : ""
        }`
      ).join(", ") || "-"
    }`,
  );
  return { ...r, events };
}

/** The turns the API got (a function: each read is fresh). */
const turns = (c: ClaudeSession): number => c.api.mainRequests().length;

/** Each turn the API got, for a failure: when, what was served, the user text it ended with. */
const turnLog = (c: ClaudeSession): string =>
  c.api.mainRequests().map((r, i) =>
    `  #${i + 1} ${new Date(r.at).toISOString()} ${
      r.fallback ? "exhausted" : r.step
    } ${r.status}: ${JSON.stringify(lastUserTexts(r.body)).slice(0, 300)}`
  ).join("\n");

const names = (events: Loose[]) =>
  events.map((e) => e.event === "escalated" ? `escalated:${e.reason}` : e.event).join(", ");

/** Tick every 20 s in real time (like a fast cron) until `until` (epoch ms); each sends nothing. */
async function waitQuietly(
  ctx: ScenarioContext,
  c: ClaudeSession,
  d: Drive,
  until: number,
  expectCode: number,
): Promise<void> {
  const before = turns(c);
  while (Date.now() < until) {
    await sleep(Math.min(20_000, Math.max(0, until - Date.now())));
    const t = await tick(ctx, c, d);
    if (t.run.code !== expectCode) ctx.fail(`waiting: exit ${t.run.code}: ${t.run.stderr}`);
    if (t.events.length > 0) ctx.fail(`waiting: drive reported ${names(t.events)}`);
  }
  if (turns(c) !== before) ctx.fail("drive typed something before the reset");
}

/**
 * Like waitQuietly, but the CLI may go on by itself meanwhile (its own auto-continue): drover must
 * still report and type nothing; only turns drover would have caused are counted by the caller.
 */
async function waitQuietlyUnlessSelf(
  ctx: ScenarioContext,
  c: ClaudeSession,
  d: Drive,
  until: number,
  before: number,
): Promise<void> {
  while (Date.now() < until) {
    await sleep(Math.min(20_000, Math.max(0, until - Date.now())));
    const t = await tick(ctx, c, d);
    if (t.run.code !== 0) ctx.fail(`waiting: exit ${t.run.code}: ${t.run.stderr}`);
    if (t.events.length > 0) ctx.fail(`waiting: drive reported ${names(t.events)}`);
    if (turns(c) > before + 1) ctx.fail("two continuations while waiting");
  }
}

/** One quiet tick at test-clock time `at`: no event, nothing typed. */
async function quietAt(
  ctx: ScenarioContext,
  c: ClaudeSession,
  d: Drive,
  at: number,
  expectCode: number,
  what: string,
): Promise<void> {
  const before = turns(c);
  const t = await tick(ctx, c, d, at);
  if (t.run.code !== expectCode) ctx.fail(`${what}: exit ${t.run.code}: ${t.run.stderr}`);
  if (t.events.length > 0) ctx.fail(`${what}: drive reported ${names(t.events)}`);
  await sleep(1000);
  if (turns(c) !== before) ctx.fail(`${what}: drive typed something`);
}

/** Type the first prompt; the limit comes back (and, with `menu`, the CLI's own menu). */
async function hitLimit(c: ClaudeSession, until: string[]): Promise<void> {
  await c.pane.type("say hello");
  await sleep(300);
  await c.pane.keys("Enter");
  await c.pane.waitFor([HIT, ...until], { timeoutMs: 60_000 });
}

/** The first tick at a fresh limit: one `limit` event at the printed minute, nothing typed. */
async function firstLimit(
  ctx: ScenarioContext,
  c: ClaudeSession,
  d: Drive,
  resetS: number,
  ok: number,
  orchestrator: boolean,
): Promise<{ resetsAt: number; dueAt: number }> {
  const first = await tick(ctx, c, d);
  if (first.run.code !== ok) ctx.fail(`first tick: exit ${first.run.code}: ${first.run.stderr}`);
  const limit = first.events.find((e) => e.event === "limit");
  if (!limit || first.events.length !== 1) ctx.fail(`first tick: ${names(first.events)}`);
  if (orchestrator && first.result?.data?.outcome !== "orchestrator-limit") {
    ctx.fail(`first tick: ${JSON.stringify(first.result)}`);
  }
  const resetsAt = Date.parse(limit.resets_at);
  const dueAt = Date.parse(limit.detail.due_at);
  // Claude Code prints the minute ("5:12am"), cut down: the margin puts the resume after the reset.
  const printedMinute = Math.floor(resetS / 60) * 60_000;
  if (resetsAt !== printedMinute) {
    ctx.fail(
      `resets_at ${limit.resets_at}: expected the printed minute ${
        new Date(printedMinute).toISOString()
      }`,
    );
  }
  if (dueAt !== resetsAt + d.marginMs) ctx.fail(`due_at ${limit.detail.due_at}`);
  if (turns(c) !== 1) ctx.fail("the first tick typed something");
  return { resetsAt, dueAt };
}

async function driveThroughLimit(ctx: ScenarioContext, role: "agent" | "orchestrator") {
  // The limit resets about a minute from now (real time: Claude Code itself must be past it).
  const resetS = Math.floor(Date.now() / 1000) + 70;
  await using c = await claudeLimited(ctx, "America/New_York", true, [
    limitError("five_hour", resetS),
    // the first resume meets the limit again (the same reset)
    limitError("five_hour", resetS),
    { kind: "text", text: "Resumed after the limit: carrying on with the task." },
  ]);
  ctx.step(
    "stand-in script: HTTP 429 usage limit (five_hour, resets in 70 s) → the same again → a text " +
      "reply; Claude Code runs with TZ=America/New_York, drover with the lab's zone (UTC)",
  );
  const d: Drive = {
    state: await ctx.lab.tmpDir("drive-state"),
    args: role === "agent" ? ["--orchestrator", await orchestratorBeside(ctx, c)] : [],
    marginMs: MARGIN_MS,
  };
  const ok = role === "agent" ? 0 : 75;

  ctx.step('type "say hello", Enter: the limit, and the CLI opens its menu by itself');
  await hitLimit(c, ["(America/New_York)", MENU]);

  ctx.step("drive --once: one limit event, nothing typed");
  const { dueAt } = await firstLimit(ctx, c, d, resetS, ok, role !== "agent");

  ctx.step("drive --once every 20 s (real clock) until the real reset: nothing reported or typed");
  await waitQuietly(ctx, c, d, resetS * 1000 + 2000, ok);
  ctx.step("drive --once after the reset, before reset + margin (test clock): still nothing");
  await quietAt(ctx, c, d, dueAt - 10_000, ok, "before due");

  ctx.step("drive --once at the due time: the menu is still open → escalated, never answered");
  const due = await tick(ctx, c, d, dueAt + 1000);
  if (!due.events.some((e) => e.event === "escalated" && e.reason === "limit-menu")) {
    ctx.fail(`due tick: ${names(due.events)}`);
  }
  await sleep(1500);
  if (turns(c) !== 1) ctx.fail("drive answered the limit menu");
  if (!(await c.pane.capturePlain()).includes(MENU)) ctx.fail("the menu is gone: a key reached it");

  ctx.step('a person closes the menu: press 1 ("Stop and wait for limit to reset")');
  await c.pane.keys("1");
  await c.pane.waitFor([HIT, READY], { timeoutMs: 30_000 });

  ctx.step("drive --once: the resume, typed once; the API gets it (and refuses again)");
  const resumed = await tick(ctx, c, d, dueAt + 2000);
  if (resumed.run.code !== 0) ctx.fail(`resume tick: exit ${resumed.run.code}`);
  if (!resumed.events.some((e) => e.event === "resumed")) {
    ctx.fail(`resume tick: ${names(resumed.events)}`);
  }
  await c.api.waitForMainRequests(2, 60_000);
  if (!JSON.stringify(c.api.mainRequests()[1].body ?? {}).includes("continue")) {
    ctx.fail("the second turn does not carry the resume text");
  }
  await sleep(3000);

  ctx.step("drive --once: the limit came back → a limit event (comeback), waiting 2 × margin");
  const back = await tick(ctx, c, d, dueAt + 3000);
  const comeback = back.events.find((e) => e.event === "limit");
  if (!comeback?.detail?.comeback) ctx.fail(`comeback tick: ${names(back.events)}`);
  const seen = Date.parse(comeback.ts);
  const dueAgain = Date.parse(comeback.detail.due_at);
  // (the clock of that run ran for a moment before it saw the limit)
  if (Math.abs(dueAgain - seen - 2 * MARGIN_MS) > 1000) {
    ctx.fail(`backed off ${dueAgain - seen} ms, expected ${2 * MARGIN_MS}`);
  }
  await quietAt(ctx, c, d, seen + MARGIN_MS + 1000, ok, "after one margin");
  await quietAt(ctx, c, d, dueAgain - 10_000, ok, "10 s before the backed-off time");
  if (turns(c) !== 2) ctx.fail("typed again before the backed-off time");

  ctx.step("drive --once after it: resumed once more; the API answers");
  const again = await tick(ctx, c, d, dueAgain + 1000);
  if (!again.events.some((e) => e.event === "resumed")) ctx.fail(`again: ${names(again.events)}`);
  await c.api.waitForMainRequests(3, 60_000);
  await c.pane.waitFor(["Resumed after the limit: carrying on with the task.", READY], {
    timeoutMs: 60_000,
  });

  ctx.step("drive --once: nothing more (the old banners are transcript now)");
  const after = await tick(ctx, c, d, dueAgain + 5000);
  if (after.run.code !== 0) ctx.fail(`after: exit ${after.run.code}`);
  if (after.events.some((e) => e.event === "resumed" || e.event === "limit")) {
    ctx.fail(`after: ${names(after.events)}`);
  }
  await sleep(2000);
  if (turns(c) !== 3) ctx.fail(`${turns(c)} turns, expected 3:\n${turnLog(c)}`);
}

/**
 * 2.1.332 as shipped continues by itself at the reset. drover, driving it with --resume, must not
 * make that two continuations: if the CLI went on, nothing is typed; if it did not (reported for
 * detached tmux), drover's resume is the one.
 */
async function driveBesideSelfContinue(ctx: ScenarioContext) {
  const resetS = Math.floor(Date.now() / 1000) + 70;
  await using c = await claudeLimited(ctx, "UTC", false, [
    limitError("five_hour", resetS),
    { kind: "text", text: "Resumed after the limit: carrying on with the task." },
  ]);
  ctx.step(
    "stand-in script: HTTP 429 usage limit (five_hour, resets in 70 s) → a text reply; the " +
      "CLI's own auto-continue on (as shipped)",
  );
  const d: Drive = {
    state: await ctx.lab.tmpDir("drive-state"),
    args: ["--orchestrator", await orchestratorBeside(ctx, c)],
    marginMs: SELF_MARGIN_MS,
  };

  ctx.step('type "say hello", Enter: the limit, and the CLI says it will continue by itself');
  await hitLimit(c, ["Continuing automatically at"]);

  ctx.step("drive --once: one limit event, nothing typed");
  const { dueAt } = await firstLimit(ctx, c, d, resetS, 0, false);

  // All in real time, as cron would run it: the CLI's own continuation (seen about 30 s after the
  // reset in one run, not within 30 s in others) and drover's due tick must not both type.
  ctx.step("drive --once every 20 s (real clock) until reset + margin: nothing reported or typed");
  const before = turns(c);
  await waitQuietlyUnlessSelf(ctx, c, d, dueAt - 5000, before);
  const bottom = (await c.pane.capturePlain()).split("\n").filter((l) => l.trim() !== "");
  // The CLI went on by itself when its request came in, or when it says so: on a loaded machine
  // its "Usage limit reset · Continuing automatically" and busy line can be drawn seconds before
  // the request reaches the stand-in (drover, reading that screen, rightly types nothing).
  const wentOn = async () =>
    turns(c) > before ||
    (await c.pane.capturePlain()).split("\n").some((l) => l.includes(SELF_CONTINUED));
  const self = turns(c) > before || bottom.some((l) => l.includes(SELF_CONTINUED));
  ctx.log(`the pane just before reset + margin:\n${bottom.slice(-8).join("\n")}`);
  ctx.log(
    self
      ? "the CLI continued by itself after the reset (detached tmux)"
      : "the CLI did NOT continue by itself before reset + margin (detached tmux)",
  );
  if (self) {
    await c.pane.waitFor(["Resumed after the limit: carrying on with the task.", READY], {
      timeoutMs: 60_000,
    });
  }

  ctx.step("drive --once at reset + margin (real clock): one continuation in all, never two");
  await sleep(Math.max(0, dueAt - Date.now()) + 1000);
  const due = await tick(ctx, c, d);
  const typed = due.events.some((e) => e.event === "resumed");
  if (self && typed) ctx.fail("drover typed the resume text after the CLI went on by itself");
  // The CLI's own continuation can also start in the seconds between the look above and the due
  // tick (seen once in CI): drover, reading that screen, rightly types nothing. Either one went
  // on; the turn count below still holds it to exactly one continuation.
  const lateSelf = !self && !typed && await wentOn();
  if (lateSelf) ctx.log("the CLI continued by itself just before the due tick (detached tmux)");
  if (!self && !typed && !lateSelf) {
    ctx.fail(`the CLI did not go on and drover did not resume: ${names(due.events)}`);
  }
  if (lateSelf) {
    await c.pane.waitFor(["Resumed after the limit: carrying on with the task.", READY], {
      timeoutMs: 60_000,
    });
  }
  if (!self && !lateSelf) await c.api.waitForMainRequests(2, 60_000);
  await sleep(3000);
  const later = await tick(ctx, c, d);
  const end = (await c.pane.capturePlain()).split("\n").filter((l) => l.trim() !== "");
  ctx.log(`the pane after the continuation:\n${end.slice(-12).join("\n")}`);
  // Nothing at all: the CLI's "Usage limit reached · set to continue automatically" line stays in
  // the transcript and is no unavailable CLI any more.
  if (later.events.length > 0) ctx.fail(`later: ${names(later.events)}`);
  await sleep(2000);
  if (turns(c) !== 2) ctx.fail(`${turns(c)} turns, expected 2 (one continuation):\n${turnLog(c)}`);
}

/** The words a version's session-limit banner uses (2.1.332: "5-hour limit"). */
const sessionWords = (version: string) =>
  selfContinues(version) ? "You've hit your 5-hour limit" : "You've hit your session limit";

/** A banner as the version prints it, reset at 3pm UTC: what the quoting scenarios quote. */
const quotedBanner = (version: string) => `${sessionWords(version)} · resets 3pm (UTC)`;

const PROCEED = "Do you want to proceed?";

/**
 * Wait for `done`; a permission prompt on the way (the version asks for this tool) gets "1". The
 * prompt is answered only once it has stopped redrawing, and pressed again (at most twice more)
 * while it stays on screen: under load a key sent as the dialog first draws can be lost.
 */
async function untilApproving(c: ClaudeSession, done: string[]): Promise<void> {
  const all = (p: string) => done.every((d) => p.includes(d));
  await c.pane.waitFor((p) => all(p) || (p.includes(PROCEED) && p.includes("1. Yes")), {
    timeoutMs: 60_000,
    stableMs: 800,
  });
  for (let press = 0; press < 3; press++) {
    const screen = await c.pane.capturePlain();
    if (all(screen)) return;
    if (!screen.includes(PROCEED)) break;
    await c.pane.keys("1");
    try {
      await c.pane.waitFor((p) => all(p) || !p.includes(PROCEED), { timeoutMs: 10_000 });
    } catch {
      // Still asking: the key did not reach the dialog; press again.
    }
  }
  await c.pane.waitFor(done, { timeoutMs: 60_000 });
}

/** Type a first prompt and Enter. */
async function ask(c: ClaudeSession, text: string): Promise<void> {
  await c.pane.type(text);
  await sleep(300);
  await c.pane.keys("Enter");
}

/**
 * Issue 27: screens where a limit banner is only quoted (an answer, a tool's output), or is real
 * but has newer work below it, or is real and met mid-turn after a tool. Each is recorded from the
 * real CLI; the detector must read a limit only where the CLI itself draws one.
 */
const placementScenarios: LabScenario[] = [
  ...([
    [
      "limit-quoted-answer",
      (b: string) =>
        `Here is the line the last run stopped on:\n\n${b}\n\n` +
        "That limit is over: the run went on after it.\nNothing is waiting now.",
      "Nothing is waiting now.",
      "an answer quotes the banner; newer answer lines below it",
    ],
    [
      "limit-quoted-answer-end",
      (b: string) => `The last run stopped on this line:\n\n${b}`,
      "The last run stopped on this line:",
      "an answer ends with a quoted banner, right above the input box",
    ],
    [
      "limit-quoted-list",
      (b: string) => `Two lines stopped the runs:\n\n- Build failed on step 3\n- ${b}`,
      "Two lines stopped the runs:",
      "an answer ends with a list whose last item quotes the banner",
    ],
  ] as const).map(([name, reply, shows, notes]): LabScenario => ({
    name,
    async run(ctx) {
      const banner = quotedBanner(ctx.version);
      await using c = await claudeAt(ctx, {
        auth: "subscription",
        script: [{ kind: "text", text: reply(banner) }],
      });
      ctx.step(`stand-in script: a text reply (${notes})`);
      ctx.step('type "what stopped the last run?", Enter');
      await ask(c, "what stopped the last run?");
      await ctx.screen(c.pane, name, {
        state: "idle",
        defining: [banner, shows, READY],
        expect: { limit: null, cli_unavailable: null },
        notes: `${notes}: quoted, not a limit`,
      });
    },
  })),
  {
    name: "limit-quoted-tool",
    async run(ctx) {
      const banner = quotedBanner(ctx.version);
      await using c = await claudeAt(ctx, {
        auth: "subscription",
        files: { "old-run.log": `${banner}\nrun stopped\n`, "show-log.sh": "cat old-run.log\n" },
        script: [
          {
            kind: "tool_use",
            name: "Bash",
            input: { command: "sh show-log.sh", description: "Show the old log" },
          },
          { kind: "text", text: "That log holds an old limit banner." },
        ],
      });
      ctx.step(
        "project file old-run.log holds a limit banner, show-log.sh cats it; stand-in script: " +
          "Bash `sh show-log.sh` (the banner is its first output line) → a one-line text reply",
      );
      ctx.step('type "show the old log", Enter; a Bash prompt, if any, gets 1');
      await ask(c, "show the old log");
      await untilApproving(c, ["That log holds an old limit banner.", READY]);
      await ctx.screen(c.pane, "limit-quoted-tool", {
        state: "idle",
        defining: [banner, "That log holds an old limit banner.", READY],
        expect: { limit: null, cli_unavailable: null },
        notes: "a tool's output quotes the banner as its first line: not a limit",
      });
    },
  },
  {
    name: "limit-after-tool",
    async run(ctx) {
      await using c = await claudeLimited(ctx, "UTC", true, [
        {
          kind: "tool_use",
          name: "Bash",
          input: { command: "echo build ok", description: "Build" },
        },
        limitError("five_hour", Math.floor(Date.now() / 1000) + 3 * 3600, Infinity),
      ]);
      ctx.step(
        "stand-in script: Bash `echo build ok` → HTTP 429 usage limit (five_hour, resets in 3 h) " +
          "on every later request",
      );
      ctx.step('type "run the build", Enter; the limit meets the turn after the tool');
      await ask(c, "run the build");
      await untilApproving(c, [HIT, MENU]);
      ctx.step("press 1 (close the menu the CLI opens by itself)");
      await c.pane.keys("1");
      await ctx.screen(c.pane, "limit-after-tool", {
        state: "unavailable",
        defining: ["build ok", HIT, READY],
        until: (p) => p.includes(HIT) && p.includes(READY) && !p.includes(MENU),
        expect: { limit: "*", permission_prompt: false },
        notes: "a real limit met mid-turn: its banner right under the tool's output",
      });
    },
  },
  {
    name: "limit-again",
    async run(ctx) {
      const resetS = Math.floor(Date.now() / 1000) + 3 * 3600;
      await using c = await claudeLimited(ctx, "UTC", true, [
        limitError("five_hour", resetS),
        limitError("five_hour", resetS),
      ]);
      ctx.step(
        "stand-in script: HTTP 429 usage limit (five_hour, resets in 3 h) → the same again",
      );
      ctx.step(
        'type "say hello", Enter; press 1 (close the menu); type "continue", Enter (no menu again)',
      );
      await hitLimit(c, [MENU]);
      await c.pane.keys("1");
      await c.pane.waitFor((p) => p.includes(HIT) && p.includes(READY) && !p.includes(MENU), {
        timeoutMs: 30_000,
      });
      await ask(c, "continue");
      await ctx.screen(c.pane, "limit-again", {
        state: "unavailable",
        defining: ["continue", HIT, READY],
        until: (p) => p.split(HIT).length === 3 && p.includes(READY) && !p.includes(MENU),
        expect: { limit: "*", permission_prompt: false },
        notes: "the limit met again by the next turn: the lower banner, below the typed continue",
      });
    },
  },
  {
    name: "limit-then-work",
    async run(ctx) {
      await using c = await claudeLimited(ctx, "UTC", true, [
        limitError("five_hour", Math.floor(Date.now() / 1000) + 3 * 3600),
        {
          kind: "text",
          text: "Carrying on with the task.\n\n1. Read the notes.\n2. Wrote the summary.\n" +
            "3. Checked the links.\n\nAll three steps are done.",
        },
      ]);
      ctx.step(
        "stand-in script: HTTP 429 usage limit (five_hour, resets in 3 h) → a text reply of " +
          "several lines",
      );
      ctx.step('type "say hello", Enter; press 1 (close the menu); type "continue", Enter');
      await hitLimit(c, [MENU]);
      await c.pane.keys("1");
      await c.pane.waitFor((p) => p.includes(HIT) && p.includes(READY) && !p.includes(MENU), {
        timeoutMs: 30_000,
      });
      await ask(c, "continue");
      await ctx.screen(c.pane, "limit-then-work", {
        state: "idle",
        defining: [HIT, "All three steps are done.", READY],
        expect: { limit: null, cli_unavailable: null },
        notes: "a real banner with a newer turn below it (a person typed continue): history",
      });
    },
  },
];

export const suite: LabSuite = {
  name: "limits",
  profile: "claude",
  versions: () => pinnedCliVersions("claude-code"),
  fixtures: {
    cli: "claude-code",
    version: async () => (await resolveCli("claude-code")).version,
  },
  scenarios: [
    ...placementScenarios,
    ...([
      [
        "session-limit-zone",
        "five_hour",
        3 * 3600,
        "America/New_York",
        [HIT, "(America/New_York)"],
        "resets in 3 h",
        "the zone Claude Code runs in (TZ) is printed as its IANA name",
      ],
      [
        "weekly-limit-date",
        "seven_day",
        3 * 86400 + 1800,
        "Asia/Colombo",
        ["You've hit your weekly limit", "(Asia/Colombo)"],
        "resets in 3 days",
        "a reset more than a day ahead is printed with its date (zone east of UTC, +5:30)",
      ],
    ] as const).map(([name, claim, inS, tz, defining, when, notes]): LabScenario => ({
      name,
      async run(ctx) {
        await using c = await claudeLimited(ctx, tz, true, [
          limitError(claim, Math.floor(Date.now() / 1000) + inS, Infinity),
        ]);
        ctx.step(`TZ=${tz}; stand-in: HTTP 429 usage limit (${claim}, ${when}) on every request`);
        ctx.step('type "say hello", Enter; press 1 (close the menu the CLI opens by itself)');
        await hitLimit(c, [MENU]);
        await c.pane.keys("1");
        await ctx.screen(c.pane, name, {
          state: "unavailable",
          defining: [...defining, READY],
          expect: { limit: "*", permission_prompt: false },
          notes,
        });
      },
    })),
    {
      name: "drive-resume-agent",
      sizes: [{ cols: 120, rows: 40 }],
      slow: true,
      timeoutMs: 360_000,
      run: (ctx) => driveThroughLimit(ctx, "agent"),
    },
    {
      name: "drive-resume-orchestrator",
      sizes: [{ cols: 120, rows: 40 }],
      slow: true,
      timeoutMs: 360_000,
      run: (ctx) => driveThroughLimit(ctx, "orchestrator"),
    },
    {
      name: "drive-resume-self",
      since: SELF_CONTINUE_SINCE,
      sizes: [{ cols: 120, rows: 40 }],
      slow: true,
      timeoutMs: 420_000,
      run: (ctx) => driveBesideSelfContinue(ctx),
    },
  ],
};
