/**
 * drover: keeps AI coding-agent CLIs running unattended inside tmux.
 * Entry point: parse argv, dispatch to a subcommand, map errors to exit codes.
 */
import { Command, CommanderError } from "./lib/deps/cli.ts";
import { COMMANDS } from "./lib/cli/commands.ts";
import { exitState } from "./lib/cli/context.ts";
import { writeErr, writeOut } from "./lib/cli/output.ts";
import { VERSION } from "./lib/version.ts";

export function buildProgram(): Command {
  const program = new Command("drover")
    .description("Keep AI coding-agent CLIs running unattended inside tmux.")
    .version(VERSION, "--version", "print the drover version")
    .helpOption("-h, --help", "show help")
    .option("--config <path>", "configuration file (default: discovered, see README)")
    .option("-L, --socket-name <name>", "tmux server socket name (tmux -L)")
    .option("-S, --socket-path <path>", "tmux server socket path (tmux -S)")
    .option("--json", "print one JSON envelope instead of human output")
    .option("--no-color", "disable colour in human output")
    .showSuggestionAfterError(true)
    .configureOutput({ writeOut, writeErr })
    .exitOverride();
  for (const register of COMMANDS) register(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  exitState.code = 0;
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version") return 0;
      if (e.code === "commander.help") return 0;
      // commander already printed "error: …"; a usage error is exit 2.
      return 2;
    }
    throw e;
  }
  return exitState.code;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
