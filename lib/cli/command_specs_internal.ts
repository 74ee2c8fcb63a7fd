/**
 * The specs of the hidden commands sweep.sh calls (`__prompt-profile`, `__classify`,
 * `__claim-paths`), written as ./command_specs.ts says.
 */
import type { Entry } from "./invocation.ts";

export const PROMPT_PROFILE = {
  name: "__prompt-profile",
  hidden: true,
  help: "print the resolved prompt profile as POSIX EREs (for sweep.sh)",
  schema: "drover.prompt-profile.v1",
  options: [
    {
      flags: "--cli <name>",
      help: "CLI whose profile to resolve (default: default_cli, else claude)",
    },
    { flags: "--field <field>", help: "print only this field, as one line" },
    { flags: "--format <format>", help: "line | tsv | json" },
    {
      flags: "--format-version <n>",
      help: "the format version the reader expects (sweep.sh passes it)",
    },
  ],
} as const satisfies Entry;

export const CLASSIFY = {
  name: "__classify",
  hidden: true,
  help: "judge a capture on stdin as drive --approve allowlist would (for sweep.sh)",
  schema: "drover.classify.v1",
  options: [
    {
      flags: "--cli <name>",
      help: "CLI whose profile judges the capture (default: default_cli, else claude)",
    },
    {
      flags: "--allow <prefix>",
      help: "allowlisted command prefix (repeatable; replaces [drive].allow); code that " +
        "runs code (node -e, git -c, npx …) only by an entry equal to the whole command",
      repeatable: true,
    },
    {
      flags: "--styled <file>",
      help: "the styled capture (capture-pane -p -e -J) of the same screen",
    },
    { flags: "--title <title>", help: "the pane title" },
    {
      flags: "--format-version <n>",
      help: "the format version the reader expects (sweep.sh passes it)",
    },
  ],
} as const satisfies Entry;

export const CLAIM_PATHS = {
  name: "__claim-paths",
  hidden: true,
  help: "print where a pane's approve claim lives, one path a line (for sweep.sh)",
  schema: "drover.claim-paths.v1",
  args: [{ arg: "<pane>", help: "tmux pane id (%12)" }],
  options: [
    {
      flags: "--format-version <n>",
      help: "the format version the reader expects (sweep.sh passes it)",
    },
  ],
} as const satisfies Entry;
