/**
 * Every command's spec: its name, help, schema, arguments and options — plain data, as commands.ts
 * says an entry is written. Each is declared `as const`, so the command's module reads its options
 * and arguments typed (`Invocation<typeof SPEC>`: lib/deps/argv.ts OptionsOf, ArgsOf) from the
 * same spec argv parses them with; commands.ts puts the specs in the tree with the code each one
 * loads. The hidden commands sweep.sh calls are in ./command_specs_internal.ts.
 * Help strings are plain text here on purpose: importing a module for a constant would load it on
 * every start. tests/unit/cli_args_test.ts checks such strings against their constants.
 */
import type { Entry } from "./invocation.ts";
import { ALLOW, CLI_ASSUMED, TARGET } from "./spec_options.ts";

export const LAUNCH = {
  name: "launch",
  help:
    "start an agent CLI in a new tmux window or an exact split, with an optional kickoff prompt",
  schema: "drover.launch.v1",
  options: [
    {
      flags: "--cli <name>",
      help: "the [clis.<name>] profile or built-in recipe to launch",
      required: true,
    },
    { flags: "--prompt <source>", help: 'kickoff prompt source: only "-" (stdin, piped)' },
    { flags: "--window", help: "a new window (the default placement)" },
    {
      flags: "--split <direction>",
      help: "split the --anchor pane",
      choices: ["right", "left", "up", "down"],
    },
    { flags: "--anchor <target>", help: "the pane to split: %id or session:window.pane" },
    { flags: "--background", help: "leave the selected window and pane as they are" },
    { flags: "--cwd <dir>", help: "working directory of the agent" },
    { flags: "--title <title>", help: "pane title (and window name for a new window)" },
    {
      flags: "--session <name>",
      help: "session for the new window (created when it does not exist)",
    },
  ],
} as const satisfies Entry;

export const READ = {
  name: "read",
  help: "print a pane's text (wrapped lines joined), optionally once it stops changing",
  schema: "drover.read.v1",
  args: [TARGET],
  options: [
    { flags: "--last <n>", help: "only the last N lines (scrollback included)" },
    { flags: "--wait-stable", help: "wait until the text is unchanged for --stable-period" },
    {
      flags: "--stable-interval <ms>",
      help: "sampling interval, 50-5000 ms (default 200)",
    },
    {
      flags: "--stable-period <ms>",
      help: "unchanged this long counts as stable, 100-60000 ms (default 800)",
    },
    {
      flags: "--wait-timeout <s>",
      help: "give up after this many seconds, 1-300 (default 10)",
    },
  ],
} as const satisfies Entry;

export const CLIS_LIST = {
  name: "list",
  help: "every CLI profile, enabled or not, with availability from a login-shell probe (advisory)",
  schema: "drover.clis.v1",
  options: [
    { flags: "--refresh", help: "ignore cached availability and probe again" },
    {
      flags: "--no-probe",
      help: "only report cached availability (unknown where nothing is cached)",
    },
  ],
} as const satisfies Entry;

export const WAIT = {
  name: "wait",
  help: "wait until a pane's agent is ready, idle, at a prompt, busy, changed or exited",
  schema: "drover.wait.v1",
  args: [TARGET],
  options: [
    { flags: "--until <condition>", help: "ready|idle|prompt|busy|changed|exit" },
    { flags: "--timeout <s>", help: "seconds, 1-3600 (default 60)" },
    CLI_ASSUMED,
  ],
} as const satisfies Entry;

export const SEND = {
  name: "send",
  help: "type text into an idle agent's input box, press Enter, verify it was taken",
  schema: "drover.send.v1",
  args: [TARGET, {
    arg: "[text...]",
    help: "the text (joined with spaces); omitted = read stdin",
  }],
  options: [CLI_ASSUMED],
} as const satisfies Entry;

export const PROFILE_TEST = {
  name: "test",
  help: "judge a folder of your own captured screens (prompt-*.txt, busy-*.txt, idle-*.txt, " +
    "dialog-*.txt, unavailable-*.txt, shell-*.txt; optional *.ansi.txt) with a CLI's profile. " +
    "To check an unusual setup (status line, theme, pane size, background tasks), save each " +
    "screen with `drover capture PANE --save DIR --as STATE`, run this on DIR, and attach " +
    "the mismatching .txt/.ansi.txt pair to an issue (docs/profiles.md)",
  schema: "drover.profile-test.v1",
  args: [{
    arg: "<dir>",
    help: "folder of screens named <state>-<anything>.txt (+ <state>-<anything>.ansi.txt)",
  }],
  options: [{
    flags: "--cli <name>",
    help: "CLI whose resolved profile judges the screens (default: default_cli, else claude)",
  }],
} as const satisfies Entry;

export const PROFILE_SHOW = {
  name: "show",
  help: "every field of a CLI's resolved profile",
  schema: "drover.profile.v1",
  args: [{ arg: "[name]", help: "CLI name (default: default_cli, else claude)" }],
  options: [{ flags: "--sources", help: "show the layer each field came from" }],
} as const satisfies Entry;

export const PROFILE_LIST = {
  name: "list",
  help: "shipped profiles and configured CLIs",
  schema: "drover.profile-list.v1",
} as const satisfies Entry;

export const CONFIG_CHECK = {
  name: "check",
  help: "validate the configuration drover would use",
  schema: "drover.config-check.v1",
} as const satisfies Entry;

export const DETECT = {
  name: "detect",
  help: "every detector verdict for one capture",
  schema: "drover.detect.v1",
  args: [{ arg: "[file]", help: "plain capture (capture-pane -p -J); `-` or omitted: stdin" }],
  options: [
    {
      flags: "--cli <name>",
      help: "CLI whose profile judges the capture (default: default_cli, else claude)",
    },
    {
      flags: "--styled <file>",
      help: "the styled capture (capture-pane -p -e -J) of the same screen",
    },
    { flags: "--title <title>", help: "the pane title (mode markers read it too)" },
    {
      flags: "--now <instant>",
      help:
        "read a printed usage-limit reset against this ISO 8601 instant (when the capture was taken; default: now)",
    },
  ],
} as const satisfies Entry;

export const PANES = {
  name: "panes",
  help: "list panes with their CLI (and how it was identified), role, state and mode",
  schema: "drover.panes.v1",
  options: [
    { flags: "--session <name>", help: "only this session (exact name)" },
    { flags: "--cli <name>", help: "CLI assumed for panes nothing else identifies" },
    {
      flags: "--format <format>",
      help: "output format",
      choices: ["human", "tsv"],
      default: "human",
    },
    {
      flags: "--format-version <n>",
      help: "the tsv format version the reader expects (sweep.sh)",
    },
    {
      flags: "--watch",
      help: "a live board, redrawn in place until q (the plain table when not a terminal)",
    },
    { flags: "--interval <duration>", help: "--watch refresh period, 250ms-10m (default 2s)" },
    {
      flags: "--events <file>",
      help: "--watch: each pane's last event from this drive --events file",
    },
  ],
} as const satisfies Entry;

export const CAPTURE = {
  name: "capture",
  help: "print the capture drover would judge for a pane (visible screen, -J)",
  schema: "drover.capture.v1",
  args: [TARGET],
  options: [
    {
      flags: "--lines <n>",
      help: "also include up to N lines of scrollback above the screen",
    },
    CLI_ASSUMED,
    {
      flags: "--save <dir>",
      help: "also save the screen in DIR for `drover profile test` (needs --as)",
    },
    {
      flags: "--as <state>",
      help: "the state the screen shows: prompt, dialog, busy, idle, shell, unavailable",
    },
  ],
} as const satisfies Entry;

export const APPROVE = {
  name: "approve",
  help: "answer option 1 of a live permission prompt, through the compiled safety gate",
  schema: "drover.approve.v1",
  args: [TARGET],
  options: [
    {
      flags: "--dry-run",
      help: "judge and report what would be pressed; send nothing, take no claim",
    },
    CLI_ASSUMED,
    {
      flags: "--orchestrator <target>",
      help: "the orchestrator pane (default: [drive].orchestrator)",
    },
  ],
} as const satisfies Entry;

export const VERIFY = {
  name: "verify",
  help:
    "prove each CLI's profile against the CLI installed here: real screens, a throwaway HOME, " +
    "a local model stand-in (no network, no API key)",
  schema: "drover.verify.v1",
  options: [
    {
      flags: "--cli <name>",
      help: "a CLI to verify (repeatable; default: every CLI verify knows that is installed)",
      repeatable: true,
    },
    {
      flags: "--all",
      help: "every CLI verify knows (the default); not installed ones are listed",
    },
    {
      flags: "--save <dir>",
      help: "write every screen (plain + styled) and a manifest to DIR/<cli>/ for profile test",
    },
    {
      flags: "--keep-going",
      help: "run every scenario and CLI even after a drift (default: stop at the first)",
    },
  ],
} as const satisfies Entry;

export const SWEEP_SCRIPT = {
  name: "sweep-script",
  help: "print the bundled sweep.sh helper (save it, chmod +x, run it)",
  schema: "drover.sweep-script.v1",
} as const satisfies Entry;

export const SKILL = {
  name: "skill",
  help: "print the bundled Agent Skill for orchestrating agents, or --install it",
  schema: "drover.skill.v1",
  options: [
    { flags: "--install", help: "write DIR/drover/SKILL.md instead of printing it" },
    { flags: "--dir <dir>", help: "skills folder (default: the --cli's, ~/.claude/skills)" },
    {
      flags: "--cli <name>",
      help: "whose user skills folder: claude (default), gemini, qwen, codex, opencode",
    },
    { flags: "--force", help: "overwrite a different existing SKILL.md" },
  ],
} as const satisfies Entry;

export const DRIVE = {
  name: "drive",
  help:
    "supervise a session unattended: submit stranded input, approve allowlisted prompts, escalate the rest, nudge the orchestrator",
  schema: "drover.drive.v1",
  options: [
    { flags: "--session <name>", help: "tmux session to drive (default: [drive].session)" },
    { flags: "--once", help: "run one tick and exit (for cron / systemd timers)" },
    { flags: "--interval <duration>", help: "time between ticks (default 15s)" },
    {
      flags: "--orchestrator <target>",
      help: "the orchestrator pane (default: [drive].orchestrator, else the session's first pane)",
    },
    {
      flags: "--approve <mode>",
      help: "none | allowlist (default: [drive].approve, else none)",
    },
    ALLOW,
    {
      flags: "--nudge <text>",
      help: "text typed into the idle orchestrator (with --nudge-every)",
    },
    {
      flags: "--nudge-every <duration>",
      help: "nudge the orchestrator after it has been idle this long (default 10m)",
    },
    {
      flags: "--dedup-window <duration>",
      help: "report each escalation at most once per window (default 5m)",
    },
    { flags: "--events <file>", help: "append drover.event.v1 JSON lines to this file" },
    {
      flags: "--on-escalate <cmd>",
      help: "shell command run for each escalation (event JSON on stdin and in $DROVER_EVENT)",
    },
    {
      flags: "--hook-timeout <duration>",
      help: "end --on-escalate (and what it started) after this long (default 5s)",
    },
    {
      flags: "--state <dir>",
      help: "state directory (default: $XDG_STATE_HOME/drover or ~/.local/state/drover)",
    },
    {
      flags: "--settle <duration>",
      help: "pause between typing a nudge and Enter (default: the CLI's submit delay, 1500ms)",
    },
    {
      flags: "--resume <text>",
      help:
        "after a usage limit resets, type this once into the pane (default: [drive].resume, else off)",
    },
    {
      flags: "--resume-margin <duration>",
      help: "how long after the printed reset to resume (default 2m)",
    },
    {
      flags: "--now <instant>",
      help: "tests only: the clock starts at this ISO 8601 instant",
      hidden: true,
    },
  ],
} as const satisfies Entry;
