/**
 * `drover __prompt-profile` (hidden): the resolved profile as POSIX EREs for sweep.sh.
 * `--field F` prints one line; `--format tsv` every field (format documented in
 * lib/sweep/export.ts and docs/profiles.md); `--format json` the same as data.
 */
import { DroverError, invalidArgument } from "../errors.ts";
import { FIELD_NAMES, isFieldName } from "../profile/fields.ts";
import {
  exportRows,
  fieldEre,
  PROMPT_PROFILE_FORMAT,
  PROMPT_PROFILE_HEADER,
  toTsv,
} from "../sweep/export.ts";
import { effectiveCli, resolveProfile } from "../profile/resolve.ts";
import type { Invocation } from "./invocation.ts";
import { configFor } from "./cli_common.ts";
import { type CommandResult, writeOut } from "./output.ts";
import type { PromptProfileData } from "../contracts/prompt_profile.ts";

export async function action(
  { opts: o, g }: Invocation,
): Promise<CommandResult<PromptProfileData>> {
  const opts = o as { cli?: string; field?: string; format?: string; formatVersion?: string };
  // A reader from another release must fail loudly, never misparse (sweep.sh checks too).
  if (
    opts.formatVersion !== undefined && opts.formatVersion !== String(PROMPT_PROFILE_FORMAT)
  ) {
    throw new DroverError(
      "FORMAT_MISMATCH",
      `format version mismatch: the reader expects __prompt-profile format ${opts.formatVersion}, ` +
        `this drover prints format ${PROMPT_PROFILE_FORMAT}; use the script from \`drover sweep-script\``,
    );
  }
  const format = opts.format ?? (opts.field !== undefined ? "line" : "tsv");
  if (!["line", "tsv", "json"].includes(format)) {
    throw invalidArgument(
      `--format must be line, tsv or json, got ${JSON.stringify(format)}`,
    );
  }
  if (opts.field !== undefined && !isFieldName(opts.field)) {
    throw invalidArgument(
      `unknown field ${JSON.stringify(opts.field)}; fields: ${FIELD_NAMES.join(", ")}`,
    );
  }
  if (format === "line" && opts.field === undefined) {
    throw invalidArgument("--format line prints one field: add --field <field>");
  }
  const config = await configFor(g);
  const profile = resolveProfile(effectiveCli(opts.cli, config), config);
  let rows = exportRows(profile);
  if (opts.field !== undefined) rows = rows.filter((r) => r.name === opts.field);
  const data: PromptProfileData = {
    format_version: PROMPT_PROFILE_FORMAT,
    cli: profile.cli,
    rows,
  };
  if (format === "json" || g.json) return { data };
  // Raw text for a script: written here so no envelope or colour decorates it.
  if (format === "line") writeOut(fieldEre(profile, opts.field as never) + "\n");
  else writeOut(toTsv(rows));
  return { data, human: [] };
}

export { PROMPT_PROFILE_HEADER };
