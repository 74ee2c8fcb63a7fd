/** Reading a program's options the way it does, for the opaque-code checks (opaque.ts). */

/** One program's check: its arguments → the form they make opaque, if any. */
export type Check = (prog: string, args: readonly string[]) => string | undefined;

// ---- reading options ----

/**
 * The options in front of the first operand, each with its value when it takes one as the next
 * word (`takesValue`). "--" ends them; `isOption` says what counts as an option word.
 */
export function leadingOptions(
  args: readonly string[],
  takesValue: (w: string) => boolean = () => false,
  isOption: (w: string) => boolean = (w) => w.startsWith("-") && w !== "-",
): { opts: [string, string | undefined][]; operand: number } {
  const opts: [string, string | undefined][] = [];
  let k = 0;
  while (k < args.length) {
    const a = args[k];
    if (a === "--") {
      k++;
      break;
    }
    if (!isOption(a)) break;
    if (takesValue(a) && k + 1 < args.length) {
      opts.push([a, args[k + 1]]);
      k += 2;
    } else {
      opts.push([a, undefined]);
      k++;
    }
  }
  return { opts, operand: k };
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
