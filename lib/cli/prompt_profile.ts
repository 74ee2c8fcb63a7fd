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
import type { PROMPT_PROFILE } from "./command_specs_internal.ts";
import { configFor } from "./cli_common.ts";
import { type CommandResult, writeOut } from "./output.ts";
import type { PromptProfileData } from "../contracts/prompt_profile.ts";

export async function action(
  { opts, g }: Invocation<typeof PROMPT_PROFILE>,
): Promise<CommandResult<PromptProfileData>> {
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
  const field = opts.field;
  if (field !== undefined && !isFieldName(field)) {
    throw invalidArgument(
      `unknown field ${JSON.stringify(field)}; fields: ${FIELD_NAMES.join(", ")}`,
    );
  }
  if (format === "line" && field === undefined) {
    throw invalidArgument("--format line prints one field: add --field <field>");
  }
  const config = await configFor(g);
  const profile = resolveProfile(effectiveCli(opts.cli, config), config);
  let rows = exportRows(profile);
  if (field !== undefined) rows = rows.filter((r) => r.name === field);
  const data: PromptProfileData = {
    format_version: PROMPT_PROFILE_FORMAT,
    cli: profile.cli,
    rows,
  };
  if (format === "json" || g.json) return { data };
  // Raw text for a script: written here so no envelope or colour decorates it.
  // `--format line` without a field was refused above.
  if (format === "line" && field !== undefined) writeOut(fieldEre(profile, field) + "\n");
  else writeOut(toTsv(rows));
  return { data, human: [] };
}

export { PROMPT_PROFILE_HEADER };
