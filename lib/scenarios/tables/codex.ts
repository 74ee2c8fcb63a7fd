/**
 * Codex CLI's scenario table (see ../types.ts), run as `codex -a on-request --no-daemon` against
 * the Responses stand-in. Verified against 0.171.0.
 */
import type { Step } from "../standins/step_script.ts";
import type { ScenarioTable } from "../types.ts";
import * as shape from "./shapes.ts";

const RUN = shape.LAB_MARKER;
const ASKS = "Would you like to run the following command?";
const BUSY_LINE = "esc to interrupt";

/** Codex's shell tool asking to run outside the sandbox: what raises its approval prompt. */
const exec = (cmd: string, justification: string): Step => ({
  kind: "tool",
  name: "exec_command",
  args: { cmd, sandbox_permissions: "require_escalated", justification },
});

const NARRATION = shape.quotingReply(
  "Here is how the approval prompt reads when I need to run something:",
  [
    '"Would you like to run the following command?"',
    "1. Yes, proceed (y)",
    "2. Yes, and don't ask again for commands that start with `npm test` (p)",
  ],
  'It ends with "Press enter to confirm or esc to cancel". Nothing is waiting for you now.',
);

export const CODEX: ScenarioTable = {
  cli: "codex",
  lab: "codex",
  api: "responses",
  home: "codex",
  args: ["-a", "on-request", "--no-daemon"],
  // The start-up logo animates for a while; keys sent before it settles can be swallowed.
  ready: { stableMs: 1500 },
  readyTimeoutMs: 60_000,
  sessions: [
    shape.main([
      ...shape.inputBox(["Ask Codex to do anything", "? for shortcuts"], RUN.typed),
      shape.markerPrompt(exec, RUN, {
        // A burst of keys ending in Enter reads as a paste to Codex: pause first.
        pauseMs: 700,
        until: { requests: 1, shows: [RUN.command], stableMs: 800 },
        defining: [ASKS],
      }),
      shape.approve("1"),
      shape.markerRan(RUN, { defining: ["You approved codex to run"] }),
      shape.rejectPrompt(exec, {
        until: { requests: 1, shows: ["$ rm -rf build"], stableMs: 800 },
        defining: [ASKS],
      }),
      shape.escapeRejected({
        fixture: "shell-rejected",
        until: { stableMs: 1500 },
        defining: ["You canceled the request to run"],
      }),
      shape.narration(NARRATION, {
        submit: "what does the approval prompt look like?",
        until: { requests: 1, shows: ["Nothing is waiting"], stableMs: 800 },
      }),
    ]),
    {
      // Apart from main: its "interrupted" line must be the only one on the screen.
      name: "busy",
      scenarios: [
        shape.busy({ until: { requests: 1, settleMs: 1500 }, defining: [BUSY_LINE] }),
        shape.interrupted({ until: { stableMs: 1500 }, defining: ["Conversation interrupted"] }),
      ],
    },
    shape.retrySession({
      fixture: "server-error-retrying",
      script: shape.failing(500, "server"),
      until: { requests: 2, settleMs: 1000 },
      defining: ["Reconnecting..."],
      timeoutMs: 45_000,
      verdicts: { stream_error: "*" },
    }),
    shape.authSession({
      until: shape.ended(BUSY_LINE),
      defining: ["401 Unauthorized"],
      timeoutMs: 90_000,
    }),
    shape.quotaSession({
      fixture: "quota-exceeded",
      until: shape.ended(BUSY_LINE),
      defining: ["Quota exceeded"],
    }),
  ],
  skipped: {
    "file-prompt":
      "Codex offers a model it does not know (the stand-in's) no file-writing tool, only " +
      "exec_command: files are written by shell commands, whose prompt is bash-prompt; there " +
      "is no separate file-write prompt to reach",
  },
};
