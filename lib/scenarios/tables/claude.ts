/**
 * Claude Code's scenario table (see ../types.ts). Verified against 2.1.197 and 2.1.332 (manual
 * permission mode: the throwaway HOME sets `permissions.defaultMode = "default"`).
 */
import type { ScenarioTable } from "../types.ts";

const MARKER = "verify_marker.txt";
const TYPED = "create the marker file";

/** Quotes the permission prompt's own words; nothing is waiting while it shows. */
const NARRATION = [
  "Here is what the permission prompt will look like when I run the build:",
  "",
  '"Do you want to proceed?"',
  "1. Yes",
  "2. Yes, and don't ask again for this command",
  "3. No",
  "",
  'The footer reads "Esc to cancel" and you can also press esc to cancel from the input box.',
  "Nothing is waiting for you right now.",
].join("\n");

export const CLAUDE: ScenarioTable = {
  cli: "claude",
  lab: "claude-code",
  api: "anthropic",
  home: "claude",
  args: [],
  ready: { stableMs: 1200 },
  readyTimeoutMs: 60_000,
  skipped: {},
  sessions: [
    {
      name: "main",
      scenarios: [
        {
          name: "ready",
          until: { stableMs: 800 },
          defining: ["? for shortcuts"],
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
          script: [
            {
              kind: "tool_use",
              name: "Bash",
              input: { command: `touch ${MARKER}`, description: "Create the marker file" },
            },
            { kind: "text", text: "The marker file is in place." },
          ],
          steps: [{ pause: 300 }, { keys: ["Enter"] }],
          until: { requests: 1, shows: [`touch ${MARKER}`], stableMs: 800 },
          defining: ["Do you want to proceed?"],
          expect: {
            state: "prompt",
            verdicts: { command: `touch ${MARKER}`, permission_prompt: true },
          },
        },
        {
          name: "approve",
          steps: [{ approve: true }],
          until: { requests: 1 },
          expect: { approve: { outcome: "approved", key: "1" } },
        },
        {
          name: "bash-output",
          until: { file: MARKER, shows: ["The marker file is in place."], stableMs: 800 },
          defining: ["? for shortcuts"],
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        {
          name: "file-prompt",
          script: [{
            kind: "tool_use",
            name: "Write",
            input: { file_path: "{project}/report.md", content: "# Report\n\nAll good.\n" },
          }],
          steps: [{ submit: "write the report" }],
          until: { requests: 1, shows: ["report.md"], stableMs: 800 },
          defining: ["Do you want to create report.md?"],
          expect: {
            state: "prompt",
            verdicts: { file_path: "report.md", permission_prompt: true },
          },
        },
        {
          name: "escape-rejected",
          steps: [{ keys: ["Escape"] }],
          until: { stableMs: 1500 },
          defining: ["Interrupted"],
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        {
          name: "narration",
          script: [{ kind: "text", text: NARRATION }],
          steps: [{ submit: "what will the prompt look like?" }],
          until: { requests: 1, shows: ["Nothing is waiting"], stableMs: 800 },
          expect: {
            state: "idle",
            verdicts: { live_prompt: false, permission_prompt: false },
          },
        },
        {
          name: "busy",
          script: [{ kind: "hang" }],
          steps: [{ submit: "summarise the notes" }],
          until: { requests: 1, settleMs: 1500 },
          defining: ["esc to interrupt"],
          expect: { state: "busy", verdicts: { mid_response: true } },
        },
        {
          name: "interrupted",
          steps: [{ keys: ["Escape"] }],
          until: { stableMs: 1500 },
          defining: ["Interrupted"],
          expect: { state: "idle", verdicts: { mid_response: false } },
        },
      ],
    },
    {
      name: "retry",
      scenarios: [{
        name: "retrying",
        fixture: "api-retrying",
        script: [{ kind: "error", status: 429, times: Infinity }],
        steps: [{ submit: "say hello" }],
        // The first retry's countdown is up once the second request has been answered.
        until: { requests: 2, settleMs: 1000 },
        defining: ["Retrying in"],
        timeoutMs: 45_000,
        expect: { state: "busy", verdicts: { stream_error: "*" } },
      }],
    },
    {
      name: "auth",
      env: { CLAUDE_CODE_MAX_RETRIES: "2" },
      scenarios: [{
        name: "auth-failure",
        fixture: "auth-401",
        script: [{ kind: "error", status: 401, times: Infinity }],
        steps: [{ submit: "say hello" }],
        until: { requests: 1, stableMs: 2000 },
        defining: ["Invalid API key"],
        timeoutMs: 60_000,
        expect: { state: "unavailable", verdicts: { cli_unavailable: "*" } },
      }],
    },
    {
      name: "credit",
      env: { CLAUDE_CODE_MAX_RETRIES: "2" },
      scenarios: [{
        name: "out-of-credit",
        fixture: "credit-400",
        script: [{ kind: "error", status: 400, times: Infinity }],
        steps: [{ submit: "say hello" }],
        until: { requests: 1, stableMs: 2000 },
        defining: ["Credit balance too low"],
        timeoutMs: 60_000,
        expect: { state: "unavailable", verdicts: { cli_unavailable: "*" } },
      }],
    },
  ],
};
