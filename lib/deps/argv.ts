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
import { suggest, suggestion } from "./argv_suggest.ts";

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
// Parsing: scanWords fills a Scan in one pass; parseArgv then checks it and binds the arguments.

/** What the word scan has found so far. */
interface Scan<C extends CommandSpec> {
  readonly r: ParseResult<C>;
  readonly rootOpts: readonly ParsedOption[];
  /** The command chosen so far (the last of `r.path`) and its own options, -h/--help left out. */
  cmd: C;
  cmdOpts: readonly ParsedOption[];
  /** Positional words, in order, that named no subcommand. */
  readonly operands: string[];
  /** A group's `help` word was read: the operands name the command to describe. */
  helpCommand: boolean;
}

/** Record a usage error, unless one was already recorded (the first one is the one reported). */
function fail(r: ParseResult, message: string, found: string[] = []): void {
  if (r.error) return;
  r.error = { message };
  const s = suggestion(found);
  if (s !== undefined) r.error.suggestion = s;
}

function setOption(
  r: ParseResult,
  target: Record<string, OptionValue>,
  o: ParsedOption,
  value: string | boolean,
): void {
  if (o.spec === HELP) {
    r.help = "stdout";
    return;
  }
  if (typeof value === "string" && o.spec.choices && !o.spec.choices.includes(value)) {
    fail(
      r,
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
}

interface OptionHit {
  o: ParsedOption;
  global: boolean;
}

function findOption(scan: Scan<CommandSpec>, word: string): OptionHit | undefined {
  // The chosen command's options first: a command may reuse a name the root does not have.
  for (const o of scan.cmdOpts) {
    if (o.long === word || o.short === word) return { o, global: false };
  }
  for (const o of scan.rootOpts) {
    if (o.long === word || o.short === word) return { o, global: true };
  }
  return undefined;
}

/** Which option a word names, in any of its spellings, and the value written into the word. */
function matchOption(
  scan: Scan<CommandSpec>,
  word: string,
): { hit?: OptionHit; name: string; inline?: string } {
  const hit = findOption(scan, word);
  if (hit) return { hit, name: word };
  if (word.startsWith("--") && word.includes("=")) {
    const name = word.slice(0, word.indexOf("="));
    const inline = word.slice(word.indexOf("=") + 1);
    const named = findOption(scan, name);
    // `--flag=value` for a boolean is no spelling of `--flag`.
    return named && named.o.value !== undefined ? { hit: named, name, inline } : { name, inline };
  }
  if (word[1] !== "-") {
    // -Xvalue, or a cluster of one-letter booleans (-hX …).
    const name = word.slice(0, 2);
    const short = findOption(scan, name);
    return short ? { hit: short, name, inline: word.slice(2) } : { name };
  }
  return { name: word };
}

/**
 * Read the option word `word`, `next` being the word after it. Returns how many of the following
 * words it took as its value (0 or 1) and, for a cluster of one-letter booleans, the rest of the
 * cluster as a word to read next.
 */
function readOption(
  scan: Scan<CommandSpec>,
  word: string,
  next: string | undefined,
): { took: 0 | 1; cluster?: string } {
  const { hit, name, inline } = matchOption(scan, word);
  if (!hit) {
    const shown = [...scan.cmdOpts, ...scan.rootOpts].filter((o) => !o.spec.hidden);
    const longs = shown.map((o) => o.long);
    fail(scan.r, `unknown option '${word}'`, name.startsWith("--") ? suggest(name, longs) : []);
    return { took: 0 };
  }
  const target = hit.global ? scan.r.globals : scan.r.opts;
  if (hit.o.value === undefined) {
    setOption(scan.r, target, hit.o, !hit.o.negate);
    return inline !== undefined && inline !== "" ? { took: 0, cluster: `-${inline}` } : { took: 0 };
  }
  if (inline !== undefined) {
    setOption(scan.r, target, hit.o, inline);
    return { took: 0 };
  }
  if (next === undefined) {
    fail(scan.r, `option '${hit.o.spec.flags}' argument missing`);
    return { took: 0 };
  }
  setOption(scan.r, target, hit.o, next);
  return { took: 1 };
}

/** A positional word: in a group it names the subcommand (or `help`), else it is an argument. */
function readPositional<C extends CommandSpec>(scan: Scan<C>, word: string): void {
  const { cmd } = scan;
  if (!cmd.commands || scan.operands.length > 0 || scan.helpCommand) {
    scan.operands.push(word);
    return;
  }
  const sub = cmd.commands.find((c) => c.name === word) as C | undefined;
  if (sub) {
    scan.cmd = sub;
    scan.r.path.push(sub);
    scan.cmdOpts = optionsOf(sub).filter((o) => o.spec !== HELP);
  } else if (word === "help") scan.helpCommand = true;
  else {
    const names = cmd.commands.filter((c) => !c.hidden).map((c) => c.name);
    fail(scan.r, `unknown command '${word}'`, suggest(word, [...names, "help"]));
  }
}

function scanWords(scan: Scan<CommandSpec>, argv: readonly string[]): void {
  const words = [...argv];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "--") {
      scan.operands.push(...words.slice(i + 1));
      return;
    }
    if (word.length > 1 && word[0] === "-") {
      const { took, cluster } = readOption(scan, word, words[i + 1]);
      if (cluster !== undefined) words.splice(i + 1, 0, cluster);
      i += took;
    } else readPositional(scan, word);
  }
}

/**
 * `help [command …]`: the named command's help, as deep as the names go; a name that is no
 * command gets the group's help on stderr (as commander did).
 */
function helpCommandResult<C extends CommandSpec>(scan: Scan<C>): ParseResult<C> {
  const { r } = scan;
  delete r.error;
  r.help = "stdout";
  let cmd = scan.cmd;
  for (const word of scan.operands) {
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

/** Fill in option defaults; false after a missing required option (recorded as the error). */
function applyDefaults(r: ParseResult, cmd: CommandSpec): boolean {
  for (const o of (cmd.options ?? []).map(optionOf)) {
    if (r.opts[o.key] === undefined) {
      if (o.spec.default !== undefined) r.opts[o.key] = o.spec.default;
      else if (o.spec.required) {
        fail(r, `required option '${o.spec.flags}' not specified`);
        return false;
      }
    }
  }
  return true;
}

/** Hand the operands to the command's arguments in order, a variadic one taking the rest. */
function bindArgs(r: ParseResult, cmd: CommandSpec, operands: readonly string[]): void {
  const specs = (cmd.args ?? []).map(argOf);
  let k = 0;
  for (const a of specs) {
    if (a.variadic) {
      r.args[a.name] = operands.slice(k);
      k = operands.length;
    } else if (k < operands.length) r.args[a.name] = operands[k++];
    else if (a.required) {
      fail(r, `missing required argument '${a.name}'`);
      return;
    }
  }
  if (k < operands.length) {
    const n = specs.length;
    fail(
      r,
      `too many arguments for '${cmd.name}'. Expected ${n} argument${
        n === 1 ? "" : "s"
      } but got ${operands.length}: ${operands.join(", ")}.`,
    );
  }
}

/**
 * Parse `argv` (without the program name) against `root`. Never throws for user input: the first
 * usage error is returned in `error`, and parsing goes on so that `--json`, `--help` and
 * `--version` are still seen wherever they are.
 */
export function parseArgv<C extends CommandSpec>(root: C, argv: readonly string[]): ParseResult<C> {
  const scan: Scan<C> = {
    r: { path: [root], globals: {}, opts: {}, args: {} },
    rootOpts: optionsOf(root),
    cmd: root,
    cmdOpts: [],
    operands: [],
    helpCommand: false,
  };
  scanWords(scan, argv);
  const { r, cmd } = scan;
  if (scan.helpCommand) return helpCommandResult(scan);
  if (r.help || r.error) return r;
  if (cmd.commands) {
    // A group named without a subcommand: its help, on stderr (as commander did).
    r.help = "stderr";
    return r;
  }
  if (applyDefaults(r, cmd)) bindArgs(r, cmd, scan.operands);
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
