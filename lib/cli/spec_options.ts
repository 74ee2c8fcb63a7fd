/**
 * Arguments and options several command specs share, word for word (plain data, as
 * ./command_specs.ts says a spec is written).
 */

export const TARGET = { arg: "<target>", help: "pane: %id or session:window.pane" } as const;

export const CLI_ASSUMED = {
  flags: "--cli <name>",
  help: "CLI assumed when nothing else identifies the pane",
} as const;

/** drive's allowlist, and sweep.sh's __classify judging a capture as drive would. */
export const ALLOW = {
  flags: "--allow <prefix>",
  help: "allowlisted command prefix (repeatable; replaces [drive].allow); code that " +
    "runs code (node -e, git -c, npx …) only by an entry equal to the whole command",
  repeatable: true,
} as const;

/** The hidden commands' format handshake with sweep.sh. */
export const SWEEP_FORMAT_VERSION = {
  flags: "--format-version <n>",
  help: "the format version the reader expects (sweep.sh passes it)",
} as const;
