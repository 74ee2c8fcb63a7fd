/**
 * The detector verdicts the drive loop reads, and how it reads them: defensively (a missing field
 * is "not seen"), and whether the command stands alone enough to be approved.
 */
import { tailOf } from "../detect/screen.ts";

/** The detector verdicts the loop reads (a subset of lib/detect's, by the §7 field names). */
export interface DriveVerdicts {
  state: string;
  live_prompt: boolean;
  permission_prompt: boolean;
  mid_response: boolean;
  /** Background work still pending after the turn (lib/detect `background`), or null/absent. */
  background?: string | null;
  input_box: string | null;
  command: string | null;
  file_path: string | null;
  /** The line that says the CLI cannot serve (quota, auth …), or null. */
  cli_unavailable: string | null;
  /**
   * Lines of the screen block the command sits in (command + description), as lib/detect reads
   * it (`command_block`); null when the command is not visible on a line of its own.
   */
  command_block?: number | null;
  /** A usage-limit banner (lib/detect `limit`), or null/absent. */
  limit?: string | null;
  /** When that limit resets (ISO 8601), or null/absent. */
  limit_resets_at?: string | null;
  /** The option of a live usage-limit menu (lib/detect `limit_menu`), or null/absent. */
  limit_menu?: string | null;
  /** An input line is visible (empty or not). */
  input_line?: boolean;
  /** The bottom region's non-blank lines, decoration stripped (to place a banner in the transcript). */
  tail?: string[];
  /** Read with the capture: the pane's window has synchronize-panes on (no key may go there). */
  synchronized?: boolean;
}

/** Most lines a command's block may have to be approved: the command and a description. */
export const MAX_COMMAND_BLOCK = 2;

// deno-lint-ignore no-explicit-any
type Loose = any;

/** Read lib/detect's verdicts defensively: a missing field is "not seen", never a crash. */
export function toDriveVerdicts(raw: unknown, plain?: string): DriveVerdicts {
  const v = (raw ?? {}) as Loose;
  const str = (x: unknown): string | null => typeof x === "string" && x.trim() !== "" ? x : null;
  let unavailable: string | null = null;
  if (typeof v.cli_unavailable === "string") unavailable = str(v.cli_unavailable);
  else if (v.cli_unavailable === true) unavailable = "(cli unavailable)";
  else if (v.cli_unavailable && typeof v.cli_unavailable === "object") {
    unavailable = str(v.cli_unavailable.line) ?? str(v.cli_unavailable.text) ?? "(cli unavailable)";
  }
  // A usage-limit banner, or the limit menu, is a CLI that cannot serve, whatever the profile's
  // unavailable markers say.
  unavailable ??= str(v.limit) ?? str(v.limit_menu);
  return {
    state: typeof v.state === "string" ? v.state : "unknown",
    live_prompt: v.live_prompt === true,
    permission_prompt: v.permission_prompt === true,
    mid_response: v.mid_response === true,
    background: str(v.background),
    input_box: str(v.input_box),
    command: str(v.command),
    file_path: str(v.file_path),
    cli_unavailable: unavailable,
    limit: str(v.limit),
    limit_resets_at: str(v.limit_resets_at),
    limit_menu: str(v.limit_menu),
    input_line: v.input_line === true,
    // lib/detect's own reading of the command's block; missing means not seen (never approved)
    command_block: typeof v.command_block === "number" ? v.command_block : null,
    ...(plain === undefined ? {} : { tail: tailOf(plain) }),
  };
}

/** The command is visible on its own line, in a block of at most command + description. */
export function commandStandsAlone(v: DriveVerdicts): boolean {
  return v.command_block !== null && v.command_block !== undefined &&
    v.command_block <= MAX_COMMAND_BLOCK;
}
