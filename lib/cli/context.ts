/**
 * Shared glue for subcommand modules: read the global options and run a command body so that
 * every DroverError becomes an envelope/exit code and nothing else leaks a stack trace.
 */
import type { Command } from "../deps/cli.ts";
import { DroverError } from "../errors.ts";
import { type CommandResult, emitError, emitResult, type GlobalOptions } from "./output.ts";

export function globalsOf(cmd: Command): GlobalOptions {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  const g: GlobalOptions = { json: o.json === true, color: o.color !== false };
  if (typeof o.config === "string") g.config = o.config;
  if (typeof o.socketName === "string") g.socketName = o.socketName;
  if (typeof o.socketPath === "string") g.socketPath = o.socketPath;
  if (Deno.env.get("NO_COLOR")) g.color = false;
  return g;
}

/** The process exit code chosen by the last command run (main.ts reads it). */
export const exitState = { code: 0 };

/**
 * Run one command body. `schema` is e.g. "drover.detect.v1". Unknown exceptions are reported as
 * INTERNAL with their message (a stack only with DROVER_DEBUG=1).
 */
export async function run<T>(
  cmd: Command,
  schema: string,
  body: (g: GlobalOptions) => Promise<CommandResult<T>> | CommandResult<T>,
): Promise<void> {
  const g = globalsOf(cmd);
  try {
    exitState.code = emitResult(g, schema, await body(g));
  } catch (e) {
    exitState.code = emitError(g, schema, asDroverError(e));
  }
}

export function asDroverError(e: unknown): DroverError {
  if (e instanceof DroverError) return e;
  if (Deno.env.get("DROVER_DEBUG") === "1" && e instanceof Error && e.stack) {
    Deno.stderr.writeSync(new TextEncoder().encode(e.stack + "\n"));
  }
  const message = e instanceof Error ? e.message : String(e);
  return new DroverError("INTERNAL", `unexpected failure: ${message}`, { cause: e });
}
