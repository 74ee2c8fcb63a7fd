/**
 * GitHub Copilot CLI's scenario table (see ../types.ts), in its bring-your-own-key mode against
 * the Chat Completions stand-in (COPILOT_PROVIDER_BASE_URL; lib/scenarios/homes.ts "copilot").
 * Verified against 1.0.102. Its tools: `bash` (command, description), `create` (path, file_text),
 * `edit` (path, old_str, new_str), paths absolute. Escape does not stop a turn in flight (it arms
 * "esc again to edit prompt"); Ctrl+C does.
 */
import type { ScenarioTable } from "../types.ts";
import * as shape from "./shapes.ts";

const RUN = shape.VERIFY_MARKER;
const NOTES = "{project}/notes.md";
const CREATE = "Do you want to create";
const CANCELLED = "Operation cancelled by user";
const MODE = "Manual Approval";
const WORKING = "Working";

const bash = shape.shellTool("bash");

const NARRATION = shape.quotingReply(
  "Here is how the confirmation reads when I need to run something:",
  [
    `"Do you want to run this command?"`,
    "1. Yes",
    "2. Yes, and don't ask again for `touch` in this directory",
  ],
  "Its footer says enter to select · esc to cancel, and while I work it says esc esc edit prompt.",
  "Nothing is waiting for you now.",
);

export const COPILOT: ScenarioTable = {
  cli: "copilot",
  lab: "copilot",
  api: "chat",
  home: "copilot",
  args: [],
  ready: { shows: [MODE], stableMs: 1000 },
  readyTimeoutMs: 90_000,
  sessions: [
    shape.main([
      ...shape.inputBox(["Interactive · Manual Approval"], RUN.typed, { mode: "interactive" }),
      shape.markerPrompt(bash, RUN, {
        until: { requests: 1, shows: [RUN.command, "1. Yes"], stableMs: 1000 },
        defining: ["Do you want to run this command?", "enter to select · esc to cancel"],
        timeoutMs: 60_000,
        verdicts: { broad_grant_option: 2 },
      }),
      shape.approve("1", { timeoutMs: 60_000 }),
      shape.markerRan(RUN, { timeoutMs: 60_000 }),
      shape.toolPrompt("file-prompt", {
        fixture: "file-write-prompt",
        script: [
          shape.tool("create", { path: "{project}/todo.md", file_text: "# To do\nship it\n" }),
        ],
        submit: "write the to-do file",
        until: { requests: 1, shows: ["todo.md", "1. Yes"], stableMs: 1000 },
        defining: [CREATE, "Create file"],
        timeoutMs: 60_000,
        verdicts: { permission_prompt: true, file_path: "*" },
      }),
      shape.escapeRejected({
        fixture: "file-write-rejected",
        until: { hides: [CREATE], stableMs: 1500 },
        defining: [CANCELLED, MODE],
        timeoutMs: 60_000,
      }),
      shape.editPrompt(
        "edit-prompt",
        shape.tool("edit", { path: NOTES, old_str: "hello", new_str: "hello world" }),
        "Edited the notes.",
        {
          until: { requests: 1, shows: ["notes.md", "1. Yes"], stableMs: 1000 },
          defining: ["Do you want to edit", "Edit file"],
          timeoutMs: 60_000,
          verdicts: { permission_prompt: true, file_path: "*" },
        },
      ),
      shape.noPrompt("edit-approved", {
        fixture: "file-edit-approved",
        steps: [{ keys: ["1"] }],
        until: { shows: ["Edited the notes."], stableMs: 1000 },
        defining: ["Edit notes.md", MODE],
        timeoutMs: 60_000,
      }),
      shape.narration(NARRATION),
      shape.busy({
        until: { requests: 1, shows: [WORKING], settleMs: 1500 },
        defining: ["edit prompt"],
      }),
      shape.interrupted({
        steps: [{ keys: ["C-c"] }],
        until: { shows: [MODE], hides: [WORKING], stableMs: 1500 },
        defining: [CANCELLED],
      }),
    ], { files: { "notes.md": "# Notes\nhello\n" } }),
    shape.retrySession({
      script: shape.failing(500, "server"),
      // Five retries a few seconds apart: the second request proves it is retrying.
      until: { requests: 2, shows: ["Retrying"], settleMs: 300 },
      defining: ["Request failed due to a transient API error. Retrying..."],
      verdicts: { mid_response: true, stream_error: "*" },
    }),
    shape.authSession({
      until: {
        requests: 1,
        shows: ["Authentication failed"],
        hides: [WORKING],
        stableMs: 1500,
      },
      defining: ["Authentication failed with provider"],
    }),
    shape.quotaSession({
      fixture: "quota-final",
      until: { shows: ["Failed to get response"], hides: [WORKING], stableMs: 1500 },
      defining: ["Failed to get response from the AI model; retried 5 times"],
      timeoutMs: 90_000,
      verdicts: { mid_response: false, permission_prompt: false },
    }),
  ],
  skipped: {},
};
