/**
 * `drover config check`: find, parse and validate the configuration (and the shipped profiles).
 * Errors exit 2 with `file:line: field: reason` lines; unknown top-level tables are warnings.
 */
import { allowEntryNote } from "../shell/allow_note.ts";
import { parseEmbeddedProfiles } from "../profile/embedded.ts";
import type { Invocation } from "./invocation.ts";
import type { CommandResult } from "./output.ts";
import type { ConfigCheckData } from "../contracts/config_check.ts";
import { configFor } from "./cli_common.ts";

export async function action({ g }: Invocation): Promise<CommandResult<ConfigCheckData>> {
  // The shipped profiles are re-validated from their sources (a start trusts the compiled form).
  parseEmbeddedProfiles();
  const c = await configFor(g);
  const warnings = c.unknown.map((u) =>
    `${c.path}:${u.line}: ${
      u.key.length > 80 ? u.key.slice(0, 60) + "…" : u.key
    }: unknown top-level key or table, ignored by drover`
  );
  // Entries that name only an interpreter, a runner or a wrapper: what they approve, and what not.
  const allowNotes = (c.drive.allow ?? []).flatMap((entry, i) => {
    const note = allowEntryNote(entry);
    return note === null ? [] : [{ entry, line: c.allowLines?.[i] ?? null, note }];
  });
  for (const n of allowNotes) {
    warnings.push(
      `${c.path}:${n.line ?? 1}: drive.allow: ${JSON.stringify(n.entry)} ${n.note}`,
    );
  }
  const human = [
    c.path
      ? `configuration ${c.path} (${c.source}): ok`
      : "no configuration file: using the embedded defaults",
  ];
  if (c.defaultCli) human.push(`default_cli: ${c.defaultCli}`);
  for (const e of Object.values(c.clis)) {
    const n = Object.keys(e.promptProfile).length;
    human.push(
      `[clis.${e.name}] command ${e.command ?? e.name}${e.enabled ? "" : " (disabled)"}` +
        (n ? `, ${n} prompt_profile field${n === 1 ? "" : "s"}` : ""),
    );
  }
  if (Object.keys(c.drive).length) human.push(`[drive] ${Object.keys(c.drive).join(", ")}`);
  return {
    data: {
      valid: true,
      path: c.path,
      source: c.source,
      default_cli: c.defaultCli,
      clis: Object.keys(c.clis),
      drive: c.drive,
      unknown: c.unknown,
      allow_notes: allowNotes,
    },
    human,
    warnings,
  };
}
