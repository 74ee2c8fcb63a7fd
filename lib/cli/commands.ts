/**
 * The command table. Each subcommand module exports `register(program)`; adding a command is one
 * import and one line here.
 */
import type { Command } from "../deps/cli.ts";
import { register as launch } from "./launch.ts";
import { register as read } from "./read.ts";
import { register as clis } from "./clis.ts";
import { register as wait } from "./wait.ts";
import { register as send } from "./send.ts";

type Register = (program: Command) => void;

export const COMMANDS: Register[] = [
  launch,
  read,
  clis,
  wait,
  send,
];
