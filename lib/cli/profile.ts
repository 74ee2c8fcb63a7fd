/**
 * `drover profile show [NAME] [--sources]` and `drover profile list`: inspect what a CLI's
 * profile resolves to, field by field, and which profiles exist.
 */
import { FIELDS } from "../profile/fields.ts";
import { shippedProfiles } from "../profile/shipped.ts";
import {
  checkCliFlag,
  effectiveCli,
  type FieldSource,
  resolveProfile,
} from "../profile/resolve.ts";
import type { Invocation } from "./invocation.ts";
import type { PROFILE_SHOW } from "./command_specs.ts";
import type { CommandResult } from "./output.ts";
import type { ProfileData, ProfileListData } from "../contracts/profile.ts";
import { configFor } from "./cli_common.ts";

export function sourceText(s: FieldSource): string {
  if (s.layer === "config") return `config ${s.file}:${s.line}`;
  if (s.layer === "unset") return "unset (extension field; its detector is off)";
  return `${s.layer} ${s.profile} (${s.file}:${s.line})`;
}

/** `drover profile show [NAME] [--sources]`. */
export async function show(
  { args, opts, g }: Invocation<typeof PROFILE_SHOW>,
): Promise<CommandResult<ProfileData>> {
  const config = await configFor(g);
  checkCliFlag(args.name, config);
  const p = resolveProfile(effectiveCli(args.name, config), config);
  const fields = FIELDS.map((f) => ({
    name: f.name,
    kind: f.kind,
    extension: !f.seed,
    value: p.values[f.name],
    source: p.sources[f.name],
  }));
  // The versions the shipped layer was verified on; none when only the default stands in.
  const shipped = p.shipped === null ? null : shippedProfiles().find((s) => s.id === p.shipped);
  const verified_versions = [...(shipped?.provenance.verifiedVersions ?? [])];
  const human = [`profile for ${p.cli}` + (p.shipped ? ` (shipped: ${p.shipped})` : "")];
  human.push(
    verified_versions.length
      ? `verified on: ${shipped!.name} ${verified_versions.join(", ")}`
      : "verified on: none (no shipped profile for this CLI; fields fall back to the default)",
  );
  for (const f of fields) {
    human.push(`${f.name} = ${JSON.stringify(f.value)}`);
    if (opts.sources) human.push(`    from ${sourceText(f.source)}`);
  }
  return { data: { cli: p.cli, shipped: p.shipped, verified_versions, fields }, human };
}

/** `drover profile list`. */
export async function list({ g }: Invocation): Promise<CommandResult<ProfileListData>> {
  const config = await configFor(g);
  const shipped = shippedProfiles().map((s) => ({
    id: s.id,
    name: s.name,
    clis: s.clis,
    verified: s.verified,
    default: s.isDefault,
    file: s.file,
    cli_version: s.provenance.cliVersion,
    verified_versions: s.provenance.verifiedVersions,
    recorded: s.provenance.recorded,
    fixtures: s.provenance.fixtures,
  }));
  const configured = Object.values(config.clis).map((c) => ({
    name: c.name,
    command: c.command,
    enabled: c.enabled,
    prompt_profile_fields: Object.keys(c.promptProfile),
    shipped: resolveProfile(c.name, config).shipped,
  }));
  const human = ["shipped profiles:"];
  for (const s of shipped) {
    human.push(
      `  ${s.id}${s.default ? " (default)" : ""}  clis: ${s.clis.join(", ")}  ` +
        `${s.verified ? "verified" : "unverified"} against ${
          s.verified_versions.length ? s.verified_versions.join(", ") : "?"
        } (${s.recorded ?? "?"})`,
    );
  }
  human.push(config.path ? `configured CLIs (${config.path}):` : "configured CLIs: none");
  for (const c of configured) {
    human.push(
      `  ${c.name}  command: ${c.command ?? c.name}  ${c.enabled ? "enabled" : "disabled"}` +
        `  overrides: ${c.prompt_profile_fields.length}`,
    );
  }
  return {
    data: { default_cli: config.defaultCli, shipped, configured },
    human,
  };
}
