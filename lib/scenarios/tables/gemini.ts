/**
 * Gemini CLI's scenario table (see ../types.ts), against the Gemini API stand-in with API-key auth.
 * Verified against 0.61.0.
 */
import type { Step } from "../standins/step_script.ts";
import type { ScenarioTable } from "../types.ts";
import { narrationScenario } from "./narration.ts";

const MARKER = "lab_marker.txt";
const TYPED = "summarise the notes in notes.txt";
const DONE = "Created the marker file.";

const shell = (command: string, description: string): Step => ({
  kind: "tool",
  name: "run_shell_command",
  args: { command, description },
});

const NARRATION = [
  "Here is how the confirmation reads when I need to run something:",
  "",
  '"Allow execution of [Shell]?"',
  "1. Allow once",
  "2. Allow for this session",
  "3. No, suggest changes (esc)",
  "",
  "While I think, the status line says esc to cancel. Nothing is waiting for you now.",
].join("\n");

export const GEMINI: ScenarioTable = {
  cli: "gemini",
  lab: "gemini",
  api: "gemini",
  home: "gemini",
  args: [],
  // The input line shows while it still initialises; a prompt queued then can stall.
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
          defining: ["Type your message", "? for shortcuts"],
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
            { kind: "text", text: DONE },
          ],
          steps: [{ pause: 700 }, { keys: ["Enter"] }],
          until: { requests: 1, shows: [`touch ${MARKER}`], stableMs: 800 },
          defining: ["Allow execution of [Shell]?"],
          timeoutMs: 60_000,
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
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        {
          name: "reject-prompt",
          fixture: "shell-prompt-rm",
          script: [shell("rm -rf build", "Clean the build folder")],
          steps: [{ submit: "clean the build folder" }],
          until: { requests: 1, shows: ["rm -rf build"], stableMs: 800 },
          defining: ["Allow execution of [Shell]?"],
          timeoutMs: 60_000,
          expect: { state: "prompt", verdicts: { command: "rm -rf build" } },
        },
        {
          name: "escape-rejected",
          fixture: "shell-rejected",
          steps: [{ keys: ["Escape"] }],
          until: { stableMs: 1500 },
          defining: ["Request cancelled."],
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        narrationScenario(NARRATION),
      ],
    },
    {
      name: "file",
      scenarios: [
        {
          name: "file-prompt",
          fixture: "file-write-prompt",
          script: [{
            kind: "tool",
            name: "write_file",
            args: { file_path: "{project}/notes.md", content: "# Notes\nhello\n" },
          }, { kind: "text", text: "Wrote the notes." }],
          steps: [{ submit: "write the notes file" }],
          until: { requests: 1, shows: ["notes.md", "# Notes"], stableMs: 800 },
          defining: ["Apply this change?"],
          timeoutMs: 60_000,
          expect: {
            state: "prompt",
            verdicts: { file_path: "notes.md", permission_prompt: true },
          },
        },
        {
          name: "approve-file",
          steps: [{ approve: true }],
          until: { requests: 1 },
          expect: { approve: { outcome: "approved", key: "1" } },
        },
        {
          name: "file-output",
          fixture: "file-write-approved",
          until: { file: "notes.md", shows: ["Wrote the notes."], stableMs: 800 },
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
      ],
    },
    {
      // Apart from main: its "Request cancelled." must be the only one on the screen.
      name: "busy",
      scenarios: [
        {
          name: "busy",
          script: [{ kind: "hang" }],
          steps: [{ submit: "summarise the notes" }],
          until: { requests: 1, settleMs: 1500 },
          defining: ["(esc to cancel"],
          expect: { state: "busy", verdicts: { mid_response: true } },
        },
        {
          name: "interrupted",
          steps: [{ keys: ["Escape"] }],
          until: { stableMs: 1500 },
          defining: ["Request cancelled."],
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
        // It retries quietly (busy) for minutes; the third request proves it is retrying.
        until: { requests: 3, settleMs: 500 },
        defining: ["(esc to cancel"],
        timeoutMs: 60_000,
        expect: { state: "busy", verdicts: { mid_response: true } },
      }],
    },
    {
      name: "auth",
      scenarios: [{
        name: "auth-failure",
        script: [{ kind: "error", status: 400, error: "auth", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        until: { requests: 1, hides: ["esc to cancel"], stableMs: 2000 },
        defining: ["API key not valid"],
        timeoutMs: 60_000,
        expect: { state: "unavailable", verdicts: { cli_unavailable: "*" } },
      }],
    },
    {
      name: "quota",
      scenarios: [{
        name: "out-of-credit",
        fixture: "quota-dialog",
        script: [{ kind: "error", status: 429, error: "quota", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        until: { requests: 1, hides: ["esc to cancel"], stableMs: 2000 },
        defining: ["Usage limit reached"],
        timeoutMs: 60_000,
        expect: { state: "unavailable", verdicts: { cli_unavailable: "*" } },
      }, {
        name: "quota-stopped",
        steps: [{ keys: ["2"] }],
        until: { stableMs: 1500 },
        defining: ["exhausted your daily quota"],
        expect: { state: "unavailable", verdicts: { cli_unavailable: "*" } },
      }],
    },
  ],
};
