/**
 * Usage limits with the real Codex CLI and Gemini CLI (issue 12), driven by `drover drive --once
 * --resume continue` tick by tick like cron: one `limit` event, nothing typed before the reset +
 * margin, then "continue" typed once; it reaches the API, which answers, and later ticks stay
 * quiet. drover's clock past the real one is the test clock (the hidden `--now`).
 *
 * - Codex: the Responses stand-in answers the first turn with HTTP 429 `usage_limit_reached`,
 *   `resets_at` about a minute ahead: "■ You've hit your usage limit. … try again at 6:12 AM." (no
 *   zone: drover reads it in its own, the lab's UTC). Real time up to the real reset.
 * - Gemini CLI: HTTP 429 RESOURCE_EXHAUSTED with RetryInfo 310 s (over 300 s, so terminal): its
 *   "Usage limit reached … Access resets at …" dialog ("Keep trying / Stop") is escalated at the due
 *   tick and never answered; a person picks Stop; the transcript's "Suggested retry after 310s" is
 *   then a limit of its own (counted from that sighting), and the resume follows when it is due,
 *   on the test clock (no real wait).
 */
import { driveOnce } from "./drive_claude.ts";
import type { LabSuite, ScenarioContext } from "../harness/mod.ts";
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";
import {
  CODEX,
  GEMINI,
  mainTurns,
  orchestratorBeside,
  type OtherSession,
  sleep,
  startOther,
  submit,
} from "./others_common.ts";

const READY = "? for shortcuts";
const BANNER = "hit your usage limit";
const GEMINI_READY = "Type your message";
const REPLY = "Resumed after the limit: carrying on with the task.";
const MARGIN_MS = 90_000;

// deno-lint-ignore no-explicit-any
type Loose = any;

async function tick(ctx: ScenarioContext, s: OtherSession, state: string, args: string[], at = 0) {
  const now = new Date(Math.max(Date.now(), at)).toISOString();
  const r = await driveOnce(ctx, s, state, [
    "--resume",
    "continue",
    "--resume-margin",
    `${MARGIN_MS / 1000}s`,
    "--now",
    now,
    ...args,
  ]);
  const events: Loose[] = r.events.filter((e) =>
    e.event !== "drive-started" && e.event !== "drive-stopped"
  );
  ctx.log(
    `drive @${now}: exit ${r.run.code}: ${
      events.map((e) => `${e.event}${e.reason ? `/${e.reason}` : ""}`).join(", ") || "-"
    }`,
  );
  if (r.run.code !== 0) ctx.fail(`drive exit ${r.run.code}: ${r.run.stderr}`);
  return events;
}

const names = (events: Loose[]) =>
  events.map((e) => e.event === "escalated" ? `escalated:${e.reason}` : e.event).join(", ") || "-";

async function driveThroughCodexLimit(ctx: ScenarioContext) {
  const resetS = Math.floor(Date.now() / 1000) + 70;
  const limit: Step = {
    kind: "error",
    status: 429,
    error: "rate_limit",
    times: 1,
    body: {
      error: {
        type: "usage_limit_reached",
        message: "The usage limit has been reached",
        plan_type: "plus",
        resets_at: resetS,
      },
    },
  };
  await using s = await startOther(ctx, CODEX, {
    script: [limit, { kind: "text", text: REPLY }],
  });
  const args = ["--orchestrator", await orchestratorBeside(ctx, s)];
  const state = await ctx.lab.tmpDir("drive-state");
  await submit(ctx, s, "summarise the notes");
  await s.pane.waitFor((p) => p.includes(BANNER) && !p.includes("esc to interrupt"), {
    timeoutMs: 90_000,
    what: "the usage-limit banner, not busy",
  });
  const turns = () => s.api.mainRequests().length;
  const seen = turns();

  ctx.step("drive --once: one limit event at the printed minute, nothing typed");
  const first = await tick(ctx, s, state, args);
  const ev = first.find((e) => e.event === "limit");
  if (!ev || first.length !== 1) ctx.fail(`first tick: ${names(first)}`);
  const printedMinute = Math.floor(resetS / 60) * 60_000;
  if (Date.parse(ev.resets_at) !== printedMinute) {
    ctx.fail(`resets_at ${ev.resets_at}, expected ${new Date(printedMinute).toISOString()}`);
  }
  const dueAt = Date.parse(ev.detail.due_at);
  if (dueAt !== printedMinute + MARGIN_MS) ctx.fail(`due_at ${ev.detail.due_at}`);

  ctx.step("drive --once every 20 s (real clock) until the real reset: nothing reported or typed");
  while (Date.now() < resetS * 1000 + 2000) {
    await sleep(Math.min(20_000, Math.max(0, resetS * 1000 + 2000 - Date.now())));
    const quiet = await tick(ctx, s, state, args);
    if (quiet.length > 0) ctx.fail(`waiting: ${names(quiet)}`);
  }
  ctx.step("drive --once 10 s before reset + margin (test clock): still nothing");
  const before = await tick(ctx, s, state, args, dueAt - 10_000);
  if (before.length > 0) ctx.fail(`before due: ${names(before)}`);
  await sleep(1000);
  if (turns() !== seen) ctx.fail("drive typed something before reset + margin");

  ctx.step("drive --once after reset + margin: the resume, typed once; the API answers");
  await expectOneResume(ctx, s, state, args, dueAt, seen, READY);
}

async function driveThroughGeminiLimit(ctx: ScenarioContext) {
  const limit: Step = {
    kind: "error",
    status: 429,
    error: "rate_limit",
    times: 1,
    body: {
      error: {
        code: 429,
        message: "Resource has been exhausted (e.g. check quota).",
        status: "RESOURCE_EXHAUSTED",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "310s" }],
      },
    },
  };
  await using s = await startOther(ctx, GEMINI, {
    script: [limit, { kind: "text", text: REPLY }],
  });
  const args = ["--orchestrator", await orchestratorBeside(ctx, s)];
  const state = await ctx.lab.tmpDir("drive-state");
  await submit(ctx, s, "summarise the notes");
  await s.pane.waitFor(["Usage limit reached", "Access resets at"], { timeoutMs: 60_000 });
  const turns = () => s.api.mainRequests().length;
  const seen = turns();

  ctx.step("drive --once: one limit event (the dialog's reset), nothing typed");
  const first = await tick(ctx, s, state, args);
  const ev = first.find((e) => e.event === "limit");
  if (!ev || first.length !== 1) ctx.fail(`first tick: ${names(first)}`);
  const dueAt = Date.parse(ev.detail.due_at);
  if (dueAt !== Date.parse(ev.resets_at) + MARGIN_MS) ctx.fail(`due_at ${ev.detail.due_at}`);

  ctx.step("drive --once at the due time (test clock): the dialog is open → escalated, unanswered");
  const due = await tick(ctx, s, state, args, dueAt + 1000);
  if (!due.some((e) => e.event === "escalated" && e.reason === "limit-menu")) {
    ctx.fail(`due tick: ${names(due)}`);
  }
  await sleep(1500);
  if (turns() !== seen) ctx.fail("drive answered the limit dialog");
  if (!(await s.pane.capturePlain()).includes("Access resets at")) {
    ctx.fail("the dialog is gone: a key reached it");
  }

  ctx.step('a person picks "Stop" (2)');
  await s.pane.keys("2");
  await s.pane.waitFor(["Suggested retry after", GEMINI_READY], { timeoutMs: 30_000 });

  // The transcript's "Suggested retry after 310s" is other words than the dialog's: read as a limit
  // of its own, its relative time counted from this sighting (later than the truth, never earlier).
  ctx.step("drive --once: the transcript's wording is a limit of its own, nothing typed");
  const stopped = await tick(ctx, s, state, args, dueAt + 2000);
  const again = stopped.find((e) => e.event === "limit");
  if (!again || stopped.length !== 1) ctx.fail(`after Stop: ${names(stopped)}`);
  const dueAgain = Date.parse(again.detail.due_at);
  if (dueAgain < dueAt) ctx.fail(`due ${again.detail.due_at}: earlier than the dialog's`);
  const quiet = await tick(ctx, s, state, args, dueAgain - 10_000);
  if (quiet.length > 0) ctx.fail(`before its due time: ${names(quiet)}`);
  await sleep(1000);
  if (turns() !== seen) ctx.fail("drive typed something before the reset + margin");

  ctx.step("drive --once after it: the resume, typed once; the API answers");
  await expectOneResume(ctx, s, state, args, dueAgain, seen, GEMINI_READY);
}

/** The tick after `dueAt` resumes, the API gets exactly one turn carrying the resume text, and a
 * later tick does nothing more. */
async function expectOneResume(
  ctx: ScenarioContext,
  s: OtherSession,
  state: string,
  args: string[],
  dueAt: number,
  seen: number,
  ready: string,
) {
  const turns = () => s.api.mainRequests().length;
  const due = await tick(ctx, s, state, args, dueAt + 1000);
  if (!due.some((e) => e.event === "resumed")) ctx.fail(`due tick: ${names(due)}`);
  await mainTurns(s, seen + 1, 60_000);
  if (!JSON.stringify(s.api.mainRequests()[seen].body ?? {}).includes("continue")) {
    ctx.fail("the turn after the limit does not carry the resume text");
  }
  await s.pane.waitFor([REPLY, ready], { timeoutMs: 60_000 });

  ctx.step("drive --once later: nothing more");
  const later = await tick(ctx, s, state, args, dueAt + 10_000);
  if (later.length > 0) ctx.fail(`later: ${names(later)}`);
  await sleep(2000);
  if (turns() !== seen + 1) ctx.fail(`${turns()} turns, expected ${seen + 1}`);
}

export const suite: LabSuite = {
  name: "limits-others",
  sizes: [{ cols: 120, rows: 40 }],
  scenarios: [
    { name: "codex-drive-resume", slow: true, timeoutMs: 300_000, run: driveThroughCodexLimit },
    { name: "gemini-drive-resume", timeoutMs: 240_000, run: driveThroughGeminiLimit },
  ],
};
