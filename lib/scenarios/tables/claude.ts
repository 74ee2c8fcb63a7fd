/**
 * Claude Code's scenario table (see ../types.ts). Verified against 2.1.197 and 2.1.332 (manual
 * permission mode: the throwaway HOME sets `permissions.defaultMode = "default"`). The lab's
 * `claude-screens` suite runs it too: each screen is compared with the recorded fixture named by
 * `fixture` (else its name), so the scripts, typed text and commands here are the ones those
 * fixtures were recorded with.
 */
import type { ScenarioTable } from "../types.ts";
import * as shape from "./shapes.ts";

/** Typed, then sent with the Enter that starts the shell-command turn. */
const TYPED = "summarise the notes in notes.txt";
/** Prints one line (the answered screen shows the command's output); not read-only, so it asks. */
const BUILD_CMD = `node -e "console.log('build check ok: 3 files')"`;
const BUILD_OUT = "build check ok: 3 files";
const READY = "? for shortcuts";
const PROCEED = "Do you want to proceed?";
const INTERRUPTED = "Interrupted · What should Claude do instead?";
/** What the API error scenarios send. */
const HELLO = "say hello";

/** Every request refused with `status`: the screen the turn ends on, after one request, held still. */
const refused = (status: number, fixture: string, defining: string) => ({
  fixture,
  script: [{ kind: "error" as const, status, times: Infinity }],
  submit: HELLO,
  until: { requests: 1, stableMs: 2000 },
  defining: [defining, READY],
});

/** Quotes the permission prompt's own words; nothing is waiting while it shows. */
const NARRATION = shape.quotingReply(
  "Here is what the permission prompt will look like when I run the build:",
  ['"Do you want to proceed?"', "1. Yes", "2. Yes, and don't ask again for this command", "3. No"],
  'The footer reads "Esc to cancel" and you can also press esc to cancel from the input box.',
  "Nothing is waiting for you right now.",
);

/** Streams for minutes (6 characters every half second): busy until interrupted. */
const SLOW_TEXT = "Reading the notes one line at a time and summarising each of them carefully. "
  .repeat(30);

export const CLAUDE: ScenarioTable = {
  cli: "claude",
  lab: "claude-code",
  api: "anthropic",
  home: "claude",
  args: [],
  ready: { stableMs: 1200 },
  readyTimeoutMs: 60_000,
  sessions: [
    shape.main([
      ...shape.inputBox([READY], TYPED),
      shape.commandPrompt({
        script: [
          {
            kind: "tool_use",
            name: "Bash",
            input: { command: BUILD_CMD, description: "Run the build check" },
            text: "I'll run the build check.",
          },
          { kind: "text", text: "The build check passed." },
        ],
        pauseMs: 300,
        until: { requests: 1, shows: [BUILD_CMD], stableMs: 800 },
        defining: ["Bash command", PROCEED, "1. Yes"],
        verdicts: { command: BUILD_CMD },
      }),
      shape.approve("1"),
      shape.noPrompt("bash-output", {
        fixture: "bash-answered",
        // The reply after the command only comes once its output went back to the model.
        until: { shows: [BUILD_OUT, "The build check passed."], stableMs: 800 },
        defining: [READY],
      }),
      shape.toolPrompt("file-prompt", {
        fixture: "write-prompt",
        script: [{
          kind: "tool_use",
          name: "Write",
          input: { file_path: "{project}/report.md", content: "# Report\n\nAll good.\n" },
        }],
        submit: "write a report",
        until: { requests: 1, shows: ["report.md"], stableMs: 800 },
        defining: ["Create file", "Do you want to create report.md?", "1. Yes"],
        verdicts: { file_path: "report.md", permission_prompt: true },
      }),
      shape.escapeRejected({
        until: { hides: ["Do you want to create report.md?"], stableMs: 1500 },
        // "User rejected write to report.md" (2.1.197), "Rejected write to report.md" (2.1.332).
        defining: ["ejected write to report.md", READY],
      }),
      shape.narration(NARRATION, {
        submit: "what will the prompt look like?",
        until: { requests: 1, shows: ["Nothing is waiting for you right now."], stableMs: 800 },
        defining: [PROCEED, READY],
      }),
    ]),
    {
      name: "busy",
      scenarios: [
        shape.busy({
          script: [{ kind: "text", text: SLOW_TEXT, chunkDelayMs: 500, chunkSize: 6 }],
          until: { requests: 1, shows: ["Reading the notes"], settleMs: 1000 },
          defining: ["esc to interrupt"],
        }),
        shape.interrupted({ until: { stableMs: 1500 }, defining: [INTERRUPTED, READY] }),
      ],
    },
    shape.retrySession({
      fixture: "api-retrying",
      script: [{ kind: "error", status: 429, times: Infinity }],
      submit: HELLO,
      // Between the second request and the third: the retry line of the first or second attempt
      // is up (each retry waits a second or more). From the third failed attempt on, 2.1.332
      // shows the API's message instead (the lab records that screen on its own).
      until: { requests: 2, maxRequests: 2 },
      // "Retrying in" (2.1.197), "retrying in" (2.1.332).
      defining: ["API error · ", "etrying in", "esc to interrupt"],
      timeoutMs: 45_000,
      verdicts: { stream_error: "*" },
    }),
    shape.authSession(refused(401, "auth-401", "Invalid API key"), {
      env: { CLAUDE_CODE_MAX_RETRIES: "2" },
    }),
    // HTTP 400 invalid_request_error "Your credit balance is too low…": not retried.
    shape.quotaSession(refused(400, "credit-400", "Credit balance too low"), { name: "credit" }),
  ],
  skipped: {},
};
