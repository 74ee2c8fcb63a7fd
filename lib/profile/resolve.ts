/**
 * Per-field profile resolution (DESIGN §4): for a CLI name, each field independently comes from
 * 1. `[clis.<name>].prompt_profile` in the configuration, else
 * 2. the verified shipped profile for that CLI (profiles/<cli>.toml), else
 * 3. the embedded Claude Code default.
 * A CLI nobody has heard of resolves the full Claude default, never an empty profile.
 */
import { type FieldName, FIELDS, type PartialProfileValues, type ProfileValues } from "./fields.ts";
import { defaultProfile, shippedFor, type ShippedProfile, shippedProfiles } from "./shipped.ts";
import { DroverError } from "../errors.ts";
import type { CompiledPattern, Matcher } from "../regex/mod.ts";

/**
 * What resolution reads of one `[clis.<name>]` entry: its command and its prompt_profile layer.
 * Declared here, not taken from lib/config, so the profile layer stays below the configuration
 * that holds it (a config's `CliEntry` is one).
 */
export interface CliLayer {
  readonly command: string | null;
  readonly promptProfile: PartialProfileValues;
  readonly promptProfilePatterns: Partial<Record<FieldName, CompiledPattern>>;
  readonly promptProfileLines: Partial<Record<FieldName, number>>;
  readonly line: number;
}

/** What resolution reads of a configuration (a loaded `Config` is one). */
export interface ProfileConfig {
  readonly path: string | null;
  readonly defaultCli: string | null;
  readonly clis: Readonly<Record<string, CliLayer>>;
}

export type FieldSource =
  | { readonly layer: "config"; readonly file: string; readonly line: number }
  | { readonly layer: "unset" }
  | {
    readonly layer: "shipped";
    readonly profile: string;
    readonly file: string;
    readonly line: number;
  }
  | {
    readonly layer: "default";
    readonly profile: string;
    readonly file: string;
    readonly line: number;
  };

type MarkerField = Extract<typeof FIELDS[number], { kind: "markers" }>["name"];
type PatternField = Extract<typeof FIELDS[number], { kind: "pattern" }>["name"];
type SeedPatternField = Extract<typeof FIELDS[number], { kind: "pattern"; seed: true }>["name"];

/** Precompiled forms the detectors use (lowercased markers, RegExps). */
export interface ProfileMatchers {
  /** Every marker list, lowercased (Unicode-aware). */
  readonly markers: Readonly<Record<MarkerField, readonly string[]>>;
  /** broad_grant_marker + broad_grant_markers lowercased, with ASCII ' and U+2019 ’ variants. */
  readonly broadGrant: readonly string[];
  /** Compiled patterns; null only for an unset extension field. */
  readonly patterns: Readonly<
    Record<SeedPatternField, Matcher> & Record<PatternField, Matcher | null>
  >;
  /** ERE forms of the patterns (case folded in), for sweep.sh ("" = unset). */
  readonly ere: Readonly<Record<PatternField, string>>;
  /** Top-level alternatives of each pattern's ERE. */
  readonly ereAlternatives: Readonly<Record<PatternField, readonly string[]>>;
}

export interface ResolvedProfile {
  /** The CLI name this profile was resolved for (first whitespace token). */
  readonly cli: string;
  /** Id of the shipped profile used as layer 2 (null: none ships for this CLI). */
  readonly shipped: string | null;
  readonly values: Readonly<ProfileValues>;
  readonly sources: Readonly<Record<FieldName, FieldSource>>;
  readonly matchers: ProfileMatchers;
}

/** Name used when nothing names a CLI at all. */
export const DEFAULT_CLI = "claude";

/** First whitespace token of a CLI name or command line. */
export function cliKey(nameOrCommand: string): string {
  return nameOrCommand.trim().split(/\s+/)[0] ?? "";
}

function basename(p: string): string {
  return p.replace(/\/+$/, "").replace(/^.*\//, "");
}

/** The shipped profile layer for a CLI: by its name, the name's basename, then its command. */
export function shippedLayerFor(cli: string, entry: CliLayer | undefined): ShippedProfile | null {
  const candidates = [cli, basename(cli)];
  if (entry?.command) {
    const c = cliKey(entry.command);
    candidates.push(c, basename(c));
  }
  for (const c of candidates) {
    if (!c) continue;
    const p = shippedFor(c);
    if (p) return p;
  }
  return null;
}

const cache = new WeakMap<ProfileConfig, Map<string, ResolvedProfile>>();

export function resolveProfile(cliName: string, config: ProfileConfig): ResolvedProfile {
  const cli = cliKey(cliName) || config.defaultCli || DEFAULT_CLI;
  let perConfig = cache.get(config);
  if (!perConfig) {
    perConfig = new Map();
    cache.set(config, perConfig);
  }
  const hit = perConfig.get(cli);
  if (hit) return hit;

  const entry = config.clis[cli];
  const shipped = shippedLayerFor(cli, entry);
  const { values, sources, compiled } = layeredFields({
    entry,
    configFile: config.path ?? "(config)",
    shipped,
    def: defaultProfile(),
  });
  const v = values as unknown as ProfileValues;
  const resolved: ResolvedProfile = Object.freeze({
    cli,
    shipped: shipped?.id ?? null,
    values: Object.freeze(v),
    sources: Object.freeze(sources) as Record<FieldName, FieldSource>,
    matchers: matchersFor(v, compiled),
  });
  perConfig.set(cli, resolved);
  return resolved;
}

/** The three layers one CLI's fields come from, highest first (the header's list). */
interface Layers {
  readonly entry: CliLayer | undefined;
  /** What a config-layer source names as its file. */
  readonly configFile: string;
  readonly shipped: ShippedProfile | null;
  readonly def: ShippedProfile;
}

/** Each field's value from the first layer that sets it, where it came from, its compiled pattern. */
function layeredFields(layers: Layers): {
  values: Record<string, unknown>;
  sources: Record<string, FieldSource>;
  compiled: Record<string, CompiledPattern>;
} {
  const { entry, shipped, def } = layers;
  const values: Record<string, unknown> = {};
  const sources: Record<string, FieldSource> = {};
  const compiled: Record<string, CompiledPattern> = {};
  for (const f of FIELDS) {
    const name = f.name;
    if (entry && entry.promptProfile[name] !== undefined) {
      values[name] = entry.promptProfile[name];
      sources[name] = {
        layer: "config",
        file: layers.configFile,
        line: entry.promptProfileLines[name] ?? entry.line,
      };
      if (f.kind === "pattern") compiled[name] = entry.promptProfilePatterns[name]!;
    } else if (shipped && shipped.values[name] !== undefined) {
      values[name] = shipped.values[name];
      sources[name] = shippedSource("shipped", shipped, name);
      if (f.kind === "pattern") compiled[name] = shipped.patterns[name]!;
    } else if (def.values[name] !== undefined) {
      values[name] = def.values[name];
      sources[name] = shippedSource("default", def, name);
      if (f.kind === "pattern") compiled[name] = def.patterns[name]!;
    } else {
      // An extension field nobody sets: its detector is off (empty list / no pattern).
      values[name] = f.kind === "pattern" ? null : [];
      sources[name] = { layer: "unset" };
    }
  }
  return { values, sources, compiled };
}

function shippedSource(
  layer: "shipped" | "default",
  p: ShippedProfile,
  name: FieldName,
): FieldSource {
  return { layer, profile: p.id, file: p.file, line: p.lines[name] ?? 1 };
}

/** The precompiled forms of resolved values (ProfileMatchers), frozen. */
function matchersFor(
  v: ProfileValues,
  compiled: Record<string, CompiledPattern>,
): ProfileMatchers {
  const markers: Record<string, string[]> = {};
  const patterns: Record<string, Matcher | null> = {};
  const ere: Record<string, string> = {};
  const ereAlternatives: Record<string, readonly string[]> = {};
  for (const f of FIELDS) {
    if (f.kind === "markers") markers[f.name] = (v[f.name] as string[]).map((m) => m.toLowerCase());
    if (f.kind === "pattern") {
      const c = compiled[f.name];
      // A shipped pattern's matcher is built when a detector first reads it (frozen.ts).
      if (c) Object.defineProperty(patterns, f.name, { enumerable: true, get: () => c.matcher });
      else patterns[f.name] = null;
      ere[f.name] = c ? c.ere : "";
      ereAlternatives[f.name] = c ? c.ereAlternatives : [];
    }
  }
  return Object.freeze({
    markers: markers as Record<MarkerField, string[]>,
    broadGrant: broadGrantMarkers(v),
    patterns: patterns as
      & Record<SeedPatternField, Matcher>
      & Record<PatternField, Matcher | null>,
    ere: ere as Record<PatternField, string>,
    ereAlternatives: ereAlternatives as Record<PatternField, readonly string[]>,
  });
}

/** broad_grant_marker + broad_grant_markers lowercased, each with its ' and ’ spellings, once. */
function broadGrantMarkers(v: ProfileValues): string[] {
  return [v.broad_grant_marker, ...v.broad_grant_markers].flatMap((m) => {
    const low = m.toLowerCase();
    return [low, low.replaceAll("'", "\u2019"), low.replaceAll("\u2019", "'")];
  }).filter((m, i, all) => all.indexOf(m) === i);
}

/**
 * When nothing describes `cli` — no shipped profile, no field of its own in the configuration (a
 * Cline pane, identified as `cline (process)`) — every verdict on its screen came from the
 * embedded Claude Code default. The sentence that says so, and how to add a profile; else null.
 */
export function judgedByDefault(cli: string, config: ProfileConfig): string | null {
  const p = resolveProfile(cli, config);
  if (p.shipped !== null) return null;
  if (Object.values(p.sources).some((s) => s.layer === "config")) return null;
  return `No profile describes ${p.cli}: the embedded ${defaultProfile().name} default judged ` +
    `this screen, and its wording may not fit ${p.cli}'s prompts. Add one under ` +
    `[clis.${p.cli}.prompt_profile] in your configuration (docs/profiles.md, "Authoring a ` +
    `profile for a new CLI"; \`drover capture --save\` and \`drover profile test\` check it)`;
}

/** Every name `--cli` accepts: configured CLIs, the shipped profiles' names, the default. */
export function knownCliNames(config: ProfileConfig): string[] {
  const names = new Set<string>([DEFAULT_CLI, ...Object.keys(config.clis)]);
  for (const p of shippedProfiles()) if (p.verified) { for (const c of p.clis) names.add(c); }
  if (config.defaultCli) names.add(config.defaultCli);
  return [...names].sort();
}

/**
 * A `--cli NAME` given on the command line must name a CLI drover knows: a typo would otherwise be
 * judged silently with the Claude default. PROFILE_NOT_FOUND (exit 5) names the known ones.
 */
export function checkCliFlag(flag: string | undefined, config: ProfileConfig): void {
  if (flag === undefined) return;
  const name = cliKey(flag);
  const known = knownCliNames(config);
  if (name !== "" && (config.clis[name] !== undefined || shippedFor(name) !== null)) return;
  if (known.includes(name)) return;
  throw new DroverError(
    "PROFILE_NOT_FOUND",
    `no CLI profile named ${JSON.stringify(flag.slice(0, 80))}; known: ${known.join(", ")} ` +
      "(add [clis.<name>] to the configuration)",
  );
}

/** The CLI a command should use when none is given: --cli, else default_cli, else claude. */
export function effectiveCli(flag: string | undefined, config: ProfileConfig): string {
  return cliKey(flag ?? "") || config.defaultCli || DEFAULT_CLI;
}
