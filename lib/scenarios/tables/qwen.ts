/**
 * Qwen Code's scenario table (see ../types.ts), against the Chat Completions stand-in through
 * OPENAI_BASE_URL. Verified against 0.15.10 and 0.24.4 (0.24.4 asks the model for a follow-up
 * suggestion after each finished turn, with every tool attached, and runs a background memory
 * extraction agent with six tools: the stand-in answers both as side requests, so neither takes the
 * next scenario's scripted reply).
 */
import type { Step } from "../standins/step_script.ts";
import type { ScenarioTable } from "../types.ts";
import { narrationScenario } from "./narration.ts";

const MARKER = "verify_marker.txt";
const TYPED = "create the marker file";
/** The rules above and below the input box span the pane: 80 of them match at any lab size. */
const INPUT_FRAME = "─".repeat(80);

const shell = (command: string, description: string): Step => ({
  kind: "tool",
  name: "run_shell_command",
  args: { command, description },
});

const NARRATION = [
  "Here is how the confirmation reads when I need to run something:",
  "",
  `"Allow execution of: 'touch'?"`,
  "1. Yes, allow once",
  "2. Always allow run 'touch *' commands in this project",
  "",
  "Below it you see Waiting for user confirmation..., and while I work the status line ends with esc to cancel.",
  "Nothing is waiting for you now.",
].join("\n");

export const QWEN: ScenarioTable = {
  cli: "qwen",
  lab: "qwen",
  api: "chat",
  home: "qwen",
  args: [],
  // Keys typed while it still says "Initializing..." land raw in the input line.
  ready: { hides: ["Initializing"], stableMs: 1500 },
  readyTimeoutMs: 90_000,
  skipped: {},
  sessions: [
    {
      name: "main",
      scenarios: [
        {
          name: "ready",
          until: { stableMs: 800 },
          // The footer differs by version ("? for shortcuts"; 0.24.4 names its mode): the input box does not.
          defining: ["Type your message"],
          expect: { state: "idle", verdicts: { input_box: null } },
        },
        {
          name: "typed-input",
          steps: [{ type: TYPED }],
          until: { shows: [TYPED], stableMs: 600 },
          expect: { state: "idle", verdicts: { input_box: TYPED } },
        },
        {
          name: "bash-prompt",
          fixture: "shell-prompt",
          script: [
            shell(`touch ${MARKER}`, "Create the marker file"),
            { kind: "text", text: "The marker file is in place." },
          ],
          steps: [{ pause: 700 }, { keys: ["Enter"] }],
          // The tool call shows (busy) well before the prompt: wait for the busy line to go.
          until: {
            requests: 1,
            shows: [`touch ${MARKER}`],
            hides: ["esc to cancel"],
            stableMs: 1200,
          },
          defining: ["Allow execution of: 'touch'?", "Waiting for user confirmation"],
          // Its shell-permission check can take a long while under load.
          timeoutMs: 90_000,
          expect: {
            state: "prompt",
            verdicts: { command: `touch ${MARKER}`, permission_prompt: true },
          },
        },
        {
          name: "approve",
          steps: [{ approve: true }],
          until: { requests: 1 },
          timeoutMs: 60_000,
          expect: { approve: { outcome: "approved", key: "1" } },
        },
        {
          name: "bash-output",
          fixture: "shell-approved",
          until: { file: MARKER, shows: ["The marker file is in place."], stableMs: 800 },
          timeoutMs: 60_000,
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        {
          name: "file-prompt",
          fixture: "file-write-prompt",
          script: [{
            kind: "tool",
            name: "write_file",
            args: { file_path: "{project}/notes.md", content: "# Notes\nhello\n" },
          }],
          steps: [{ submit: "write the notes file" }],
          until: {
            requests: 1,
            shows: ["notes.md", "# Notes"],
            hides: ["esc to cancel"],
            stableMs: 1200,
          },
          defining: ["Apply this change?"],
          timeoutMs: 90_000,
          expect: { state: "prompt", verdicts: { permission_prompt: true } },
        },
        {
          name: "escape-rejected",
          fixture: "file-write-rejected",
          steps: [{ keys: ["Escape"] }],
          until: { hides: ["Waiting for user confirmation"], stableMs: 1500 },
          defining: ["Type your message"],
          timeoutMs: 60_000,
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        narrationScenario(NARRATION),
        {
          name: "busy",
          script: [{ kind: "hang" }],
          steps: [{ submit: "summarise the notes" }],
          // The held request and the busy line's "(… · esc to cancel)" (the narration above quotes
          // the words without the bracket), so interrupted's Escape always meets a held request.
          until: { requests: 1, shows: ["esc to cancel)"], settleMs: 1500 },
          defining: ["esc to cancel"],
          expect: { state: "busy", verdicts: { mid_response: true } },
        },
        {
          name: "interrupted",
          steps: [{ keys: ["Escape"] }],
          // 0.24.4 also shows "Press Esc again to clear." in place of its mode line for a while:
          // the screen is the one after it (the drift check once caught the hint half the time).
          until: { hides: ["esc to cancel)", "Press Esc again"], stableMs: 1500 },
          // 0.15.10 notes "Request cancelled."; 0.24.4 does that or, by timing, puts the unanswered
          // request back into the input box (no placeholder then). Both show the input box's frame.
          defining: [INPUT_FRAME],
          expect: { state: "idle", verdicts: { mid_response: false } },
        },
      ],
    },
    {
      name: "retry",
      scenarios: [{
        name: "retrying",
        script: [{ kind: "error", status: 429, error: "rate_limit", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        // It retries quietly (busy); the third request proves it is retrying.
        until: { requests: 3, settleMs: 500 },
        defining: ["esc to cancel"],
        timeoutMs: 60_000,
        expect: { state: "busy", verdicts: { mid_response: true } },
      }],
    },
    {
      name: "auth",
      scenarios: [{
        name: "auth-failure",
        script: [{ kind: "error", status: 401, error: "auth", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        until: { requests: 1, hides: ["esc to cancel"], stableMs: 2000 },
        defining: ["[API Error: 401"],
        timeoutMs: 60_000,
        expect: { state: "unavailable", verdicts: { cli_unavailable: "*" } },
      }],
    },
    {
      name: "quota",
      // Left to itself it retries a 429 for about ten minutes (a line per attempt); one retry,
      // a second apart, brings the screen it ends on within verify's time.
      settings: {
        model: {
          generationConfig: { maxRetries: 1, retryInitialDelayMs: 1000, retryMaxDelayMs: 2000 },
        },
      },
      since: {
        version: "0.24.4",
        why:
          "this Qwen Code retries HTTP 429 insufficient_quota quietly for minutes and takes no " +
          "retry count (model.generationConfig), so no out-of-quota screen shows within verify's time",
      },
      scenarios: [{
        name: "out-of-credit",
        fixture: "retries-exhausted",
        script: [{ kind: "error", status: 429, error: "quota", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        until: {
          shows: ["Possible quota limitations in place"],
          hides: ["esc to cancel"],
          stableMs: 2000,
        },
        defining: ["[API Error: 429"],
        timeoutMs: 120_000,
        expect: {
          state: "unavailable",
          verdicts: { mid_response: false, cli_unavailable: "*", permission_prompt: false },
        },
      }],
    },
  ],
};
