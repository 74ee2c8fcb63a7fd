/**
 * Real Codex CLI screens (issue 7 item 2): the pinned `@openai/codex` against the scripted Responses
 * stand-in, driven into each state its profile describes. Recorded under
 * tests/fixtures/codex/<version>/ with `deno task lab --record --only codex`; compared (and judged
 * by detect() with the `codex` profile) otherwise. The stand-in's script decides every reply.
 *
 * The standard scenarios (ready, typed input, busy/interrupted, the command prompt approved through
 * the gate and rejected with Escape, narration, retrying, auth, quota) come from the table
 * `drover verify` runs (lib/scenarios/tables/codex.ts); this suite adds what only the lab records:
 * plan mode, the final retry screens and the folder-trust dialog.
 */
import { type LabScenario, type LabSuite, resolveCli } from "../harness/mod.ts";
import { tableScenarios } from "../harness/tables.ts";
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";
import { CODEX, press, sleep, startOther, submit } from "./others_common.ts";
import { quotedLimitScenarios } from "./quoted_limits.ts";

/** The IANA whole-hour zone (Etc/GMT∓N) whose local hour is 12 at `now`. */
function middayZone(now: Date): string {
  const east = 12 - now.getUTCHours(); // -11 … +12 hours from UTC
  // Etc/ zone names count the other way round: Etc/GMT-5 is five hours east of UTC.
  return east === 0 ? "Etc/GMT" : `Etc/GMT${east > 0 ? "-" : "+"}${Math.abs(east)}`;
}

const READY = "? for shortcuts";

const scenarios: LabScenario[] = [
  ...tableScenarios("codex"),
  // Issue 27: its own banner's words quoted in an answer are no limit.
  ...quotedLimitScenarios(
    CODEX,
    "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 6:08 AM.",
  ),
  {
    name: "mode-plan",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, {
        script: [{ kind: "text", text: "Hello. What should we work on?" }],
      });
      // While the start-up logo animates, shift+tab is swallowed: one turn first settles it.
      await submit(ctx, s, "hello");
      await s.pane.waitFor("What should we work on?", { timeoutMs: 20_000 });
      await sleep(500);
      await press(ctx, s, "BTab");
      await ctx.screen(s.pane, "mode-plan", {
        state: "idle",
        defining: ["Plan mode (shift+tab to cycle)"],
        expect: { mode: "plan" },
      });
    },
  },
  {
    name: "server-error",
    slow: true,
    async run(ctx) {
      const err: Step = { kind: "error", status: 500, error: "server", times: 1000 };
      await using s = await startOther(ctx, CODEX, { script: [err] });
      await submit(ctx, s, "summarise the notes");
      ctx.step("the stand-in answers every request with HTTP 500");
      // The retrying screen is the table's (retrying); the final one only the lab records.
      await ctx.screen(s.pane, "server-error-final", {
        state: "idle",
        defining: ["■ We’re currently experiencing high demand", READY],
        until: (p) => p.includes("■ We’re currently") && !p.includes("esc to interrupt"),
        timeoutMs: 120_000,
      });
    },
  },
  {
    name: "rate-limit",
    slow: true,
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, {
        script: [{ kind: "error", status: 429, error: "rate_limit", times: 1000 }],
      });
      await submit(ctx, s, "summarise the notes");
      ctx.step(
        "the stand-in answers every request with HTTP 429 rate_limit_exceeded (retry-after 1)",
      );
      await ctx.screen(s.pane, "rate-limit-final", {
        state: "idle",
        defining: ["exceeded retry limit, last status: 429", READY],
        timeoutMs: 120_000,
      });
    },
  },
  // The usage limit (issue 12): a 429 whose body is `usage_limit_reached` with `resets_at`, the
  // shape the CLI turns into "You've hit your usage limit. … try again at <when>." Codex prints the
  // reset in its local time: the time alone on the same day, with the date ("Dec 4th, 2026 6:37 PM")
  // on another. It runs in a whole-hour zone where it is mid-day now ({@link middayZone}), so a reset
  // 90 minutes ahead is on the same date whatever the hour the lab runs at.
  ...([
    ["usage-limit", 90 * 60, "the same day: the time alone"],
    ["usage-limit-date", 3 * 24 * 3600, "three days ahead: the date and the time"],
  ] as const).map(([name, inS, note]): LabScenario => ({
    name,
    async run(ctx) {
      const resetsAt = Math.floor(Date.now() / 1000) + inS;
      const limit: Step = {
        kind: "error",
        status: 429,
        error: "rate_limit",
        times: 1000,
        body: {
          error: {
            type: "usage_limit_reached",
            message: "The usage limit has been reached",
            plan_type: "plus",
            resets_at: resetsAt,
          },
        },
      };
      const tz = middayZone(new Date());
      await using s = await startOther(ctx, CODEX, { script: [limit], env: { TZ: tz } });
      ctx.step(`TZ=${tz}: mid-day there now`);
      await submit(ctx, s, "summarise the notes");
      ctx.step(
        `the stand-in answers every request with HTTP 429 {"error":{"type":"usage_limit_reached",` +
          `"plan_type":"plus","resets_at":<now + ${inS}s>}}`,
      );
      await ctx.screen(s.pane, name, {
        state: "unavailable",
        defining: ["hit your usage limit", READY],
        until: (p) => p.includes("hit your usage limit") && !p.includes("esc to interrupt"),
        timeoutMs: 90_000,
        notes: `resets_at ${note}; TZ a whole-hour zone where it is mid-day at the run`,
      });
    },
  })),
  {
    name: "trust-dialog",
    async run(ctx) {
      await using s = await startOther(ctx, CODEX, { firstRun: { trust: true } });
      await ctx.screen(s.pane, "trust-dialog", {
        state: "dialog",
        defining: ["Trust this folder?", "1. Trust and continue", "enter continue"],
        timeoutMs: 60_000,
        expect: { permission_prompt: false },
      });
    },
  },
];

export const suite: LabSuite = {
  name: "codex",
  profile: "codex",
  fixtures: {
    cli: "codex",
    version: async () => (await resolveCli("codex")).version,
    setup: CODEX.setup,
  },
  scenarios,
};
