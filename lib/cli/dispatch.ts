/**
 * Parse argv against the command table, answer --version / --help / usage errors, and otherwise
 * import and run the one command chosen. Nothing else is loaded before a command runs.
 */
import { formatHelp, parseArgv, type ParseResult } from "../deps/cli.ts";
import { invalidArgument } from "../errors.ts";
import { VERSION } from "../version.ts";
import { type Entry, ROOT } from "./commands.ts";
import { asDroverError } from "./context.ts";
import { emitError, emitResult, type GlobalOptions, writeErr, writeOut } from "./output.ts";

/** The schema of a usage error's envelope when no command was chosen. */
export const USAGE_SCHEMA = "drover.usage.v1";

function globalsOf(p: ParseResult<Entry>): GlobalOptions {
  const o = p.globals;
  const g: GlobalOptions = { json: o.json === true, color: o.color !== false };
  if (typeof o.config === "string") g.config = o.config;
  if (typeof o.socketName === "string") g.socketName = o.socketName;
  if (typeof o.socketPath === "string") g.socketPath = o.socketPath;
  if (Deno.env.get("NO_COLOR")) g.color = false;
  return g;
}

function helpWidth(stream: typeof Deno.stdout | typeof Deno.stderr): number {
  try {
    if (stream.isTerminal()) return Deno.consoleSize().columns;
  } catch {
    // not a terminal after all
  }
  return 80;
}

/** Run drover with `argv` (without the program name); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const p = parseArgv(ROOT, argv);
  if (p.globals.version === true) {
    writeOut(VERSION + "\n");
    return 0;
  }
  if (p.help) {
    const out = p.help === "stdout" ? Deno.stdout : Deno.stderr;
    (p.help === "stdout" ? writeOut : writeErr)(formatHelp(p.path, helpWidth(out)));
    return 0;
  }
  const g = globalsOf(p);
  const cmd = p.path[p.path.length - 1];
  const schema = cmd.schema ?? USAGE_SCHEMA;
  if (p.error) {
    if (g.json) {
      const hint = p.error.suggestion ? ` (${p.error.suggestion.replace(/^D/, "d")})` : "";
      return emitError(g, schema, invalidArgument(p.error.message + hint));
    }
    writeErr(
      `error: ${p.error.message}\n` + (p.error.suggestion ? `(${p.error.suggestion})\n` : ""),
    );
    return 2;
  }
  if (!cmd.load) throw new Error(`command ${cmd.name} has no code`);
  try {
    const mod = await cmd.load();
    return emitResult(g, schema, await mod.action({ args: p.args, opts: p.opts, g }));
  } catch (e) {
    return emitError(g, schema, asDroverError(e));
  }
}
