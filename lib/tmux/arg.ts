/**
 * tmux argv elements, each made safe for the place it goes. `tmux()` (./run.ts) only takes
 * `TmuxArg`s, and the only way to make one is through this module, so no caller's string reaches
 * tmux unescaped.
 *
 * Two things in tmux 3.3a turn an argument into code (checked on a real server; see
 * docs/hostile-input.md):
 *
 * 1. Command separators. tmux parses its argv into commands: an element whose LAST character is
 *    `;` ends the command there (`a;` → argument `a`, then a new command), unless the character
 *    before that `;` is a backslash, which tmux then replaces by the `;` (`a\;` → `a;`). A `;`
 *    anywhere else is ordinary text. So `x;` becomes `x\;` and `x\;` becomes `x\\;`: moving the
 *    final `;` behind one added backslash always reads back as the original.
 * 2. Formats. Some positions are expanded as formats, where `#(cmd)` runs a shell command and
 *    `#{…}` substitutes a value: the session name of new-session -s, window names (-n,
 *    rename-window), start directories (-c), pane titles (select-pane -T) and every -F / display
 *    -message format. Others are taken verbatim: targets (-t), -e VAR=value, set-option values,
 *    buffer names, send-keys keys and a command's argv after `--`. In an expanded position `##`
 *    stands for one `#`, so doubling every `#` makes the value come out exactly as written.
 */
import { invalidArgument } from "../errors.ts";

declare const safe: unique symbol;

/** One element of tmux's argv, already made safe for its position. */
export type TmuxArg = string & { readonly [safe]: true };

/** Ends one tmux command and starts the next (the only bare `;` drover ever hands tmux). */
export const SEP = ";" as TmuxArg;

function separatorSafe(s: string): string {
  return s.endsWith(";") ? `${s.slice(0, -1)}\\;` : s;
}

/**
 * A word written in lib/tmux itself: a command name, a flag, a constant format. Only string
 * literals type-check here (a `string` variable does not), so caller data cannot pass as a word.
 */
export function word<S extends string>(s: S & (string extends S ? never : unknown)): TmuxArg {
  if (s.endsWith(";")) throw new Error(`tmux word ${JSON.stringify(s)} ends in ";"`);
  return s as string as TmuxArg;
}

/** A value at a position tmux takes verbatim (targets, -e, option values, argv after `--`, keys). */
export function data(s: string): TmuxArg {
  return separatorSafe(s) as TmuxArg;
}

/**
 * A value at a position tmux expands as a format (-s, -n, -c, -T, rename-*): every `#` doubled,
 * so `#(…)` runs nothing and `#{…}` comes out as written.
 */
export function text(s: string): TmuxArg {
  return separatorSafe(s.replaceAll("#", "##")) as TmuxArg;
}

/** A whole number (sizes, line counts). */
export function num(n: number): TmuxArg {
  if (!Number.isSafeInteger(n)) throw new Error(`not a whole number for tmux: ${n}`);
  return String(n) as TmuxArg;
}

/** A pane id exactly as tmux prints it (`%12`); anything else is refused before tmux sees it. */
export function paneId(id: string): TmuxArg {
  if (!/^%[0-9]+$/.test(id)) {
    throw invalidArgument(`not a tmux pane id: ${JSON.stringify(id.slice(0, 40))}`);
  }
  return id as TmuxArg;
}

/**
 * A format (-F, display-message -p): the template's literal parts are drover's own format text,
 * every interpolated value is doubled like `text()` so it comes out literally. Use only as a tag.
 */
export function fmt(parts: TemplateStringsArray, ...values: (string | number)[]): TmuxArg {
  let out = parts[0]!;
  values.forEach((v, i) => {
    out += String(v).replaceAll("#", "##") + parts[i + 1]!;
  });
  return separatorSafe(out) as TmuxArg;
}
