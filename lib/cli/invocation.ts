/** What a command's code receives from the argument layer, and what it must export. */
import type { ArgValue, CommandSpec, OptionValue } from "../deps/cli.ts";
import type { CommandResult, GlobalOptions } from "./output.ts";

export interface Invocation {
  /** Positional arguments by name (`target`, `file` …); a variadic one is a list. */
  args: Record<string, ArgValue>;
  /** The command's own options by camelCase key (`dryRun`, `formatVersion` …). */
  opts: Record<string, OptionValue | undefined>;
  /** The global options. */
  g: GlobalOptions;
}

/**
 * A command module (lib/cli/<name>.ts): its body; printing and exit codes are the caller's. Each
 * module's own `action` returns its contract's data type (lib/contracts `DataOf`).
 */
export interface CommandModule {
  action(inv: Invocation): Promise<CommandResult> | CommandResult;
}

/** One entry of the command table (commands.ts): a command's spec, its schema and its code. */
export interface Entry extends CommandSpec {
  /** The `drover.<command>.v1` schema of the command's --json envelope (errors included). */
  schema?: string;
  /** The command's code; imported only when it runs. */
  load?: () => Promise<CommandModule>;
  commands?: readonly Entry[];
}
