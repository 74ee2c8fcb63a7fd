/**
 * GitHub Copilot CLI's scenario table (see ../types.ts), in its bring-your-own-key mode against
 * the Chat Completions stand-in (COPILOT_PROVIDER_BASE_URL; lib/scenarios/homes.ts "copilot").
 * Verified against 1.0.102. Its tools: `bash` (command, description), `create` (path, file_text),
 * `edit` (path, old_str, new_str), paths absolute. Escape does not stop a turn in flight (it arms
 * "esc again to edit prompt"); Ctrl+C does.
 */
import type { Step } from "../standins/step_script.ts";
import type { ScenarioTable } from "../types.ts";
import { narrationScenario } from "./narration.ts";

const MARKER = "verify_marker.txt";
const TYPED = "create the marker file";

const bash = (command: string, description: string): Step => ({
  kind: "tool",
  name: "bash",
  args: { command, description },
});

const NARRATION = [
  "Here is how the confirmation reads when I need to run something:",
  "",
  `"Do you want to run this command?"`,
  "1. Yes",
  "2. Yes, and don't ask again for `touch` in this directory",
  "",
  "Its footer says enter to select · esc to cancel, and while I work it says esc esc edit prompt.",
  "Nothing is waiting for you now.",
].join("\n");

export const COPILOT: ScenarioTable = {
  cli: "copilot",
  lab: "copilot",
  api: "chat",
  home: "copilot",
  args: [],
  ready: { shows: ["Manual Approval"], stableMs: 1000 },
  readyTimeoutMs: 90_000,
  skipped: {},
  sessions: [
    {
      name: "main",
      files: { "notes.md": "# Notes\nhello\n" },
      scenarios: [
        {
          name: "ready",
          until: { stableMs: 800 },
          defining: ["Interactive · Manual Approval"],
          expect: { state: "idle", verdicts: { input_box: null, mode: "interactive" } },
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
            bash(`touch ${MARKER}`, "Create the marker file"),
            { kind: "text", text: "The marker file is in place." },
          ],
          steps: [{ pause: 700 }, { keys: ["Enter"] }],
          until: { requests: 1, shows: [`touch ${MARKER}`, "1. Yes"], stableMs: 1000 },
          defining: ["Do you want to run this command?", "enter to select · esc to cancel"],
          timeoutMs: 60_000,
          expect: {
            state: "prompt",
            verdicts: {
              command: `touch ${MARKER}`,
              permission_prompt: true,
              broad_grant_option: 2,
            },
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
            name: "create",
            args: { path: "{project}/todo.md", file_text: "# To do\nship it\n" },
          }],
          steps: [{ submit: "write the to-do file" }],
          until: { requests: 1, shows: ["todo.md", "1. Yes"], stableMs: 1000 },
          defining: ["Do you want to create", "Create file"],
          timeoutMs: 60_000,
          expect: {
            state: "prompt",
            verdicts: { permission_prompt: true, file_path: "*" },
          },
        },
        {
          name: "escape-rejected",
          fixture: "file-write-rejected",
          steps: [{ keys: ["Escape"] }],
          until: { hides: ["Do you want to create"], stableMs: 1500 },
          defining: ["Operation cancelled by user", "Manual Approval"],
          timeoutMs: 60_000,
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        {
          name: "edit-prompt",
          fixture: "file-edit-prompt",
          script: [
            {
              kind: "tool",
              name: "edit",
              args: { path: "{project}/notes.md", old_str: "hello", new_str: "hello world" },
            },
            { kind: "text", text: "Edited the notes." },
          ],
          steps: [{ submit: "edit the notes file" }],
          until: { requests: 1, shows: ["notes.md", "1. Yes"], stableMs: 1000 },
          defining: ["Do you want to edit", "Edit file"],
          timeoutMs: 60_000,
          expect: {
            state: "prompt",
            verdicts: { permission_prompt: true, file_path: "*" },
          },
        },
        {
          name: "edit-approved",
          fixture: "file-edit-approved",
          steps: [{ keys: ["1"] }],
          until: { shows: ["Edited the notes."], stableMs: 1000 },
          defining: ["Edit notes.md", "Manual Approval"],
          timeoutMs: 60_000,
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        narrationScenario(NARRATION),
        {
          name: "busy",
          script: [{ kind: "hang" }],
          steps: [{ submit: "summarise the notes" }],
          until: { requests: 1, shows: ["Working"], settleMs: 1500 },
          defining: ["edit prompt"],
          expect: { state: "busy", verdicts: { mid_response: true } },
        },
        {
          name: "interrupted",
          steps: [{ keys: ["C-c"] }],
          until: { shows: ["Manual Approval"], hides: ["Working"], stableMs: 1500 },
          defining: ["Operation cancelled by user"],
          expect: { state: "idle", verdicts: { mid_response: false } },
        },
      ],
    },
    {
      name: "retry",
      scenarios: [{
        name: "retrying",
        script: [{ kind: "error", status: 500, error: "server", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        // Five retries a few seconds apart: the second request proves it is retrying.
        until: { requests: 2, shows: ["Retrying"], settleMs: 300 },
        defining: ["Request failed due to a transient API error. Retrying..."],
        timeoutMs: 60_000,
        expect: { state: "busy", verdicts: { mid_response: true, stream_error: "*" } },
      }],
    },
    {
      name: "auth",
      scenarios: [{
        name: "auth-failure",
        script: [{ kind: "error", status: 401, error: "auth", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        until: {
          requests: 1,
          shows: ["Authentication failed"],
          hides: ["Working"],
          stableMs: 1500,
        },
        defining: ["Authentication failed with provider"],
        timeoutMs: 60_000,
        expect: { state: "unavailable", verdicts: { cli_unavailable: "*" } },
      }],
    },
    {
      name: "quota",
      scenarios: [{
        name: "out-of-credit",
        fixture: "quota-final",
        script: [{ kind: "error", status: 429, error: "quota", times: 1000 }],
        steps: [{ submit: "summarise the notes" }],
        until: { shows: ["Failed to get response"], hides: ["Working"], stableMs: 1500 },
        defining: ["Failed to get response from the AI model; retried 5 times"],
        timeoutMs: 90_000,
        expect: {
          state: "unavailable",
          verdicts: { mid_response: false, cli_unavailable: "*", permission_prompt: false },
        },
      }],
    },
  ],
};
