/**
 * Typed errors and the exit codes they map to. Every user-facing failure is a DroverError: main.ts
 * prints its message (or the JSON envelope) and exits with its code, never a stack trace.
 */

/** Exit codes shared by every command. Command-specific codes live beside the command. */
export const EXIT = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  TMUX_UNAVAILABLE: 3,
  TARGET_NOT_FOUND: 4,
  PROFILE_NOT_FOUND: 5,
  CREATE_FAILED: 6,
  WAIT_TIMEOUT: 7,
  SEND_REFUSED: 8,
  SEND_FAILED: 9,
  PANES_SYNCHRONIZED: 19,
  STATE_UNWRITABLE: 74,
} as const;

export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "EMPTY_INPUT"
  | "CONFIG_INVALID"
  | "PROFILE_INVALID"
  | "PROFILE_NOT_FOUND"
  | "PROFILE_NOT_UNIQUE"
  | "TARGET_NOT_FOUND"
  | "CREATE_FAILED"
  | "WAIT_TIMEOUT"
  | "SEND_REFUSED"
  | "SEND_FAILED"
  | "TMUX_UNAVAILABLE"
  | "TMUX_FAILED"
  | "FORMAT_MISMATCH"
  | "SESSION_GONE"
  | "DRIVE_LOCKED"
  | "PANES_SYNCHRONIZED"
  | "STATE_UNWRITABLE"
  | "IO_FAILED"
  | "INTERNAL";

const DEFAULT_EXIT: Record<ErrorCode, number> = {
  INVALID_ARGUMENT: EXIT.USAGE,
  EMPTY_INPUT: EXIT.USAGE,
  CONFIG_INVALID: EXIT.USAGE,
  PROFILE_INVALID: EXIT.USAGE,
  PROFILE_NOT_FOUND: EXIT.PROFILE_NOT_FOUND,
  PROFILE_NOT_UNIQUE: EXIT.PROFILE_NOT_FOUND,
  TARGET_NOT_FOUND: EXIT.TARGET_NOT_FOUND,
  CREATE_FAILED: EXIT.CREATE_FAILED,
  WAIT_TIMEOUT: EXIT.WAIT_TIMEOUT,
  SEND_REFUSED: EXIT.SEND_REFUSED,
  SEND_FAILED: EXIT.SEND_FAILED,
  TMUX_UNAVAILABLE: EXIT.TMUX_UNAVAILABLE,
  TMUX_FAILED: EXIT.FAILURE,
  FORMAT_MISMATCH: EXIT.USAGE,
  SESSION_GONE: 69,
  DRIVE_LOCKED: 73,
  PANES_SYNCHRONIZED: EXIT.PANES_SYNCHRONIZED,
  STATE_UNWRITABLE: EXIT.STATE_UNWRITABLE,
  IO_FAILED: EXIT.FAILURE,
  INTERNAL: EXIT.FAILURE,
};

export interface DroverErrorOptions {
  exitCode?: number;
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class DroverError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: DroverErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.exitCode = options.exitCode ?? DEFAULT_EXIT[code];
    this.details = options.details;
  }

  override get name(): string {
    return "DroverError";
  }
}

/** A usage error: wrong flags or values. Exit 2. */
/**
 * A key would be broadcast: the window has tmux synchronize-panes on (issue 16). Exit 19.
 * `window` null: the global window option is on, so every new window would be synchronized.
 */
export function panesSynchronized(what: string, window: string | null): DroverError {
  const where = window === null
    ? "the global window option synchronize-panes is on, so every new window would be " +
      "synchronized (turn it off: `tmux set-option -g -w synchronize-panes off`)"
    : `window ${window} has tmux synchronize-panes on, so a key sent to one of its panes would be ` +
      `typed into every synchronized pane (turn it off: ` +
      `\`tmux set-option -w -t ${window} synchronize-panes off\`)`;
  return new DroverError("PANES_SYNCHRONIZED", `${what}: ${where}; nothing was done`, {
    details: { window },
  });
}

export function invalidArgument(message: string, details?: Record<string, unknown>): DroverError {
  return new DroverError("INVALID_ARGUMENT", message, details ? { details } : {});
}
