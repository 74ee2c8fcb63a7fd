/** What a command's code receives from the argument layer, and what it must export. */
import type { ArgsOf, CommandSpec, OptionsOf } from "../deps/cli.ts";
import type { CommandResult, GlobalOptions } from "./output.ts";

/** What one command receives, typed by its spec (`Invocation<typeof SPEC>`, ./command_specs.ts). */
export interface Invocation<S extends CommandSpec = CommandSpec> {
  /** Positional arguments by name (`target`, `file` …); a variadic one is a list. */
  args: ArgsOf<S>;
  /** The command's own options by camelCase key (`dryRun`, `formatVersion` …). */
  opts: OptionsOf<S>;
  /** The global options. */
  g: GlobalOptions;
}

/**
 * A command module (lib/cli/<name>.ts): its body; printing and exit codes are the caller's. Its
 * own `action` takes its spec's invocation and returns its contract's data type (lib/contracts
 * `DataOf`). `action` is a method, so the tree can hold modules of different specs: the
 * dispatcher hands each one what argv parsed from that same spec, which is what `Invocation<S>`
 * spells, and commands.ts `leaf()` pairs every spec with its module.
 */
export interface CommandModule<S extends CommandSpec = CommandSpec> {
  action(inv: Invocation<S>): Promise<CommandResult> | CommandResult;
}

/** One entry of the command table (commands.ts): a command's spec, its schema and its code. */
export interface Entry extends CommandSpec {
  /** The `drover.<command>.v1` schema of the command's --json envelope (errors included). */
  schema?: string;
  /** The command's code; imported only when it runs. */
  load?: () => Promise<CommandModule>;
  commands?: readonly Entry[];
}
