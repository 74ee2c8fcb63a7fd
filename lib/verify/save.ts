/**
 * `verify --save DIR`: every screen a CLI's scenarios reached, in the layout `drover profile test`
 * reads (DIR/<cli>/<state>-<scenario>.txt plus the styled `.ansi.txt`), a manifest.json saying what
 * each screen is and what was expected and seen, and the last screen of anything not reached under
 * DIR/<cli>/unreached/ (kept apart so `profile test` does not read it). Attach the folder to a bug
 * report, or run `drover profile test --cli <cli> DIR/<cli>` while you fix the profile.
 */
import { DroverError } from "../errors.ts";
import { writeAtomic } from "../io/safe_file.ts";
import { VERSION } from "../version.ts";
import type { CliReport } from "./report_types.ts";

export const CAPTURES_SCHEMA = "drover.verify-captures.v1";

/** A new file renamed into place: a symlink planted in DIR is refused, never written through. */
function save(path: string, text: string): Promise<void> {
  return writeAtomic(path, new TextEncoder().encode(text), 0o644);
}

export async function saveCaptures(dir: string, r: CliReport): Promise<string> {
  const out = `${dir.replace(/\/+$/, "") || "/"}/${r.cli}`;
  try {
    await Deno.mkdir(out, { recursive: true });
    const screens: Record<string, unknown>[] = [];
    for (const s of r.scenarios) {
      // An approval is judged by the gate's answer; its screen is the next scenario's.
      if (!s.screen || s.expect.state === undefined) continue;
      const reached = s.reason === null;
      const base = reached ? `${s.expect.state}-${s.scenario}` : `unreached/${s.scenario}`;
      if (!reached) await Deno.mkdir(`${out}/unreached`, { recursive: true });
      await save(`${out}/${base}.txt`, s.screen.plain);
      await save(`${out}/${base}.ansi.txt`, s.screen.styled);
      screens.push({
        file: `${base}.txt`,
        styled: `${base}.ansi.txt`,
        scenario: s.scenario,
        session: s.session,
        size: r.size,
        ...(s.expect.state ? { state: s.expect.state } : {}),
        status: s.status,
        expect: s.expect,
        seen: s.seen,
        problems: s.problems,
        ...(s.reason ? { reason: s.reason } : {}),
        ...(s.wording_missing.length ? { wording_missing: s.wording_missing } : {}),
        title: s.screen.title,
      });
    }
    const manifest = {
      schema: CAPTURES_SCHEMA,
      cli: r.cli,
      version: r.version,
      path: r.path,
      drover: VERSION,
      recorded: new Date().toISOString(),
      capture: {
        plain: "tmux capture-pane -p -J -t <pane>",
        styled: "tmux capture-pane -p -e -J -t <pane>",
      },
      how: "drover verify: the CLI on a private tmux server, a throwaway HOME, a local model " +
        "stand-in on 127.0.0.1; screens as the CLI drew them (not edited)",
      summary: r.summary,
      screens,
    };
    await save(`${out}/manifest.json`, JSON.stringify(manifest, null, 2) + "\n");
    return out;
  } catch (e) {
    throw new DroverError(
      "IO_FAILED",
      `cannot save the captures in ${out}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
