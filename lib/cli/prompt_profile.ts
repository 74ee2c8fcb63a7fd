/**
 * `drover __prompt-profile` (hidden): the resolved profile as POSIX EREs for sweep.sh.
 * `--field F` prints one line; `--format tsv` every field (format documented in
 * lib/profile/export.ts and docs/profiles.md); `--format json` the same as data.
 */
import type { Command } from "../deps/cli.ts";
import { DroverError, invalidArgument } from "../errors.ts";
import { FIELD_NAMES, isFieldName } from "../profile/fields.ts";
import {
  exportRows,
  fieldEre,
  PROMPT_PROFILE_FORMAT,
  PROMPT_PROFILE_HEADER,
  toTsv,
} from "../profile/export.ts";
import { effectiveCli, resolveProfile } from "../profile/resolve.ts";
import { run } from "./context.ts";
import { configFor } from "./cli_common.ts";
import { writeOut } from "./output.ts";

export function register(program: Command): void {
  program
    .command("__prompt-profile", { hidden: true })
    .description("print the resolved prompt profile as POSIX EREs (for sweep.sh)")
    .option("--cli <name>", "CLI whose profile to resolve (default: default_cli, else claude)")
    .option("--field <field>", "print only this field, as one line")
    .option("--format <format>", "line | tsv | json")
    .option("--format-version <n>", "the format version the reader expects (sweep.sh passes it)")
    .action(async (
      opts: { cli?: string; field?: string; format?: string; formatVersion?: string },
      cmd: Command,
    ) => {
      await run(cmd, "drover.prompt-profile.v1", async (g) => {
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
        const data = {
          format_version: PROMPT_PROFILE_FORMAT,
          cli: profile.cli,
          rows,
        };
        if (format === "json" || g.json) return { data };
        // Raw text for a script: written here so no envelope or colour decorates it.
        if (format === "line") writeOut(fieldEre(profile, opts.field as never) + "\n");
        else writeOut(toTsv(rows));
        return { data, human: [] };
      });
    });
}

export { PROMPT_PROFILE_HEADER };
