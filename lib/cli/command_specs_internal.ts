/**
 * The specs of the hidden commands sweep.sh calls (`__prompt-profile`, `__classify`,
 * `__claim-paths`), written as ./command_specs.ts says.
 */
import type { Entry } from "./invocation.ts";
import { ALLOW, SWEEP_FORMAT_VERSION } from "./spec_options.ts";

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
    SWEEP_FORMAT_VERSION,
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
    ALLOW,
    {
      flags: "--styled <file>",
      help: "the styled capture (capture-pane -p -e -J) of the same screen",
    },
    { flags: "--title <title>", help: "the pane title" },
    SWEEP_FORMAT_VERSION,
  ],
} as const satisfies Entry;

export const CLAIM_PATHS = {
  name: "__claim-paths",
  hidden: true,
  help: "print where a pane's approve claim lives, one path a line (for sweep.sh)",
  schema: "drover.claim-paths.v1",
  args: [{ arg: "<pane>", help: "tmux pane id (%12)" }],
  options: [
    SWEEP_FORMAT_VERSION,
  ],
} as const satisfies Entry;
