/**
 * Cline's scenario table (see ../types.ts): its TUI (`cline -i --auto-approve false`, so it asks for
 * every tool) with an OpenAI-compatible provider on the Chat Completions stand-in
 * (lib/scenarios/homes.ts "cline"). Verified against 3.0.65. Its tools: `run_commands`
 * ({commands: [...]}), `editor` ({path, old_text?, new_text}, paths absolute). Its modal is answered
 * with Enter on the highlighted "[y] Approve", or `n`; Escape ends a turn in flight. A 5xx is
 * retried with no word on screen but the busy line.
 */
import type { Step } from "../standins/step_script.ts";
import type { ScenarioTable } from "../types.ts";
import { narrationScenario } from "./narration.ts";

const MARKER = "verify_marker.txt";
const TYPED = "create the marker file";

const run = (...commands: string[]): Step => ({
  kind: "tool",
  name: "run_commands",
  args: { commands },
});

const NARRATION = [
  "When I need to run something, the confirmation reads like this:",
  "",
  "Cline needs permission",
  "Approve tool call?",
  "[y] Approve   [n] Deny",
  "",
  "and while I work it says Thinking, and that esc cancels.",
  "Nothing is waiting for you now.",
].join("\n");

export const CLINE: ScenarioTable = {
  cli: "cline",
  lab: "cline",
  api: "chat",
  home: "cline",
  args: ["-i", "--auto-approve", "false"],
  ready: { shows: ["What can I do for you?", "Act (Tab)"], stableMs: 1000 },
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
          defining: ["What can I do for you?", "Auto-approve all disabled (Shift+Tab)"],
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
          script: [run(`touch ${MARKER}`), { kind: "text", text: "The marker file is in place." }],
          steps: [{ pause: 700 }, { keys: ["Enter"] }],
          // The busy line may stay over the modal, its spinner turning: a settle, not a still screen.
          until: { requests: 1, shows: [`$ touch ${MARKER}`, "[y] Approve"], settleMs: 1000 },
          defining: ["Cline needs permission", "Approve tool call?", "run_commands"],
          timeoutMs: 60_000,
          expect: {
            state: "prompt",
            verdicts: { permission_prompt: true, command: null, live_prompt: true },
          },
        },
        {
          name: "approve",
          steps: [{ approve: true }],
          until: { requests: 1 },
          timeoutMs: 60_000,
          expect: { approve: { outcome: "approved", key: "Enter" } },
        },
        {
          name: "bash-output",
          fixture: "shell-approved",
          until: { file: MARKER, shows: ["The marker file is in place."], stableMs: 800 },
          defining: [`run_commands(touch ${MARKER})`, "Ask anything..."],
          timeoutMs: 60_000,
          expect: { state: "idle", verdicts: { live_prompt: false, input_box: null } },
        },
        {
          name: "file-prompt",
          fixture: "file-edit-prompt",
          script: [
            {
              kind: "tool",
              name: "editor",
              args: { path: "{project}/notes.md", old_text: "hello", new_text: "hello world" },
            },
            { kind: "text", text: "I left the notes as they were." },
          ],
          steps: [{ submit: "edit the notes file" }],
          until: { requests: 1, shows: ["notes.md", "[y] Approve"], settleMs: 1000 },
          defining: ["Approve tool call?", "editor"],
          timeoutMs: 60_000,
          expect: {
            state: "prompt",
            verdicts: { permission_prompt: true, file_path: "*", command: null },
          },
        },
        {
          name: "escape-rejected",
          fixture: "file-rejected",
          steps: [{ keys: ["n"] }],
          until: { hides: ["Approve tool call?"], shows: ["rejected by the user"], stableMs: 1500 },
          defining: ["This tool call was rejected by the user and not executed."],
          timeoutMs: 60_000,
          expect: { state: "idle", verdicts: { live_prompt: false } },
        },
        narrationScenario(NARRATION),
        {
          name: "busy",
          script: [{ kind: "hang" }],
          steps: [{ submit: "summarise the notes" }],
          until: { requests: 1, shows: ["(esc to cancel)"], settleMs: 1500 },
          defining: ["Thinking... (esc to cancel)"],
          expect: { state: "busy", verdicts: { mid_response: true } },
        },
        {
          name: "interrupted",
          steps: [{ keys: ["Escape"] }],
          until: { hides: ["(esc to cancel)"], shows: ["Ask anything..."], stableMs: 1500 },
          defining: ["❯ summarise the notes", "Ask anything..."],
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
        // Retried with backoff and no message: the second request proves it is retrying.
        until: { requests: 2, shows: ["(esc to cancel)"], settleMs: 300 },
        defining: ["Thinking... (esc to cancel)"],
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
        until: { requests: 1, shows: ["Error: Incorrect API key"], stableMs: 1500 },
        defining: ["Error: Incorrect API key provided."],
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
        until: { shows: ["Error: You exceeded your current quota"], stableMs: 1500 },
        defining: ["Error: You exceeded your current quota"],
        timeoutMs: 90_000,
        expect: {
          state: "unavailable",
          verdicts: { mid_response: false, cli_unavailable: "*", permission_prompt: false },
        },
      }],
    },
  ],
};
