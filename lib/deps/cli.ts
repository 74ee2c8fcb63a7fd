/**
 * One home for the argument parser, so a later switch (to @std/cli, say) is a one-file change.
 *
 * The parser is our own small layer (lib/deps/argv.ts), chosen by measurement (Deno 2.9.6, median
 * of 25 `deno run` starts of a file that only imports the parser, against an empty file at 13 ms):
 *   commander 15.1.0 +18 ms, yargs-parser 22 +19 ms, @pkgjs/parseargs +18 ms, mri 1.2.0 +15 ms
 *   and minimist +15 ms (CommonJS: Deno loads its Node-compat layer for them), citty 0.2.2 +10 ms,
 *   node:util parseArgs +4 ms (a node: module), getopts 2.3.0 +1 ms, @bomb.sh/args 0.3.1 +0.6 ms.
 * The two cheap pure-ESM parsers do not keep our command-line semantics: both read
 * `--nudge -x` as an empty nudge plus a flag `-x` (a title or nudge text may start with "-"),
 * cannot tell `--cli` (value missing) from `--cli=`, and @bomb.sh/args reads `--json` after `--`
 * as a flag and `-Lsock` as four flags. Around either we would still need the subcommand tree,
 * global options on both sides of the command, help, choices and suggestions — which is all the
 * rest of lib/deps/argv.ts and its "did you mean" hints in argv_suggest.ts (about 500 lines with
 * the help layout; no outside imports; nothing measurable to load).
 */
export type { ArgsOf, OptionsOf } from "./argv_types.ts";
export {
  type ArgSpec,
  type ArgValue,
  type CommandSpec,
  formatHelp,
  type OptionSpec,
  type OptionValue,
  parseArgv,
  type ParseResult,
} from "./argv.ts";
export { suggest } from "./argv_suggest.ts";
