/**
 * The zod schemas of the configuration file (DESIGN §3): `default_cli`, `[clis.<name>]` (the
 * launch fields and `prompt_profile`) and `[drive]`. They are the single definition of what a
 * configuration may say; parse.ts maps their issues to `file:line: field: reason`.
 * Loaded only when there is a configuration file to validate.
 */
import { z } from "../deps/zod.ts";
import { describe, type PatternCheck, promptProfileSchema, quote } from "../profile/schema.ts";
import {
  DRIVE_DURATIONS,
  durationProblem,
  type DurationRange,
  parseDuration,
  rangeProblem,
} from "./duration.ts";

const nonEmpty = (what = "a non-empty string") =>
  z.string({ error: (i) => `must be ${what}, got ${describe(i.input)}` })
    .refine((s) => s.trim() !== "", { error: `must be ${what}, got an empty string` });

const PROMPT_STYLE = z.string({
  error: (i) => `must be "positional", "none" or "flag:--<flag>", got ${describe(i.input)}`,
}).check((ctx) => {
  if (!/^(positional|none|flag:-\S+)$/.test(ctx.value)) {
    ctx.issues.push({
      code: "custom",
      message: `must be "positional", "none" or "flag:--<flag>", got ${quote(ctx.value)}`,
      input: ctx.value,
    });
  }
});

const ENV = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "not a valid variable name"),
  z.string({ error: (i) => `must be a string, got ${describe(i.input)}` }),
  { error: (i) => `must be a table of strings, got ${describe(i.input)}` },
);

/** Keys a git-paw `[clis.<name>]` entry may carry: accepted so its files load, kept, not acted on. */
export const GIT_PAW_CLI_KEYS = [
  "display_name",
  "submit_delay_ms",
  "settings_path",
  "approval_args",
] as const;

/** One `[clis.<name>]` entry. */
export function cliEntrySchema<P>(check: PatternCheck<P>) {
  return z.strictObject({
    command: nonEmpty().optional(),
    args: z.array(
      z.string({ error: "must be an array of strings (argv, never shell-interpreted)" }),
      { error: "must be an array of strings (argv, never shell-interpreted)" },
    ).optional(),
    prompt: PROMPT_STYLE.optional(),
    env: ENV.optional(),
    enabled: z.boolean({ error: (i) => `must be true or false, got ${describe(i.input)}` })
      .optional(),
    prompt_profile: promptProfileSchema(check).optional(),
    ...Object.fromEntries(GIT_PAW_CLI_KEYS.map((k) => [k, z.unknown().optional()])),
  }, { error: (i) => `must be a table, got ${describe(i.input)}` });
}

/** The keys `[clis.<name>]` acts on (named in the "unknown key" reason). */
export const CLI_KEYS = ["command", "args", "prompt", "env", "enabled", "prompt_profile"] as const;

/** A duration (lib/config/duration.ts: the grammar the flags use too) within a setting's range. */
function duration(range: DurationRange) {
  return nonEmpty().transform((s, ctx) => {
    const ms = parseDuration(s);
    const problem = ms === null ? durationProblem(s) : rangeProblem(ms, range);
    if (ms === null || problem !== null) {
      ctx.issues.push({
        code: "custom",
        message: ms === null ? `${quote(s)} ${problem}` : `${problem}, got ${quote(s)}`,
        input: s,
      });
      return z.NEVER;
    }
    return ms;
  });
}

/** `[drive]`: defaults for `drover drive` (flags override). Durations come out in ms. */
export const DRIVE = z.strictObject({
  session: nonEmpty().optional(),
  orchestrator: nonEmpty().optional(),
  approve: z.enum(["none", "allowlist"], {
    error: (i) => `must be "none" or "allowlist", got ${quote(i.input)}`,
  }).optional(),
  allow: z.array(nonEmpty(), { error: "must be an array of non-empty command prefixes" })
    .optional(),
  nudge: nonEmpty().optional(),
  nudge_every: duration(DRIVE_DURATIONS.nudge_every).optional(),
  dedup_window: duration(DRIVE_DURATIONS.dedup_window).optional(),
  interval: duration(DRIVE_DURATIONS.interval).optional(),
  events: nonEmpty().optional(),
  on_escalate: nonEmpty().optional(),
  hook_timeout: duration(DRIVE_DURATIONS.hook_timeout).optional(),
  state: nonEmpty().optional(),
  resume: nonEmpty().optional(),
  resume_margin: duration(DRIVE_DURATIONS.resume_margin).optional(),
}, { error: (i) => `must be a table, got ${describe(i.input)}` });

/**
 * The whole file. Top-level keys drover does not know are not errors (a git-paw file has its
 * own tables): they pass through and are reported by `config check`.
 */
export function configSchema<P>(check: PatternCheck<P>) {
  return z.looseObject({
    default_cli: nonEmpty("a non-empty string (a CLI name)").optional(),
    clis: z.record(z.string(), cliEntrySchema(check), {
      error: (i) => `must be a table of [clis.<name>] entries, got ${describe(i.input)}`,
    }).optional(),
    drive: DRIVE.optional(),
  });
}

/** The reason given for a key a table does not have, by where it is. */
export function unknownKeyReason(path: readonly (string | number)[], _key: string): string {
  if (path[0] === "drive") return `unknown key (known: ${Object.keys(DRIVE.shape).join(", ")})`;
  return `unknown key (known: ${CLI_KEYS.join(", ")})`;
}
