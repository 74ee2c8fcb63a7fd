/**
 * Qwen Code's scenario table (see ../types.ts), against the Chat Completions stand-in through
 * OPENAI_BASE_URL. Verified against 0.15.10 and 0.24.4 (0.24.4 asks the model for a follow-up
 * suggestion after each finished turn, with every tool attached, and runs a background memory
 * extraction agent with six tools: the stand-in answers both as side requests, so neither takes the
 * next scenario's scripted reply).
 */
import type { ScenarioTable } from "../types.ts";
import * as shape from "./shapes.ts";

const RUN = shape.VERIFY_MARKER;
const PLACEHOLDER = "Type your message";
const WAITING = "Waiting for user confirmation";
const NOTES = "# Notes\nhello\n";
const BUSY_LINE = "esc to cancel";
/** The rules above and below the input box span the pane: 80 of them match at any lab size. */
const INPUT_FRAME = "─".repeat(80);

const shell = shape.shellTool("run_shell_command");

const NARRATION = shape.quotingReply(
  "Here is how the confirmation reads when I need to run something:",
  [
    `"Allow execution of: 'touch'?"`,
    "1. Yes, allow once",
    "2. Always allow run 'touch *' commands in this project",
  ],
  "Below it you see Waiting for user confirmation..., and while I work the status line ends with esc to cancel.",
  "Nothing is waiting for you now.",
);

export const QWEN: ScenarioTable = {
  cli: "qwen",
  lab: "qwen",
  api: "chat",
  home: "qwen",
  args: [],
  // Keys typed while it still says "Initializing..." land raw in the input line.
  ready: { hides: ["Initializing"], stableMs: 1500 },
  readyTimeoutMs: 90_000,
  sessions: [
    shape.main([
      // The footer differs by version ("? for shortcuts"; 0.24.4 names its mode): the input box does not.
      ...shape.inputBox([PLACEHOLDER], RUN.typed),
      shape.markerPrompt(shell, RUN, {
        // The tool call shows (busy) well before the prompt: wait for the busy line to go.
        until: { requests: 1, shows: [RUN.command], hides: [BUSY_LINE], stableMs: 1200 },
        defining: ["Allow execution of: 'touch'?", WAITING],
        // Its shell-permission check can take a long while under load.
        timeoutMs: 90_000,
      }),
      shape.approve("1", { timeoutMs: 60_000 }),
      shape.markerRan(RUN, { timeoutMs: 60_000 }),
      shape.toolPrompt("file-prompt", {
        fixture: "file-write-prompt",
        script: [shape.tool("write_file", { file_path: "{project}/notes.md", content: NOTES })],
        submit: "write the notes file",
        until: {
          requests: 1,
          shows: ["notes.md", "# Notes"],
          hides: [BUSY_LINE],
          stableMs: 1200,
        },
        defining: ["Apply this change?"],
        timeoutMs: 90_000,
        verdicts: { permission_prompt: true },
      }),
      shape.escapeRejected({
        fixture: "file-write-rejected",
        until: { hides: [WAITING], stableMs: 1500 },
        defining: [PLACEHOLDER],
        timeoutMs: 60_000,
      }),
      shape.narration(NARRATION),
      shape.busy({
        // The held request and the busy line's "(… · esc to cancel)" (the narration above quotes
        // the words without the bracket), so interrupted's Escape always meets a held request.
        until: { requests: 1, shows: ["esc to cancel)"], settleMs: 1500 },
        defining: [BUSY_LINE],
      }),
      shape.interrupted({
        // 0.24.4 also shows "Press Esc again to clear." in place of its mode line for a while:
        // the screen is the one after it (the drift check once caught the hint half the time).
        until: { hides: ["esc to cancel)", "Press Esc again"], stableMs: 1500 },
        // 0.15.10 notes "Request cancelled."; 0.24.4 does that or, by timing, puts the unanswered
        // request back into the input box (no placeholder then). Both show the input box's frame.
        defining: [INPUT_FRAME],
      }),
    ]),
    shape.retrySession({
      script: shape.failing(429, "rate_limit"),
      // It retries quietly (busy); the third request proves it is retrying.
      until: { requests: 3, settleMs: 500 },
      defining: [BUSY_LINE],
      verdicts: { mid_response: true },
    }),
    shape.authSession({
      until: shape.ended(BUSY_LINE),
      defining: ["[API Error: 401"],
    }),
    shape.quotaSession({
      fixture: "retries-exhausted",
      until: {
        shows: ["Possible quota limitations in place"],
        hides: [BUSY_LINE],
        stableMs: 2000,
      },
      defining: ["[API Error: 429"],
      timeoutMs: 120_000,
      verdicts: { mid_response: false, permission_prompt: false },
    }, {
      // Left to itself it retries a 429 for about ten minutes (a line per attempt); one retry,
      // a second apart, brings the screen it ends on within verify's time.
      settings: {
        model: {
          generationConfig: { maxRetries: 1, retryInitialDelayMs: 1000, retryMaxDelayMs: 2000 },
        },
      },
      since: {
        version: "0.24.4",
        why: "this Qwen Code retries HTTP 429 insufficient_quota quietly for minutes and takes " +
          "no retry count (model.generationConfig), so no out-of-quota screen shows within " +
          "verify's time",
      },
    }),
  ],
  skipped: {},
};
