/**
 * Issue 21, part B: the real Claude Code (every pinned version) when it cannot serve in ways the
 * recorded banners do not show, and a status line that only looks like it. The screens go to the
 * field corpus (tests/fixtures/field/claude-code/<version>/unavailable/, judged by its own
 * expected.json), not to the fixture folders: this suite records nothing itself — run it with
 * `--out DIR` and copy the captures over; in check mode it holds detect() to each screen's state.
 *
 * - `auth-login-banner`: HTTP 401 authentication_error whose message does not name the API key
 *   (an expired OAuth token): the CLI draws "● Please run /login · API Error: 401 {…}" as the last
 *   block above its input box.
 * - `statusline-limit`: a status-line command that prints "⚠ Limit reached (resets 8m)" under the
 *   input box (the profile's status_limit_pattern names that shape as the CLI's own).
 * - `statusline-words`: a status line full of the words a CLI's state uses ("API Error", "rate
 *   limit", "Usage limit reached", `$`, `%`, `✓`): decoration, the pane is idle.
 */
import {
  type AnthropicStep,
  type LabScenario,
  type LabSuite,
  pinnedCliVersions,
  type ScenarioContext,
} from "../harness/mod.ts";
import { claudeAt } from "./drive_claude.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The wording of an expired claude.ai login (no "x-api-key" in it, so no "Invalid API key"). */
const EXPIRED =
  "OAuth token has expired. Please obtain a new token or refresh your existing token.";
const LIMIT_LINE = "⚠ Limit reached (resets 8m)";
/** Every word of a CLI's state, in a user's status line: none of them is the CLI's. */
const WORDS_LINE = "main ✓ | 84% | API Error 0 | rate limit ok | Usage limit reached? no | $0.42 $";
const READY = "? for shortcuts";

async function submit(
  ctx: ScenarioContext,
  pane: { type(t: string): Promise<void>; keys(...k: string[]): Promise<void> },
  text: string,
) {
  ctx.step(`type ${JSON.stringify(text)}, Enter`);
  await pane.type(text);
  await sleep(300);
  await pane.keys("Enter");
}

const statusLine = (line: string) => ({
  statusLine: { type: "command", command: `printf '%s' '${line}'` },
});

const ANSWER: AnthropicStep = { kind: "text", text: "Hello from the lab." };

const scenarios: LabScenario[] = [
  {
    name: "auth-login-banner",
    async run(ctx) {
      const script: AnthropicStep[] = [{
        kind: "error",
        status: 401,
        message: EXPIRED,
        times: Infinity,
      }];
      ctx.step(`stand-in script: HTTP 401 authentication_error "${EXPIRED}" on every request`);
      await using c = await claudeAt(ctx, { env: { CLAUDE_CODE_MAX_RETRIES: "2" }, script });
      await submit(ctx, c.pane, "say hello");
      await ctx.screen(c.pane, "auth-login-banner", {
        state: "unavailable",
        defining: ["Please run /login", "API Error: 401", READY],
        timeoutMs: 60_000,
        stableMs: 2000,
        expect: { cli_unavailable: "*" },
      });
    },
  },
  {
    name: "statusline-limit",
    async run(ctx) {
      ctx.step(`HOME/.claude/settings.json: statusLine prints "${LIMIT_LINE}"`);
      await using c = await claudeAt(ctx, {
        settings: statusLine(LIMIT_LINE),
        waitFor: "Limit reached (resets 8m)",
        script: [ANSWER],
      });
      await ctx.screen(c.pane, "statusline-limit", {
        state: "unavailable",
        defining: ["Limit reached (resets 8m)"],
        expect: { limit: LIMIT_LINE },
      });
    },
  },
  {
    name: "statusline-words",
    async run(ctx) {
      ctx.step(`HOME/.claude/settings.json: statusLine prints "${WORDS_LINE}"`);
      await using c = await claudeAt(ctx, {
        settings: statusLine(WORDS_LINE),
        waitFor: "rate limit ok",
        script: [ANSWER],
      });
      await submit(ctx, c.pane, "say hello");
      await ctx.screen(c.pane, "statusline-words", {
        state: "idle",
        defining: ["Hello from the lab.", "rate limit ok"],
        expect: { cli_unavailable: null, stream_error: null, limit: null },
      });
    },
  },
];

export const suite: LabSuite = {
  name: "claude-field-unavailable",
  profile: "claude",
  versions: () => pinnedCliVersions("claude-code"),
  sizes: [{ cols: 80, rows: 24 }, { cols: 120, rows: 40 }],
  scenarios,
};
