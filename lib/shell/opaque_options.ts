/** Reading a program's options the way it does, for the opaque-code checks (opaque.ts). */

/** One program's check: its arguments → the form they make opaque, if any. */
export type Check = (prog: string, args: readonly string[]) => string | undefined;

// ---- reading options ----

const IS_OPTION = (w: string) => w.startsWith("-") && w !== "-";

/**
 * A program's option words in front of its first operand, one at a time: "--" ends them (and is
 * passed over), and so does the first word `isOption` refuses ("-" alone is an operand). Every
 * option reader here walks with it, so that they all agree where the options end.
 */
export class OptionWalk {
  /** Index of the next word; once the walk has ended, of the first operand. */
  k = 0;
  #ended = false;

  constructor(
    readonly args: readonly string[],
    readonly isOption: (w: string) => boolean = IS_OPTION,
  ) {}

  /** The next option word (the walk moves past it), or undefined where the options end. */
  next(): string | undefined {
    if (this.#ended || this.k >= this.args.length) return undefined;
    const a = this.args[this.k];
    if (a === "--") this.k++;
    if (a === "--" || !this.isOption(a)) {
      this.#ended = true;
      return undefined;
    }
    this.k++;
    return a;
  }

  /** Take the word after the option as its value (undefined past the end). */
  value(): string | undefined {
    return this.args[this.k++];
  }
}

/**
 * The options in front of the first operand, each with its value when it takes one as the next
 * word (`takesValue`). "--" ends them; `isOption` says what counts as an option word.
 */
export function leadingOptions(
  args: readonly string[],
  takesValue: (w: string) => boolean = () => false,
  isOption: (w: string) => boolean = IS_OPTION,
): { opts: [string, string | undefined][]; operand: number } {
  const opts: [string, string | undefined][] = [];
  const walk = new OptionWalk(args, isOption);
  for (let a = walk.next(); a !== undefined; a = walk.next()) {
    opts.push([a, takesValue(a) && walk.k < args.length ? walk.value() : undefined]);
  }
  return { opts, operand: walk.k };
}

/** `--name` or `--name=value`. */
export const isLong = (w: string, name: string) => w === name || w.startsWith(`${name}=`);

/** The value of `--name=value`, or of `--name value` (the word after it). */
export function longValue(args: readonly string[], k: number, name: string): string | undefined {
  const w = args[k];
  if (w.startsWith(`${name}=`)) return w.slice(name.length + 1);
  return w === name ? args[k + 1] : undefined;
}

/** A short-option cluster: "-rf" → "rf"; "" for anything else. */
export const cluster = (w: string) => (/^-[A-Za-z0-9]+$/.test(w) ? w.slice(1) : "");

export const REMOTE = /^(https?|npm|jsr|data):/i;
/** "https:" for a remote specifier, or for an option's value after `=` (`--import-map=https:…`). */
export function remoteScheme(w: string): string | undefined {
  const v = w.startsWith("-") && w.includes("=") ? w.slice(w.indexOf("=") + 1) : w;
  const m = REMOTE.exec(v);
  return m ? `${m[1].toLowerCase()}:` : undefined;
}
