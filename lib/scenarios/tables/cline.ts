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
import * as shape from "./shapes.ts";

const RUN = shape.VERIFY_MARKER;
const NOTES = "{project}/notes.md";
const GREETING = "What can I do for you?";
const ASKS = "Approve tool call?";
const APPROVE = "[y] Approve";
const INPUT = "Ask anything...";
const BUSY_LINE = "(esc to cancel)";
const THINKING = "Thinking... (esc to cancel)";
const QUOTA = "Error: You exceeded your current quota";

const run = (...commands: string[]): Step => ({
  kind: "tool",
  name: "run_commands",
  args: { commands },
});

const NARRATION = shape.quotingReply(
  "When I need to run something, the confirmation reads like this:",
  ["Cline needs permission", "Approve tool call?", "[y] Approve   [n] Deny"],
  "and while I work it says Thinking, and that esc cancels.",
  "Nothing is waiting for you now.",
);

export const CLINE: ScenarioTable = {
  cli: "cline",
  lab: "cline",
  api: "chat",
  home: "cline",
  args: ["-i", "--auto-approve", "false"],
  ready: { shows: [GREETING, "Act (Tab)"], stableMs: 1000 },
  readyTimeoutMs: 90_000,
  sessions: [
    shape.main([
      ...shape.inputBox([GREETING, "Auto-approve all disabled (Shift+Tab)"], RUN.typed, {
        mode: "interactive",
      }),
      shape.commandPrompt({
        fixture: "shell-prompt",
        script: [run(RUN.command), { kind: "text", text: RUN.done }],
        // The busy line may stay over the modal, its spinner turning: a settle, not a still screen.
        until: { requests: 1, shows: [`$ ${RUN.command}`, APPROVE], settleMs: 1000 },
        defining: ["Cline needs permission", ASKS, "run_commands"],
        timeoutMs: 60_000,
        verdicts: { command: null, live_prompt: true },
      }),
      shape.approve("Enter", { timeoutMs: 60_000 }),
      shape.markerRan(RUN, {
        defining: [`run_commands(${RUN.command})`, INPUT],
        timeoutMs: 60_000,
        verdicts: { input_box: null },
      }),
      shape.editPrompt(
        "file-prompt",
        shape.tool("editor", { path: NOTES, old_text: "hello", new_text: "hello world" }),
        "I left the notes as they were.",
        {
          until: { requests: 1, shows: ["notes.md", APPROVE], settleMs: 1000 },
          defining: [ASKS, "editor"],
          timeoutMs: 60_000,
          verdicts: { permission_prompt: true, file_path: "*", command: null },
        },
      ),
      shape.escapeRejected({
        fixture: "file-rejected",
        steps: [{ keys: ["n"] }],
        until: { hides: [ASKS], shows: ["rejected by the user"], stableMs: 1500 },
        defining: ["This tool call was rejected by the user and not executed."],
        timeoutMs: 60_000,
      }),
      shape.narration(NARRATION),
      shape.busy({
        until: { requests: 1, shows: [BUSY_LINE], settleMs: 1500 },
        defining: [THINKING],
      }),
      shape.interrupted({
        until: { hides: [BUSY_LINE], shows: [INPUT], stableMs: 1500 },
        defining: ["❯ summarise the notes", INPUT],
      }),
    ], { files: { "notes.md": "# Notes\nhello\n" } }),
    shape.retrySession({
      script: shape.failing(500, "server"),
      // Retried with backoff and no message: the second request proves it is retrying.
      until: { requests: 2, shows: [BUSY_LINE], settleMs: 300 },
      defining: [THINKING],
      verdicts: { mid_response: true },
    }),
    shape.authSession({
      until: { requests: 1, shows: ["Error: Incorrect API key"], stableMs: 1500 },
      defining: ["Error: Incorrect API key provided."],
    }),
    shape.quotaSession({
      fixture: "quota-final",
      until: { shows: [QUOTA], stableMs: 1500 },
      defining: [QUOTA],
      timeoutMs: 90_000,
      verdicts: { mid_response: false, permission_prompt: false },
    }),
  ],
  skipped: {},
};
