/**
 * The command tree: each command's spec (./command_specs.ts) with the code it runs. A command's
 * code is imported (`load`) only when that command runs, so `--version`, `--help` and every
 * command pay only for what they use. lib/cli/dispatch.ts parses argv against this tree, prints
 * help and usage errors, and runs the chosen command's `action`.
 *
 * Adding a command: its spec in command_specs.ts (`name`, `help`, `schema`, `args`, `options`,
 * `as const satisfies Entry`), one `leaf(spec.X, () => import("./<name>.ts"))` below, and
 * lib/cli/<name>.ts exporting `action(inv: Invocation<typeof X>): Promise<CommandResult<XData>>`
 * (see ./invocation.ts; XData is the command's contract in lib/contracts). A group (`drover clis
 * list`) is an entry with `commands` instead of `load`.
 *
 * Adding a flag: one line in the command's `options`:
 *   { flags: "--name <value>", help: "…" }    a value; inv.opts.name is a string (or absent)
 *   { flags: "--dry-run", help: "…" }         a boolean; inv.opts.dryRun is true (or absent)
 *   { flags: "--no-probe", help: "…" }        a negation; inv.opts.probe is false (or absent)
 *   plus `choices: [...]` (a choice), `default: "x"` and `required: true` (always set),
 *   `repeatable: true` (a list). Keys are the long name in camelCase. Arguments:
 *   `{ arg: "<target>" | "[file]" | "[text...]" }`, read as inv.args.target (a string), .file (or
 *   absent), .text (a list). The types follow from the spec (lib/deps/argv.ts OptionsOf, ArgsOf).
 */
import * as spec from "./command_specs.ts";
import * as hidden from "./command_specs_internal.ts";
import type { CommandModule, Entry } from "./invocation.ts";

export type { Entry } from "./invocation.ts";

/**
 * A command of the tree: its spec, and the code that runs it, which reads the options and
 * arguments that spec yields (`action(inv: Invocation<typeof SPEC>)`).
 */
function leaf<S extends Entry>(spec: S, load: () => Promise<CommandModule<S>>): Entry {
  return { ...spec, load };
}

export const ROOT: Entry = {
  name: "drover",
  help: "Keep AI coding-agent CLIs running unattended inside tmux.",
  options: [
    { flags: "--version", help: "print the drover version" },
    { flags: "--config <path>", help: "configuration file (default: discovered, see README)" },
    { flags: "-L, --socket-name <name>", help: "tmux server socket name (tmux -L)" },
    { flags: "-S, --socket-path <path>", help: "tmux server socket path (tmux -S)" },
    { flags: "--json", help: "print one JSON envelope instead of human output" },
    { flags: "--no-color", help: "disable colour in human output" },
  ],
  commands: [
    leaf(spec.LAUNCH, () => import("./launch.ts")),
    leaf(spec.READ, () => import("./read.ts")),
    {
      name: "clis",
      help: "the agent CLIs drover can launch",
      commands: [
        leaf(spec.CLIS_LIST, () => import("./clis.ts")),
      ],
    },
    leaf(spec.WAIT, () => import("./wait.ts")),
    leaf(spec.SEND, () => import("./send.ts")),
    leaf(hidden.PROMPT_PROFILE, () => import("./prompt_profile.ts")),
    leaf(hidden.CLASSIFY, () => import("./classify.ts")),
    leaf(hidden.CLAIM_PATHS, () => import("./claim_paths.ts")),
    {
      name: "profile",
      help: "inspect prompt-shape profiles",
      commands: [
        leaf(spec.PROFILE_TEST, () => import("./profile_test_cmd.ts")),
        leaf(spec.PROFILE_SHOW, () => import("./profile.ts").then((m) => ({ action: m.show }))),
        leaf(spec.PROFILE_LIST, () => import("./profile.ts").then((m) => ({ action: m.list }))),
      ],
    },
    {
      name: "config",
      help: "configuration",
      commands: [
        leaf(spec.CONFIG_CHECK, () => import("./config_check.ts")),
      ],
    },
    leaf(spec.DETECT, () => import("./detect.ts")),
    leaf(spec.PANES, () => import("./panes.ts")),
    leaf(spec.CAPTURE, () => import("./capture.ts")),
    leaf(spec.APPROVE, () => import("./approve.ts")),
    leaf(spec.VERIFY, () => import("./verify.ts")),
    leaf(spec.SWEEP_SCRIPT, () => import("./sweep_script.ts")),
    leaf(spec.SKILL, () => import("./skill.ts")),
    leaf(spec.DRIVE, () => import("./drive.ts")),
  ],
};
