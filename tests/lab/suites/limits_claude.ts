/**
 * Usage limits with the real Claude Code (issue 12). The stand-in answers a turn with the
 * subscription usage-limit rejection (HTTP 429 + unified rate-limit headers), which Claude Code
 * turns into "You've hit your session limit · resets <time> (<zone>)" and its own "What do you want
 * to do?" menu.
 *
 * - `session-limit-zone`, `weekly-limit-date`: recorded screens of the wordings the profile reads —
 *   the zone Claude Code runs in printed as an IANA name (TZ set), and a reset days ahead printed
 *   with its date.
 * - `drive-resume-agent`, `drive-resume-orchestrator`: `drover drive --once --resume continue`, tick
 *   by tick in real time like cron, through a real limit that resets a minute later: one `limit`
 *   event; nothing typed before the reset + margin; the menu still open at that point is escalated
 *   and never answered; once a person has closed it, "continue" is typed once and reaches the API;
 *   a limit that comes back (the API refuses again) waits twice the margin and is resumed once
 *   more. The orchestrator's runs exit 75 while it waits and 0 once resumed.
 */
import type { DroverRun } from "../../helpers/drover.ts";
import { driveOnce } from "./drive_claude.ts";
import {
  type ClaudeSession,
  type LabScenario,
  type LabSuite,
  resolveCli,
  type ScenarioContext,
  startClaude,
} from "../harness/mod.ts";
import { orchestratorBeside, sleep } from "./others_common.ts";
import {
  type AnthropicStep,
  usageLimitHeaders,
} from "../../../lib/scenarios/standins/anthropic.ts";

const READY = "? for shortcuts";
const MENU = "What do you want to do?";

// deno-lint-ignore no-explicit-any
type Loose = any;

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

/** `drover drive --once --json --resume continue --resume-margin 65s` on the lab server. */
async function tick(
  ctx: ScenarioContext,
  c: ClaudeSession,
  state: string,
  args: string[],
): Promise<{ run: DroverRun; events: Loose[]; result: Loose }> {
  const r = await driveOnce(ctx, c, state, [
    "--resume",
    "continue",
    "--resume-margin",
    "65s",
    ...args,
  ]);
  const events = r.events.filter((e) => e.event !== "drive-started" && e.event !== "drive-stopped");
  ctx.log(
    `drive: exit ${r.run.code}: ${
      events.map((e) => `${e.event}${e.reason ? `/${e.reason}` : ""}`).join(", ") || "-"
    }`,
  );
  return { ...r, events };
}

/** The turns the API got (a function: each read is fresh). */
const turns = (c: ClaudeSession): number => c.api.mainRequests.length;

const names = (events: Loose[]) =>
  events.map((e) => e.event === "escalated" ? `escalated:${e.reason}` : e.event).join(", ");

/** Tick every 15 s (like a fast cron) until `until` (epoch ms); each tick must send nothing. */
async function waitQuietly(
  ctx: ScenarioContext,
  c: ClaudeSession,
  state: string,
  args: string[],
  until: number,
  expectCode: number,
): Promise<void> {
  const before = turns(c);
  while (Date.now() < until) {
    await sleep(Math.min(15_000, Math.max(0, until - Date.now())));
    if (Date.now() >= until) break;
    const t = await tick(ctx, c, state, args);
    if (t.run.code !== expectCode) ctx.fail(`waiting: exit ${t.run.code}: ${t.run.stderr}`);
    if (t.events.length > 0) ctx.fail(`waiting: drive reported ${names(t.events)}`);
  }
  if (turns(c) !== before) ctx.fail("drive typed something before the reset");
}

async function driveThroughLimit(ctx: ScenarioContext, role: "agent" | "orchestrator") {
  // The limit resets 75 s from now; Claude Code prints the minute ("5:12am"), cut down, so the
  // margin (65 s) is what puts the resume after the real reset.
  const resetS = Math.floor(Date.now() / 1000) + 75;
  await using c = await startClaude(ctx.lab, {
    cols: ctx.size.cols,
    rows: ctx.size.rows,
    auth: "subscription",
    env: { TZ: "America/New_York" },
    script: [
      limitError("five_hour", resetS),
      // the first resume meets the limit again (the same reset, already past)
      limitError("five_hour", resetS),
      { kind: "text", text: "Resumed after the limit: carrying on with the task." },
    ],
  });
  ctx.step(
    "stand-in script: HTTP 429 usage limit (five_hour, resets in 75 s) → the same again → a text " +
      "reply; Claude Code runs with TZ=America/New_York, drover with the lab's zone (UTC)",
  );
  const args = role === "agent" ? ["--orchestrator", await orchestratorBeside(ctx, c)] : [];
  const state = await ctx.lab.tmpDir("drive-state");
  const ok = role === "agent" ? 0 : 75;

  ctx.step('type "say hello", Enter: the limit, and the CLI opens its menu by itself');
  await c.pane.type("say hello");
  await sleep(300);
  await c.pane.keys("Enter");
  await c.pane.waitFor(["You've hit your session limit", "(America/New_York)", MENU], {
    timeoutMs: 60_000,
  });

  ctx.step("drive --once: one limit event, nothing typed");
  const first = await tick(ctx, c, state, args);
  if (first.run.code !== ok) ctx.fail(`first tick: exit ${first.run.code}: ${first.run.stderr}`);
  const limit = first.events.find((e) => e.event === "limit");
  if (!limit || first.events.length !== 1) ctx.fail(`first tick: ${names(first.events)}`);
  if (role === "orchestrator" && first.result?.data?.outcome !== "orchestrator-limit") {
    ctx.fail(`first tick: ${JSON.stringify(first.result)}`);
  }
  const resetsAt = Date.parse(limit.resets_at);
  const dueAt = Date.parse(limit.detail.due_at);
  const printedMinute = Math.floor(resetS / 60) * 60_000;
  if (resetsAt !== printedMinute) {
    ctx.fail(
      `resets_at ${limit.resets_at}: expected the printed minute ${
        new Date(printedMinute).toISOString()
      }`,
    );
  }
  if (dueAt !== resetsAt + 65_000) ctx.fail(`due_at ${limit.detail.due_at}`);
  if (turns(c) !== 1) ctx.fail("the first tick typed something");

  ctx.step("drive --once every 15 s until reset + margin: nothing reported, nothing typed");
  await waitQuietly(ctx, c, state, args, dueAt, ok);

  ctx.step("drive --once at the due time: the menu is still open → escalated, never answered");
  await sleep(Math.max(0, dueAt - Date.now()) + 1000);
  const due = await tick(ctx, c, state, args);
  if (!due.events.some((e) => e.event === "escalated" && e.reason === "limit-menu")) {
    ctx.fail(`due tick: ${names(due.events)}`);
  }
  await sleep(1500);
  if (turns(c) !== 1) ctx.fail("drive answered the limit menu");
  if (!(await c.pane.capturePlain()).includes(MENU)) ctx.fail("the menu is gone: a key reached it");

  ctx.step('a person closes the menu: press 1 ("Stop and wait for limit to reset")');
  await c.pane.keys("1");
  await c.pane.waitFor(["You've hit your session limit", READY], { timeoutMs: 30_000 });

  ctx.step("drive --once: the resume, typed once; the API gets it (and refuses again)");
  const resumed = await tick(ctx, c, state, args);
  if (resumed.run.code !== 0) ctx.fail(`resume tick: exit ${resumed.run.code}`);
  if (!resumed.events.some((e) => e.event === "resumed")) {
    ctx.fail(`resume tick: ${names(resumed.events)}`);
  }
  await c.api.waitForMainRequests(2, 60_000);
  if (!JSON.stringify(c.api.mainRequests[1].body ?? {}).includes("continue")) {
    ctx.fail("the second turn does not carry the resume text");
  }
  await sleep(3000);

  ctx.step("drive --once: the limit came back → a limit event (comeback), waiting 2 × margin");
  const back = await tick(ctx, c, state, args);
  const comeback = back.events.find((e) => e.event === "limit");
  if (!comeback?.detail?.comeback) ctx.fail(`comeback tick: ${names(back.events)}`);
  const dueAgain = Date.parse(comeback.detail.due_at);
  const wait = dueAgain - Date.parse(comeback.ts);
  if (wait < 129_000 || wait > 131_000) ctx.fail(`backed off ${wait} ms, expected 130 s`);
  await waitQuietly(ctx, c, state, args, dueAgain, ok);
  if (turns(c) !== 2) {
    ctx.fail("typed again before the backed-off time");
  }

  ctx.step("drive --once after it: resumed once more; the API answers");
  await sleep(Math.max(0, dueAgain - Date.now()) + 1000);
  const again = await tick(ctx, c, state, args);
  if (!again.events.some((e) => e.event === "resumed")) ctx.fail(`again: ${names(again.events)}`);
  await c.api.waitForMainRequests(3, 60_000);
  await c.pane.waitFor(["Resumed after the limit: carrying on with the task.", READY], {
    timeoutMs: 60_000,
  });

  ctx.step("drive --once: nothing more (the old banners are transcript now)");
  const after = await tick(ctx, c, state, args);
  if (after.run.code !== 0) ctx.fail(`after: exit ${after.run.code}`);
  if (after.events.some((e) => e.event === "resumed" || e.event === "limit")) {
    ctx.fail(`after: ${names(after.events)}`);
  }
  await sleep(2000);
  if (turns(c) !== 3) ctx.fail(`${turns(c)} turns, expected 3`);
}

export const suite: LabSuite = {
  name: "limits",
  profile: "claude",
  fixtures: {
    cli: "claude-code",
    version: async () => (await resolveCli("claude-code")).version,
  },
  scenarios: [
    ...([
      [
        "session-limit-zone",
        "five_hour",
        3 * 3600,
        "America/New_York",
        ["You've hit your session limit", "(America/New_York)"],
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
        await using c = await startClaude(ctx.lab, {
          cols: ctx.size.cols,
          rows: ctx.size.rows,
          auth: "subscription",
          env: { TZ: tz },
          script: [limitError(claim, Math.floor(Date.now() / 1000) + inS, Infinity)],
        });
        ctx.step(
          `start claude with TZ=${tz}; stand-in: HTTP 429 usage limit (${claim}, ${when}) on every request`,
        );
        ctx.step('type "say hello", Enter; press 1 (close the menu the CLI opens by itself)');
        await c.pane.type("say hello");
        await sleep(300);
        await c.pane.keys("Enter");
        await c.pane.waitFor(MENU, { timeoutMs: 60_000 });
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
      timeoutMs: 480_000,
      run: (ctx) => driveThroughLimit(ctx, "agent"),
    },
    {
      name: "drive-resume-orchestrator",
      sizes: [{ cols: 120, rows: 40 }],
      slow: true,
      timeoutMs: 480_000,
      run: (ctx) => driveThroughLimit(ctx, "orchestrator"),
    },
  ],
};
