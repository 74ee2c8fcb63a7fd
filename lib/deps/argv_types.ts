/**
 * The parse result's types for one command, read off its spec (declared `as const`): what
 * ./argv.ts `parseArgv` puts in `opts` and `args` for that command — keys in camelCase, a value
 * option's text, a repeatable one's list, a flag's `true`, a negation's `false`, and present
 * always only with a default or when required — so the command reads them without a cast.
 */
import type { ArgSpec, CommandSpec, OptionSpec } from "./argv.ts";

type Flat<T> = { [K in keyof T]: T[K] };

/** "dry-run" → "dryRun", as ./argv.ts camel() writes it. */
type Camel<S extends string> = S extends `${infer H}-${infer C}${infer R}`
  ? `${H}${Uppercase<C>}${Camel<R>}`
  : S;

/** The long name of a flags string, with its value placeholder if any: "dry-run", "cli <name>". */
type LongOf<F extends string> = F extends `-${string}, --${infer L}` ? L
  : F extends `--${infer L}` ? L
  : never;

type OptionKey<O extends OptionSpec> = LongOf<O["flags"]> extends `${infer N} <${string}>`
  ? Camel<N>
  : LongOf<O["flags"]> extends `no-${infer N}` ? Camel<N>
  : Camel<LongOf<O["flags"]>>;

/** A value option's text (a list when repeatable, a choice when it has choices); a flag's `true`. */
type OptionType<O extends OptionSpec> = LongOf<O["flags"]> extends `${string} <${string}>`
  ? O extends { repeatable: true } ? string[]
  : O extends { choices: readonly (infer C)[] } ? C
  : string
  : LongOf<O["flags"]> extends `no-${string}` ? false
  : true;

/** Set whatever argv says: it has a default, or it is required (its absence is a usage error). */
type AlwaysSet<O> = O extends { default: string } | { required: true } ? true : false;

// A spec not declared `as const` (flags just `string`) yields no keys at all.
type OptionOf<S extends CommandSpec> = S extends { options: readonly (infer O)[] }
  ? O extends OptionSpec ? string extends O["flags"] ? never : O : never
  : never;

/**
 * A command's `opts` by camelCase key: `{ dryRun?: true; cli?: string; allow?: string[]; format:
 * "human" | "tsv"; probe?: false }`. An option given nowhere on the line is absent.
 */
export type OptionsOf<S extends CommandSpec> = [OptionOf<S>] extends [never] ? Record<never, never>
  : Flat<
    & { [O in OptionOf<S> as AlwaysSet<O> extends true ? OptionKey<O> : never]: OptionType<O> }
    & { [O in OptionOf<S> as AlwaysSet<O> extends true ? never : OptionKey<O>]?: OptionType<O> }
  >;

type ArgOf<S extends CommandSpec> = S extends { args: readonly (infer A)[] }
  ? A extends ArgSpec ? string extends A["arg"] ? never : A : never
  : never;

/**
 * A command's `args` by name: `<target>` a string, `[file]` a string or absent, `[text...]` a
 * list (empty when none was given).
 */
export type ArgsOf<S extends CommandSpec> = [ArgOf<S>] extends [never] ? Record<never, never>
  : Flat<
    & { [A in ArgOf<S> as A["arg"] extends `<${infer N}>` ? N : never]: string }
    & { [A in ArgOf<S> as A["arg"] extends `[${infer N}...]` ? N : never]: string[] }
    & {
      [
        A in ArgOf<S> as A["arg"] extends `[${string}...]` ? never
          : A["arg"] extends `[${infer N}]` ? N
          : never
      ]?: string;
    }
  >;
