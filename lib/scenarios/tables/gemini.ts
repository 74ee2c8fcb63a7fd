/**
 * Gemini CLI's scenario table (see ../types.ts), against the Gemini API stand-in with API-key auth.
 * Verified against 0.61.0.
 */
import type { ScenarioTable } from "../types.ts";
import * as shape from "./shapes.ts";

const RUN = shape.LAB_MARKER;
const ASKS = "Allow execution of [Shell]?";
const CANCELLED = "Request cancelled.";
const NOTES = "# Notes\nhello\n";
const BUSY_LINE = "esc to cancel";

const shell = shape.shellTool("run_shell_command");

const NARRATION = shape.quotingReply(
  "Here is how the confirmation reads when I need to run something:",
  [
    '"Allow execution of [Shell]?"',
    "1. Allow once",
    "2. Allow for this session",
    "3. No, suggest changes (esc)",
  ],
  "While I think, the status line says esc to cancel. Nothing is waiting for you now.",
);

export const GEMINI: ScenarioTable = {
  cli: "gemini",
  lab: "gemini",
  api: "gemini",
  home: "gemini",
  args: [],
  // The input line shows while it still initialises; a prompt queued then can stall.
  ready: { hides: ["Initializing"], stableMs: 1500 },
  readyTimeoutMs: 90_000,
  sessions: [
    shape.main([
      ...shape.inputBox(["Type your message", "? for shortcuts"], RUN.typed),
      shape.markerPrompt(shell, RUN, {
        until: { requests: 1, shows: [RUN.command], stableMs: 800 },
        defining: [ASKS],
        timeoutMs: 60_000,
      }),
      shape.approve("1"),
      shape.markerRan(RUN),
      shape.rejectPrompt(shell, {
        until: { requests: 1, shows: ["rm -rf build"], stableMs: 800 },
        defining: [ASKS],
        timeoutMs: 60_000,
      }),
      shape.escapeRejected({
        fixture: "shell-rejected",
        until: { stableMs: 1500 },
        defining: [CANCELLED],
      }),
      shape.narration(NARRATION),
    ]),
    {
      name: "file",
      scenarios: [
        shape.toolPrompt("file-prompt", {
          fixture: "file-write-prompt",
          script: [
            shape.tool("write_file", { file_path: "{project}/notes.md", content: NOTES }),
            { kind: "text", text: "Wrote the notes." },
          ],
          submit: "write the notes file",
          until: { requests: 1, shows: ["notes.md", "# Notes"], stableMs: 800 },
          defining: ["Apply this change?"],
          timeoutMs: 60_000,
          verdicts: { file_path: "notes.md", permission_prompt: true },
        }),
        shape.approve("1", { name: "approve-file" }),
        shape.noPrompt("file-output", {
          fixture: "file-write-approved",
          until: { file: "notes.md", shows: ["Wrote the notes."], stableMs: 800 },
        }),
      ],
    },
    {
      // Apart from main: its "Request cancelled." must be the only one on the screen.
      name: "busy",
      scenarios: [
        shape.busy({ until: { requests: 1, settleMs: 1500 }, defining: ["(esc to cancel"] }),
        shape.interrupted({ until: { stableMs: 1500 }, defining: [CANCELLED] }),
      ],
    },
    shape.retrySession({
      fixture: "server-error-retrying",
      script: shape.failing(500, "server"),
      // It retries quietly (busy) for minutes; the third request proves it is retrying.
      until: { requests: 3, settleMs: 500 },
      defining: ["(esc to cancel"],
      verdicts: { mid_response: true },
    }),
    shape.authSession({
      script: shape.failing(400, "auth"),
      until: shape.ended(BUSY_LINE),
      defining: ["API key not valid"],
    }),
    {
      name: "quota",
      scenarios: [
        shape.outOfCredit({
          fixture: "quota-dialog",
          script: shape.failing(429, "quota"),
          until: shape.ended(BUSY_LINE),
          defining: ["Usage limit reached"],
          timeoutMs: 60_000,
        }),
        {
          name: "quota-stopped",
          steps: [{ keys: ["2"] }],
          until: { stableMs: 1500 },
          defining: ["exhausted your daily quota"],
          expect: { state: "unavailable", verdicts: { cli_unavailable: "*" } },
        },
      ],
    },
  ],
  skipped: {},
};
