/**
 * The argument layer: a command tree of plain data (names, flag specs, help text) in, a parse
 * result out. It knows nothing about drover; lib/cli/commands.ts holds drover's tree and
 * lib/cli/dispatch.ts acts on the result. Why hand-rolled: see lib/deps/cli.ts.
 *
 * Semantics (kept from the commander-based layer it replaces):
 * - Root options (the globals) are recognised anywhere before `--`, before or after the command;
 *   a command's own options only after its name. Options may sit between positional arguments.
 * - `--opt value`, `--opt=value`, `-X value`, `-Xvalue`. A value option always takes the next
 *   word, even one that starts with `-` (a title or nudge text may). `--no-x` is the negation
 *   of a boolean `x` that defaults to true.
 * - Everything after `--` is positional.
 * - Usage errors carry commander's wording and its "did you mean" suggestions.
 */

/** One option. `flags` is `"--name"`, `"--name <value>"`, `"-X, --name <value>"` or `"--no-name"`. */
export interface OptionSpec {
  flags: string;
  help: string;
  /** The only values accepted (listed in the help). */
  choices?: readonly string[];
  /** The value when the option is absent (listed in the help). */
  default?: string;
  /** Every occurrence is kept, in order, as a list (`--allow a --allow b`). */
  repeatable?: boolean;
  /** Absent → usage error ("required option … not specified"). */
  required?: boolean;
  /** Accepted but left out of the help and the suggestions (a test seam, e.g. `drive --now`). */
  hidden?: boolean;
}

/** One positional argument: `"<name>"` required, `"[name]"` optional, `"[name...]"` the rest. */
export interface ArgSpec {
  arg: string;
  help: string;
}

export interface CommandSpec {
  name: string;
  help: string;
  /** Left out of the parent's command list (still runs and has its own help). */
  hidden?: boolean;
  args?: readonly ArgSpec[];
  options?: readonly OptionSpec[];
  /** A group: the first positional word picks one of these. */
  commands?: readonly CommandSpec[];
}

export type OptionValue = string | boolean | string[];
export type ArgValue = string | string[] | undefined;

export interface ParseResult<C extends CommandSpec = CommandSpec> {
  /** The commands chosen, root first (root alone when none was). */
  path: C[];
  /** Root options, by camelCase key (`socketName`, `color`, …). */
  globals: Record<string, OptionValue>;
  /** The chosen command's own options, by camelCase key. */
  opts: Record<string, OptionValue>;
  /** Positional arguments by name (`target`, `text` …); a variadic one is a list. */
  args: Record<string, ArgValue>;
  /**
   * Help was asked for (`-h`, `--help`, `help [command]`: "stdout") or is the answer to a group
   * named without a subcommand ("stderr"); `path` is the command to describe.
   */
  help?: "stdout" | "stderr";
  /** The first usage error (commander's wording, the suggestion on its own line). */
  error?: { message: string; suggestion?: string };
}

interface ParsedOption {
  spec: OptionSpec;
  short?: string;
  long: string;
  key: string;
  value?: string;
  negate: boolean;
}

const HELP: OptionSpec = { flags: "-h, --help", help: "show help" };
const FLAGS_RE = /^(?:-([A-Za-z]), )?--([A-Za-z0-9][\w-]*)(?: <([\w-]+)>)?$/;

function camel(s: string): string {
  return s.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Parse a flags string once; a malformed one is a programming error, caught by the unit test. */
export function optionOf(spec: OptionSpec): ParsedOption {
  const m = FLAGS_RE.exec(spec.flags);
  if (!m) throw new Error(`bad option flags ${JSON.stringify(spec.flags)}`);
  const [, short, long, value] = m;
  const negate = value === undefined && long.startsWith("no-");
  const o: ParsedOption = {
    spec,
    long: `--${long}`,
    key: camel(negate ? long.slice(3) : long),
    negate,
  };
  if (short !== undefined) o.short = `-${short}`;
  if (value !== undefined) o.value = value;
  return o;
}

interface ParsedArg {
  name: string;
  required: boolean;
  variadic: boolean;
}

function argOf(spec: ArgSpec): ParsedArg {
  const m = /^(<|\[)([\w-]+)(\.\.\.)?(>|\])$/.exec(spec.arg);
  if (!m) throw new Error(`bad argument ${JSON.stringify(spec.arg)}`);
  return { name: m[2], required: m[1] === "<", variadic: m[3] !== undefined };
}

const HELP_OPTION = optionOf(HELP);

/** The options a command accepts, with -h/--help last (as the help lists them). */
function optionsOf(cmd: CommandSpec): ParsedOption[] {
  return [...(cmd.options ?? []).map(optionOf), HELP_OPTION];
}

// ---------------------------------------------------------------------------------------------
// Suggestions: optimal-string-alignment distance, at most 3 edits and 40 % similarity, ties all
// listed (the rule commander used, so the hints read the same).

const MAX_DISTANCE = 3;

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d[i] = [i];
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** "did you mean" candidates for `word` (an option word keeps its `--`). */
export function suggest(word: string, candidates: readonly string[]): string[] {
  const options = word.startsWith("--");
  const w = options ? word.slice(2) : word;
  let best = MAX_DISTANCE;
  let similar: string[] = [];
  for (const c0 of new Set(candidates)) {
    const c = options ? c0.slice(2) : c0;
    if (c.length <= 1) continue;
    const dist = editDistance(w, c);
    const len = Math.max(w.length, c.length);
    if ((len - dist) / len <= 0.4) continue;
    if (dist < best) {
      best = dist;
      similar = [c];
    } else if (dist === best) similar.push(c);
  }
  similar.sort((a, b) => a.localeCompare(b));
  return options ? similar.map((c) => `--${c}`) : similar;
}

function suggestion(found: string[]): string | undefined {
  if (found.length === 0) return undefined;
  return found.length === 1
    ? `Did you mean ${found[0]}?`
    : `Did you mean one of ${found.join(", ")}?`;
}

// ---------------------------------------------------------------------------------------------

/**
 * Parse `argv` (without the program name) against `root`. Never throws for user input: the first
 * usage error is returned in `error`, and parsing goes on so that `--json`, `--help` and
 * `--version` are still seen wherever they are.
 */
export function parseArgv<C extends CommandSpec>(root: C, argv: readonly string[]): ParseResult<C> {
  const rootOpts = optionsOf(root);
  const r: ParseResult<C> = { path: [root], globals: {}, opts: {}, args: {} };
  let cmd: C = root;
  let cmdOpts: ParsedOption[] = [];
  const operands: string[] = [];
  let helpCommand = false;
  const fail = (message: string, found: string[] = []) => {
    if (r.error) return;
    r.error = { message };
    const s = suggestion(found);
    if (s !== undefined) r.error.suggestion = s;
  };

  const set = (target: Record<string, OptionValue>, o: ParsedOption, value: string | boolean) => {
    if (o.spec === HELP) {
      r.help = "stdout";
      return;
    }
    if (typeof value === "string" && o.spec.choices && !o.spec.choices.includes(value)) {
      fail(
        `option '${o.spec.flags}' argument '${value}' is invalid. Allowed choices are ${
          o.spec.choices.join(", ")
        }.`,
      );
      return;
    }
    if (o.spec.repeatable && typeof value === "string") {
      const prev = target[o.key];
      target[o.key] = [...(Array.isArray(prev) ? prev : []), value];
    } else target[o.key] = value;
  };

  const find = (word: string): { o: ParsedOption; global: boolean } | undefined => {
    // The chosen command's options first: a command may reuse a name the root does not have.
    for (const o of cmdOpts) if (o.long === word || o.short === word) return { o, global: false };
    for (const o of rootOpts) if (o.long === word || o.short === word) return { o, global: true };
    return undefined;
  };

  const words = [...argv];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "--") {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (word.length > 1 && word[0] === "-") {
      let name = word;
      let inline: string | undefined;
      let hit = find(word);
      if (!hit && word.startsWith("--") && word.includes("=")) {
        name = word.slice(0, word.indexOf("="));
        inline = word.slice(word.indexOf("=") + 1);
        hit = find(name);
        if (hit && hit.o.value === undefined) hit = undefined;
      } else if (!hit && word[1] !== "-") {
        // -Xvalue, or a cluster of one-letter booleans (-hX …).
        name = word.slice(0, 2);
        hit = find(name);
        if (hit) inline = word.slice(2);
      }
      if (!hit) {
        const longs = [...cmdOpts, ...rootOpts].filter((o) => !o.spec.hidden).map((o) => o.long);
        fail(`unknown option '${word}'`, name.startsWith("--") ? suggest(name, longs) : []);
        continue;
      }
      const target = hit.global ? r.globals : r.opts;
      if (hit.o.value === undefined) {
        set(target, hit.o, !hit.o.negate);
        // The rest of a cluster is read as the next word.
        if (inline !== undefined && inline !== "") words.splice(i + 1, 0, `-${inline}`);
        continue;
      }
      if (inline === undefined) {
        if (i + 1 >= words.length) {
          fail(`option '${hit.o.spec.flags}' argument missing`);
          continue;
        }
        inline = words[++i];
      }
      set(target, hit.o, inline);
      continue;
    }
    // A positional word: in a group it names the subcommand (or `help`), else it is an argument.
    if (cmd.commands && operands.length === 0 && !helpCommand) {
      const sub = cmd.commands.find((c) => c.name === word) as C | undefined;
      if (sub) {
        cmd = sub;
        r.path.push(sub);
        cmdOpts = optionsOf(sub).filter((o) => o.spec !== HELP);
        continue;
      }
      if (word === "help") {
        helpCommand = true;
        continue;
      }
      const names = cmd.commands.filter((c) => !c.hidden).map((c) => c.name);
      fail(`unknown command '${word}'`, suggest(word, [...names, "help"]));
      continue;
    }
    operands.push(word);
  }

  if (helpCommand) {
    // `help [command …]`: the named command's help, as deep as the names go; a name that is no
    // command gets the group's help on stderr (as commander did).
    delete r.error;
    r.help = "stdout";
    for (const word of operands) {
      const sub = cmd.commands?.find((c) => c.name === word) as C | undefined;
      if (!sub) {
        if (cmd.commands) r.help = "stderr";
        break;
      }
      cmd = sub;
      r.path.push(sub);
    }
    return r;
  }
  if (r.help) return r;
  if (r.error) return r;

  if (cmd.commands) {
    // A group named without a subcommand: its help, on stderr (as commander did).
    r.help = "stderr";
    return r;
  }
  for (const o of (cmd.options ?? []).map(optionOf)) {
    if (r.opts[o.key] === undefined) {
      if (o.spec.default !== undefined) r.opts[o.key] = o.spec.default;
      else if (o.spec.required) {
        fail(`required option '${o.spec.flags}' not specified`);
        return r;
      }
    }
  }
  const specs = (cmd.args ?? []).map(argOf);
  let k = 0;
  for (const a of specs) {
    if (a.variadic) {
      r.args[a.name] = operands.slice(k);
      k = operands.length;
    } else if (k < operands.length) r.args[a.name] = operands[k++];
    else if (a.required) {
      fail(`missing required argument '${a.name}'`);
      return r;
    }
  }
  if (k < operands.length) {
    const n = specs.length;
    fail(
      `too many arguments for '${cmd.name}'. Expected ${n} argument${
        n === 1 ? "" : "s"
      } but got ${operands.length}: ${operands.join(", ")}.`,
    );
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Help text, laid out the way commander laid it out (same terms, same wrapping).

function wrap(text: string, width: number): string[] {
  if (width < 40) return [text];
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const chunks = line.match(/\s*\S+/g);
    if (!chunks) {
      out.push("");
      continue;
    }
    let cur = chunks[0];
    for (const c of chunks.slice(1)) {
      if (cur.length + c.length <= width) cur += c;
      else {
        out.push(cur);
        cur = c.trimStart();
      }
    }
    out.push(cur);
  }
  return out;
}

function optionHelp(o: OptionSpec): string {
  const extra: string[] = [];
  if (o.choices) extra.push(`choices: ${o.choices.map((c) => JSON.stringify(c)).join(", ")}`);
  if (o.default !== undefined) extra.push(`default: ${JSON.stringify(o.default)}`);
  return extra.length ? `${o.help} (${extra.join(", ")})` : o.help;
}

function usageOf(cmd: CommandSpec): string {
  const parts = ["[options]"];
  if (cmd.commands) parts.push("[command]");
  for (const a of cmd.args ?? []) parts.push(a.arg);
  return parts.join(" ");
}

function termOf(cmd: CommandSpec): string {
  return [
    cmd.name,
    ...(cmd.options?.length ? ["[options]"] : []),
    ...(cmd.args ?? []).map((a) => a.arg),
  ]
    .join(" ");
}

/** The help text of the last command of `path` (root first), `width` columns wide. */
export function formatHelp(path: readonly CommandSpec[], width = 80): string {
  const cmd = path[path.length - 1];
  const items: { title: string; rows: [string, string][] }[] = [];
  const args = (cmd.args ?? []).map((a) => [argOf(a).name, a.help] as [string, string]);
  if (args.length) items.push({ title: "Arguments:", rows: args });
  items.push({
    title: "Options:",
    rows: [...(cmd.options ?? []).filter((o) => !o.hidden), HELP].map((o) => [
      o.flags,
      optionHelp(o),
    ]),
  });
  if (cmd.commands) {
    const rows = cmd.commands.filter((c) => !c.hidden).map((c) =>
      [termOf(c), c.help] as [string, string]
    );
    rows.push(["help [command]", "display help for command"]);
    items.push({ title: "Commands:", rows });
  }
  const termWidth = Math.max(...items.flatMap((i) => i.rows.map(([t]) => t.length)));
  const out = [`Usage: ${path.map((c) => c.name).join(" ")} ${usageOf(cmd)}`, ""];
  if (cmd.help) out.push(...wrap(cmd.help, width), "");
  const descWidth = width - termWidth - 4;
  for (const i of items) {
    out.push(i.title);
    for (const [term, desc] of i.rows) {
      const lines = desc ? wrap(desc, descWidth) : [""];
      out.push(`  ${term.padEnd(termWidth)}  ${lines[0]}`.trimEnd());
      for (const l of lines.slice(1)) out.push(" ".repeat(termWidth + 4) + l);
    }
    out.push("");
  }
  return out.join("\n");
}
