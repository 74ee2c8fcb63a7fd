/**
 * Codex CLI's scenario table (see ../types.ts), run as `codex -a on-request --no-daemon` against
 * the Responses stand-in. Verified against 0.171.0.
 */
import type { Step } from "../standins/step_script.ts";
import type { ScenarioTable } from "../types.ts";

const MARKER = "lab_marker.txt";
const TYPED = "summarise the notes in notes.txt";
const DONE = "Created the marker file.";

/** Codex's shell tool asking to run outside the sandbox: what raises its approval prompt. */
const exec = (cmd: string, justification: string): Step => ({
  kind: "tool",
  name: "exec_command",
  args: { cmd, sandbox_permissions: "require_escalated", justification },
});

const NARRATION = [
  "Here is how the approval prompt reads when I need to run something:",
  "",
  '"Would you like to run the following command?"',
  "1. Yes, proceed (y)",
  "2. Yes, and don't ask again for commands that start with `npm test` (p)",
  "",
  'It ends with "Press enter to confirm or esc to cancel". Nothing is waiting for you now.',
].join("\n");

export const CODEX: ScenarioTable = {
  cli: "codex",
  lab: "codex",
  api: "responses",
  home: "codex",
  args: ["-a", "on-request", "--no-daemon"],
  // The start-up logo animates for a while; keys sent before it settles can be swallowed.
  ready: { stableMs: 1500 },
  readyTimeoutMs: 60_000,
  skipped: {
    "file-prompt":
      "Codex offers a model it does not know (the stand-in's) no file-writing tool, only " +
      "exec_command: files are written by shell commands, whose prompt is bash-prompt; there " +
      "is no separate file-write prompt to reach",
  },
  sessions: [
    {
      name: "main",
      scenarios: [
        {
          name: "ready",
          until: { stableMs: 800 },
          defining: ["Ask Codex to do anything", "? for shortcuts"],
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
            exec(`touch ${MARKER}`, "Create the marker file"),
            { kind: "text", text: DONE },
          ],
          // A burst of keys ending in Enter reads as a paste to Codex: pause first.
          steps: [{ pause: 700 }, { keys: ["Enter"] }],
          until: { requests: 1, shows: [`touch ${MARKER}`], stableMs: 800 },
          defining: ["Would you like to run the following command?"],
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
          fixture: "shell-approved",
          until: { file: MARKER, shows: [DONE], stableMs: 800 },
          defining: ["You approved codex to run"],
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        {
          name: "reject-prompt",
          fixture: "shell-prompt-rm",
          script: [exec("rm -rf build", "Clean the build folder")],
          steps: [{ submit: "clean the build folder" }],
          until: { requests: 1, shows: ["$ rm -rf build"], stableMs: 800 },
          defining: ["Would you like to run the following command?"],
          expect: { state: "prompt", verdicts: { command: "rm -rf build" } },
        },
        {
          name: "escape-rejected",
          fixture: "shell-rejected",
          steps: [{ keys: ["Escape"] }],
          until: { stableMs: 1500 },
          defining: ["You canceled the request to run"],
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        {
          name: "narration",
          script: [{ kind: "text", text: NARRATION }],
          steps: [{ submit: "what does the approval prompt look like?" }],
          until: { requests: 1, shows: ["Nothing is waiting"], stableMs: 800 },
          expect: {
            state: "idle",
            verdicts: { live_prompt: false, permission_prompt: false },
          },
        },
      ],
    },
    {
      // Apart from main: its "interrupted" line must be the only one on the screen.
      name: "busy",
      scenarios: [
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
          defining: ["Conversation interrupted"],
          expect: { state: "idle", verdicts: { mid_response: false } },
        },
      ],
    },
    {
      name: "retry",
      scenarios: [{
        name: "retrying",
        fixture: "server-error-retrying",
        script: [{ kind: "error", status: 500, error: "server", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        until: { requests: 2, settleMs: 1000 },
        defining: ["Reconnecting..."],
        timeoutMs: 45_000,
        expect: { state: "busy", verdicts: { stream_error: "*" } },
      }],
    },
    {
      name: "auth",
      scenarios: [{
        name: "auth-failure",
        script: [{ kind: "error", status: 401, error: "auth", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        until: { requests: 1, hides: ["esc to interrupt"], stableMs: 2000 },
        defining: ["401 Unauthorized"],
        timeoutMs: 90_000,
        expect: { state: "unavailable", verdicts: { cli_unavailable: "*" } },
      }],
    },
    {
      name: "quota",
      scenarios: [{
        name: "out-of-credit",
        fixture: "quota-exceeded",
        script: [{ kind: "error", status: 429, error: "quota", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        until: { requests: 1, hides: ["esc to interrupt"], stableMs: 2000 },
        defining: ["Quota exceeded"],
        timeoutMs: 60_000,
        expect: { state: "unavailable", verdicts: { cli_unavailable: "*" } },
      }],
    },
  ],
};
