/** Shared glue for the dispatcher: every failure becomes a DroverError, never a stack trace. */
import { DroverError } from "../errors.ts";

/**
 * Unknown exceptions are reported as INTERNAL with their message (a stack only with
 * DROVER_DEBUG=1).
 */
export function asDroverError(e: unknown): DroverError {
  if (e instanceof DroverError) return e;
  if (Deno.env.get("DROVER_DEBUG") === "1" && e instanceof Error && e.stack) {
    Deno.stderr.writeSync(new TextEncoder().encode(e.stack + "\n"));
  }
  const message = e instanceof Error ? e.message : String(e);
  return new DroverError("INTERNAL", `unexpected failure: ${message}`, { cause: e });
}
