/**
 * The only place that writes to stdout/stderr. Commands return data plus a human rendering; this
 * module turns that into either concise text or one JSON envelope.
 */
import { replaceControls } from "../base/control.ts";
import { DroverError } from "../errors.ts";
import { safeJson } from "../base/json.ts";

export interface GlobalOptions {
  config?: string;
  socketName?: string;
  socketPath?: string;
  json: boolean;
  color: boolean;
}

/** What a command hands back: its data, how a person reads it, and the exit code it implies. */
export interface CommandResult<T = unknown> {
  data: T;
  /** Lines for a person. Omitted → the data is printed as JSON even without --json. */
  human?: string | string[];
  /** Non-error outcomes with their own code (a refused approval, a timed-out stabilisation …). */
  exitCode?: number;
  /** Human lines for stderr (warnings) that never go to stdout. */
  warnings?: string[];
}

const encoder = new TextEncoder();

/**
 * Every byte, or nothing once the reader is gone: `drover panes | head` closes the pipe early, and
 * that is the reader's choice, not a failure worth a stack trace. The command still finishes and
 * exits with its own code.
 */
function writeAll(stream: typeof Deno.stdout | typeof Deno.stderr, text: string): void {
  const bytes = encoder.encode(text);
  try {
    for (let done = 0; done < bytes.length;) done += stream.writeSync(bytes.subarray(done));
  } catch (e) {
    if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
  }
}

export function writeOut(text: string): void {
  writeAll(Deno.stdout, text);
}

export function writeErr(text: string): void {
  writeAll(Deno.stderr, text);
}

/** Replace raw control characters in human output so a hostile capture cannot drive the terminal. */
export function printable(text: string): string {
  // Tab and newline are the layout of human output, not something a capture slipped in.
  return replaceControls(text, (c) => {
    if (c === "\t" || c === "\n") return c;
    const hex = c.charCodeAt(0).toString(16).padStart(2, "0");
    return `\\x${hex}`;
  });
}

export function emitResult<T>(
  opts: GlobalOptions,
  schema: string,
  result: CommandResult<T>,
): number {
  for (const w of result.warnings ?? []) writeErr(`warning: ${printable(w)}\n`);
  if (opts.json || result.human === undefined) {
    writeOut(safeJson({ ok: true, schema, data: result.data }) + "\n");
  } else {
    const lines = Array.isArray(result.human) ? result.human : [result.human];
    // Every human line is made printable here, whatever the command put in it (verdict text,
    // titles, captures): one place, so no command can forget it. printable() is idempotent.
    if (lines.length > 0) writeOut(lines.map(printable).join("\n") + "\n");
  }
  return result.exitCode ?? 0;
}

export function emitError(opts: GlobalOptions, schema: string, err: DroverError): number {
  if (opts.json) {
    const error: Record<string, unknown> = { code: err.code, message: err.message };
    if (err.details) error.details = err.details;
    writeOut(safeJson({ ok: false, schema, error }) + "\n");
  } else {
    writeErr(`error [${err.code}]: ${printable(err.message)}\n`);
  }
  return err.exitCode;
}
