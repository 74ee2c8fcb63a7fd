/**
 * OpenCode's scenario table (see ../types.ts), against the Chat Completions stand-in through an
 * `@ai-sdk/openai-compatible` provider, shell and edits set to "ask". Verified against 1.18.33.
 * Its permission prompt is an un-numbered choice row: `drover approve` answers it with Enter.
 */
import type { ScenarioTable, Wait } from "../types.ts";
import * as shape from "./shapes.ts";

const RUN = shape.LAB_MARKER;
const ASKS = "Permission required";
const FOOTER = "ctrl+p commands";
const BUSY_LINE = "esc interrupt";
const QUOTA = "You exceeded your current quota";

const bash = shape.shellTool("bash");

/** `w`, once the busy line is gone and the screen has been still a while. */
const settled = (w: Wait): Wait => ({ ...w, hides: [BUSY_LINE], stableMs: 1200 });

const NARRATION = shape.quotingReply(
  "Here is how the permission request reads when I need to run something:",
  ["△ Permission required", "# Shell command", "Allow once   Allow always   Reject"],
  "You pick with ⇆ select and enter confirm. Nothing is waiting for you now.",
);

export const OPENCODE: ScenarioTable = {
  cli: "opencode",
  lab: "opencode",
  api: "chat",
  home: "opencode",
  args: [],
  ready: { stableMs: 2000 },
  // Its start-up (project scan, provider init) took 25–60 s on a loaded 2-core machine.
  readyTimeoutMs: 120_000,
  sessions: [
    // Few sessions: each start of OpenCode costs ~13 s of CPU, plus ~5 s of set-up after its
    // input box shows and ~7 s for its first turn, on a 2-core machine (issue 11: ≤ 2 min a CLI).
    // An error's toast is drawn over the transcript: auth-failure and out-of-credit start fresh.
    shape.main([
      ...shape.inputBox(["Ask anything", FOOTER], RUN.typed),
      shape.markerPrompt(bash, RUN, {
        until: settled({ requests: 1, shows: [RUN.command] }),
        defining: [ASKS, "Allow once"],
        timeoutMs: 90_000,
        verdicts: {
          // Un-numbered: the gate answers with Enter only while "Allow once" is selected.
          choice_row: [
            { text: "Allow once", selected: true },
            { text: "Allow always", selected: false },
            { text: "Reject", selected: false },
          ],
        },
      }),
      shape.approve("Enter", { timeoutMs: 60_000 }),
      shape.noPrompt("bash-output", {
        fixture: "shell-approved",
        until: settled({ file: RUN.file, shows: [RUN.done] }),
        timeoutMs: 90_000,
      }),
      shape.toolPrompt("file-prompt", {
        script: [
          shape.tool("write", { filePath: "{project}/notes.md", content: "# Notes\nhello\n" }),
        ],
        submit: "write the notes file",
        until: settled({ requests: 1, shows: ["notes.md"] }),
        defining: [ASKS],
        timeoutMs: 90_000,
        verdicts: { permission_prompt: true },
      }),
    ]),
    {
      // busy and interrupted after a finished turn: the footer then shows the token count.
      name: "second",
      scenarios: [
        shape.rejectPrompt(bash, {
          until: settled({ requests: 1, shows: ["$ rm -rf build"] }),
          defining: [ASKS],
          timeoutMs: 90_000,
        }),
        shape.escapeRejected({
          fixture: "shell-rejected",
          until: { hides: [ASKS, BUSY_LINE], stableMs: 1500 },
          defining: [FOOTER],
          timeoutMs: 60_000,
        }),
        shape.narration(NARRATION, {
          submit: "what does the permission request look like?",
          until: settled({ requests: 1, shows: ["Nothing is waiting"] }),
          timeoutMs: 90_000,
        }),
        shape.busy({
          until: { requests: 1, settleMs: 1500 },
          defining: [BUSY_LINE],
          timeoutMs: 60_000,
        }),
        shape.interrupted({
          // One Escape only arms it ("esc again"); the second, a moment later, interrupts.
          steps: [{ keys: ["Escape"] }, { pause: 400 }, { keys: ["Escape"] }],
          until: { hides: [BUSY_LINE, "esc again"], stableMs: 2000 },
          defining: [FOOTER],
          timeoutMs: 60_000,
        }),
        shape.retrying({
          fixture: "quota-retrying",
          // No retry-after: it backs off on its own and writes the error across the footer.
          script: shape.failing(429, "quota", { retryAfterS: null }),
          until: { requests: 3, settleMs: 500 },
          defining: [QUOTA],
          timeoutMs: 90_000,
          // Not stream_error: at 80 columns the footer splits "[retrying" across two lines.
          verdicts: { mid_response: true, cli_unavailable: null },
        }),
      ],
    },
    shape.authSession({
      until: shape.ended(BUSY_LINE),
      defining: ["Incorrect API key"],
      timeoutMs: 90_000,
    }),
    shape.quotaSession({
      fixture: "quota-final",
      // retry-after 1: its retries run out in seconds instead of minutes.
      script: shape.failing(429, "quota"),
      // At 80 columns the retry status wraps: "[retrying" never shows whole and "esc
      // interrupt" gives way to the error, so only "attempt #" (on the wrapped line) marks a
      // retry still pending; CI once captured attempt #3 as the final screen.
      until: { requests: 1, hides: [BUSY_LINE, "[retrying", "attempt #"], stableMs: 2000 },
      defining: [QUOTA],
      // Its retries ran out within 90 s on a quiet machine, not at a load average of 20 (the
      // drift run caught it still retrying).
      timeoutMs: 180_000,
    }),
  ],
  skipped: {},
};
