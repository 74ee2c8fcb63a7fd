/**
 * The drive state on disk. Written atomically (a new temporary file, renamed over the old one) so a
 * crash or a concurrent reader never sees half a file, and never through a symlink: anything but a
 * regular file at the state path — a symlink, a FIFO, a directory — is refused with
 * STATE_UNWRITABLE (exit 74) before any key, and left as it is (lib/io/safe_file.ts).
 *
 * Read tolerantly otherwise: a damaged file, or fields that do not fit the schema
 * (state_schema.ts), are set aside with a warning (`state-reset`) and what cannot be trusted starts
 * fresh, because losing dedup windows once costs at most a repeated escalation. Writing is not
 * optional: a state that cannot be written stops the run before any key (run.ts), since every
 * later tick would repeat what the state was meant to remember.
 *
 * The schema is zod's, and zod costs a cron tick about 15 MB and tens of milliseconds to load. So
 * drover ends every file it writes with a checksum of the text before it (`,"written":"sha256:…"`):
 * a file that is exactly what drover wrote — the shape it wrote is the schema's by construction —
 * is taken as written, and anything else (edited, damaged, another writer's, an older drover's) is
 * held to the schema field by field. The checksum is no seal against someone who can write the
 * file (they could write a valid state as well); it only tells drover's own output from the rest.
 */
import { DroverError } from "../errors.ts";
import { describeBytes } from "../io/capped.ts";
import { NotRegularFile, readRegular, writeAtomic } from "../io/safe_file.ts";
import { type DriveState, freshState, MAX_STATE_BYTES, STATE_VERSION } from "./state.ts";

export interface LoadedState {
  state: DriveState;
  /** Set when the file existed but could not be used whole; the loop continues without it. */
  warning?: string;
}

const message = (e: unknown) => e instanceof Error ? e.message : String(e);

/** Something other than a regular file at the state path: exit 74, nothing touched. */
export function refusedStatePath(path: string, e: NotRegularFile): DroverError {
  return new DroverError(
    "STATE_UNWRITABLE",
    `${e.what} stands where the drive state file ${path} belongs; refused, nothing was touched ` +
      "(remove it, or pass --state DIR)",
    { details: { state_file: path }, cause: e },
  );
}

/**
 * Read the state file. A damaged one is renamed to <file>.corrupt-<time> and the loop goes on
 * from a fresh (or, when only some fields were wrong, a partly fresh) state with a warning.
 * Throws only STATE_UNWRITABLE, for a path that is not a regular file.
 */
export async function loadState(
  path: string,
  session: string,
  now = Date.now(),
): Promise<LoadedState> {
  let read;
  try {
    read = await readRegular(path, MAX_STATE_BYTES);
  } catch (e) {
    if (e instanceof NotRegularFile) throw refusedStatePath(path, e);
    return {
      state: freshState(session),
      warning: `cannot read state file ${path} (${message(e)}); starting fresh`,
    };
  }
  if (read === null) return { state: freshState(session) };
  let problem: string;
  let state = freshState(session);
  const text = new TextDecoder().decode(read.bytes);
  const own = read.truncated ? null : await asWritten(text, session);
  if (own) return { state: own };
  if (read.truncated) {
    problem = `it is larger than ${describeBytes(MAX_STATE_BYTES)}; starting fresh`;
  } else {
    // zod loads only here, when there is a file to hold to the schema.
    const { parseState } = await import("./state_schema.ts");
    const parsed = parseState(text, session);
    if (typeof parsed !== "string" && parsed.reset.length === 0) return { state: parsed.state };
    if (typeof parsed === "string") {
      problem = `${parsed}; starting fresh`;
    } else {
      state = parsed.state;
      problem = `fields that do not fit its schema were reset (${
        parsed.reset.slice(0, 5).join("; ")
      }${
        parsed.reset.length > 5 ? `; and ${parsed.reset.length - 5} more` : ""
      }); the rest is kept`;
    }
  }
  const aside = `${path}.corrupt-${now}`;
  let kept = "";
  try {
    await Deno.rename(path, aside);
    kept = `; kept as ${aside}`;
  } catch {
    // the next save replaces it anyway
  }
  return { state, warning: `state file ${path} is unusable: ${problem}${kept}` };
}

/** The checksum drover ends its own state files with (module doc). */
const WRITTEN = /,"written":"sha256:([0-9a-f]{64})"\}\n?$/;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The state, when `text` is exactly a file drover wrote for `session`; else null. */
async function asWritten(text: string, session: string): Promise<DriveState | null> {
  const m = WRITTEN.exec(text);
  if (!m) return null;
  const body = text.slice(0, m.index) + "}";
  if ((await sha256(body)) !== m[1]) return null;
  try {
    const { written: _, ...st } = JSON.parse(text) as DriveState & { written?: string };
    return st.version === STATE_VERSION && st.session === session ? st : null;
  } catch {
    return null;
  }
}

/** The file's text for `st`: its JSON, ended with the checksum of that JSON. */
export async function stateText(st: DriveState): Promise<string> {
  const body = JSON.stringify(st);
  return `${body.slice(0, -1)},"written":"sha256:${await sha256(body)}"}\n`;
}

/** Write the state atomically. Throws NotRegularFile, or the write's error (a full disk). */
export async function saveState(path: string, st: DriveState): Promise<void> {
  await writeAtomic(path, new TextEncoder().encode(await stateText(st)));
}
