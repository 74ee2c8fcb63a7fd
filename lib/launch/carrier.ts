/**
 * The prompt carrier: how a kickoff prompt reaches the agent without ever being typed into a pane
 * or passing through a shell parser.
 *
 * drover writes the prompt to a private file (mode 0600, created exclusively) and asks tmux to run
 * a CONSTANT POSIX sh snippet directly (multi-argument new-window/split-window, which tmux execs
 * without any shell, so the user's default-shell — bash, zsh, fish — never parses anything). The
 * snippet reads the file, deletes it, and execs the CLI with the prompt as its final argument. No
 * user text is ever inside the script; the file name, the prefix and the argv arrive as "$@".
 * `printf x` after the file's bytes keeps trailing newlines that command substitution would strip.
 * The agent's environment holds no carrier (the file is gone before exec).
 */

/** The constant launcher script. Arguments: FILE PREFIX ARGV… (FILE "" = no prompt). */
export const LAUNCH_SNIPPET = 'f=$1; pre=$2; shift 2; if [ -z "$f" ]; then exec "$@"; fi; ' +
  'p=$(cat -- "$f" && printf x) || { printf "drover: cannot read the kickoff prompt %s\\n" "$f" >&2; ' +
  'exit 111; }; rm -f -- "$f"; exec "$@" "$pre${p%x}"';

/** $0 of the launcher, as `ps` shows it for the split second before exec. */
export const LAUNCH_ARGV0 = "drover-launch";

export interface CarrierFile {
  path: string;
  /** Remove the file (used when creating the pane failed, so nothing is left behind). */
  remove(): Promise<void>;
}

function randomHex(n: number): string {
  const b = new Uint8Array(n);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Directory for carrier files: $XDG_RUNTIME_DIR (per-user, 0700) when usable, else $TMPDIR or /tmp. */
function carrierDir(): string {
  const runtime = Deno.env.get("XDG_RUNTIME_DIR");
  if (runtime) {
    try {
      if (Deno.statSync(runtime).isDirectory) return runtime;
    } catch {
      // fall through to the temp directory
    }
  }
  return Deno.env.get("TMPDIR") || "/tmp";
}

/** Write the prompt to a new 0600 file that only its owner can read. */
export async function writeCarrier(prompt: string, dir = carrierDir()): Promise<CarrierFile> {
  const path = `${dir.replace(/\/+$/, "")}/drover-prompt-${randomHex(12)}`;
  const file = await Deno.open(path, { createNew: true, write: true, mode: 0o600 });
  try {
    const bytes = new TextEncoder().encode(prompt);
    let off = 0;
    while (off < bytes.length) off += await file.write(bytes.subarray(off));
  } finally {
    file.close();
  }
  return {
    path,
    async remove() {
      await Deno.remove(path).catch(() => {});
    },
  };
}

/** The command tmux runs for the pane: sh -c SNIPPET drover-launch FILE PREFIX ARGV… */
export function paneCommand(argv: string[], carrier?: { path: string; prefix: string }): string[] {
  return [
    "/bin/sh",
    "-c",
    LAUNCH_SNIPPET,
    LAUNCH_ARGV0,
    carrier?.path ?? "",
    carrier?.prefix ?? "",
    ...argv,
  ];
}
