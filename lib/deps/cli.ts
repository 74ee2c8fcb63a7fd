// One home for the argument parser, so a later switch to @std/cli is a one-file change.
export { Command, CommanderError, InvalidArgumentError, Option } from "commander";
