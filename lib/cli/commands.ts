/**
 * The command table. Each subcommand module exports `register(program)`; adding a command is one
 * import and one line here.
 */
import type { Command } from "../deps/cli.ts";

type Register = (program: Command) => void;

export const COMMANDS: Register[] = [];
