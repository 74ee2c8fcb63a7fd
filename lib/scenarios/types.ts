/**
 * What a scenario table is. One table per CLI (lib/scenarios/tables/<cli>.ts), shared by
 * `drover verify` (against the CLI a user has installed) and the lab (against the pinned versions,
 * recording fixtures). A table is data: which model stand-in the CLI talks to, how to seed its
 * throwaway HOME (by name, lib/scenarios/homes.ts), and sessions of scenarios. A session is one
 * run of the CLI; its scenarios run in order in it. A scenario is
 *
 *   the stand-in's next replies (`script`) + input keys (`steps`)
 *   + the condition that proves the CLI got there (`until`, with a timeout)
 *   + the verdicts drover must see on that screen (`expect`).
 *
 * `until` is built from what the scenario itself controls: text it typed, a command or reply it
 * scripted, requests the stand-in received, a file the command created, the screen settling. The
 * CLI's own wording for the state (`defining`) is listed separately: the lab compares those lines
 * with its recorded fixtures, and verify waits a little for them and names the ones that are gone,
 * but never needs them to reach a screen. So a CLI release that rewords a screen is reached and
 * judged (and shows up as drift in the verdicts), not lost as a time-out.
 *
 * These strings are wait conditions and expected values, never detection markers: the detectors
 * read only the profile, and a profile that is wrong is exactly what the verdicts catch.
 */
import type { AnthropicReply } from "./standins/anthropic.ts";
import type { Step } from "./standins/step_script.ts";

/** Which model API the CLI speaks (and so which stand-in answers it). */
export type ApiKind = "anthropic" | "responses" | "chat" | "gemini";

/** DESIGN §5 pane states. */
export type ScreenState = "prompt" | "dialog" | "busy" | "idle" | "shell" | "unavailable";

export interface Size {
  cols: number;
  rows: number;
}

/** The size verify runs every CLI at (the lab also runs 80x24). */
export const VERIFY_SIZE: Size = { cols: 120, rows: 40 };

/** A condition on the pane, the stand-in and the project folder, as data. All parts must hold. */
export interface Wait {
  /** Every one of these substrings is on the screen. */
  shows?: string[];
  /** None of these substrings is on the screen. */
  hides?: string[];
  /** The stand-in received at least this many main-turn requests since the scenario began. */
  requests?: number;
  /** …and at most this many (a screen that lasts only until the CLI's next request). */
  maxRequests?: number;
  /** This file exists in the project folder (relative path): a command really ran. */
  file?: string;
  /** Once the rest holds: the screen unchanged for this long (ms). */
  stableMs?: number;
  /** Once the rest holds (and is stable): this much longer, for screens that animate (ms). */
  settleMs?: number;
}

/** One input step. */
export type Action =
  /** Literal text, no Enter. */
  | { type: string }
  /** Type the text, wait until it shows, pause, Enter (a burst ending in Enter reads as a paste). */
  | { submit: string }
  /** tmux key names, one at a time (Enter, Escape, BTab, C-u …). */
  | { keys: string[]; gapMs?: number }
  /** `drover approve` on the pane, through the real gate (§6). */
  | { approve: true }
  /** Wait this long (ms). */
  | { pause: number }
  /** Wait until this holds before the next step (a screen on the way, not judged). */
  | { await: Wait; timeoutMs?: number };

/** The verdicts a screen must show. */
export interface Expect {
  /** The §5 state. Omitted only for a scenario judged by its approval outcome. */
  state?: ScreenState;
  /** Other `detect --json` verdicts by name; "*" = any value that is not null/false/"". */
  verdicts?: Record<string, unknown>;
  /** The gate's answer to the `approve` step: its outcome and the key it sent for option 1. */
  approve?: { outcome: "approved"; key: "1" | "Enter" };
}

/** A reply of the stand-in: the Anthropic stand-in's own replies (data, never `computed`), or the shared ones. */
export type ScriptStep = AnthropicReply | Step;

export interface Scenario {
  /** A name of {@link STANDARD_SCENARIOS} or a table's own extra one. */
  name: string;
  /** Steps queued on the stand-in before the input steps. */
  script?: ScriptStep[];
  steps?: Action[];
  until: Wait;
  /** The CLI's own wording that defines this state (lab fixtures compare these lines). */
  defining?: string[];
  /** How long `until` may take (default 30 s). */
  timeoutMs?: number;
  expect: Expect;
  /** The lab's fixture name for this screen when it differs from `name`. */
  fixture?: string;
  /** Free-form facts for the lab's PROVENANCE.md. */
  notes?: string;
}

/** One run of the CLI: a fresh throwaway HOME and project, a fresh stand-in, scenarios in order. */
export interface Session {
  name: string;
  /** Extra environment for the CLI (e.g. a shorter retry count). */
  env?: Record<string, string>;
  /** Extra argv after the table's own. */
  args?: string[];
  /** Files created in the project folder before start (relative path → content). */
  files?: Record<string, string>;
  /** Settings merged into the CLI's own settings file (e.g. a retry count; Qwen Code's recipe). */
  settings?: Record<string, unknown>;
  /**
   * The session exists only from this CLI version on: an older version reports each of its
   * scenarios as skipped, saying `why`. A version that cannot be read runs it.
   */
  since?: { version: string; why: string };
  scenarios: Scenario[];
}

/** How a scenario of the standard set that the CLI cannot be driven into is reported. */
export type Skipped = Record<string, string>;

export interface ScenarioTable {
  /** drover's CLI name (the profile that judges the screens, the command verify looks for). */
  cli: string;
  /** The lab's id for this CLI (tests/fixtures/<lab>/<version>/). */
  lab: "claude-code" | "codex" | "gemini" | "qwen" | "opencode" | "copilot" | "cline";
  api: ApiKind;
  /** Throwaway HOME recipe (lib/scenarios/homes.ts). */
  home: "claude" | "codex" | "gemini" | "qwen" | "opencode" | "copilot" | "cline";
  /** argv after the executable, for every session. */
  args: string[];
  /** Proof the CLI is up and takes keys, after start. */
  ready: Wait;
  /** How long start-up may take (ms). */
  readyTimeoutMs: number;
  sessions: Session[];
  /** Standard scenarios this CLI cannot be driven into against a stand-in, and why. */
  skipped: Skipped;
}

/**
 * The scenario set every table covers, each either as a scenario or in `skipped` (DESIGN §11;
 * issue 11). Order is the order reports list them in.
 */
export const STANDARD_SCENARIOS = [
  "ready",
  "typed-input",
  "busy",
  "interrupted",
  "bash-prompt",
  "approve",
  "bash-output",
  "file-prompt",
  "escape-rejected",
  "narration",
  "retrying",
  "auth-failure",
  "out-of-credit",
] as const;
