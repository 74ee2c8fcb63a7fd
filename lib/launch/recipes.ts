/**
 * Launch recipes: which executable starts an agent CLI and how it takes a seeded kickoff prompt.
 * Built-in recipes cover known CLIs; `[clis.<name>]` entries in the configuration override them
 * field by field or add new ones. Pure: no I/O.
 */
import { DroverError, invalidArgument } from "../errors.ts";

/** How a kickoff prompt is handed to the CLI: the last argv element, after a flag, or not at all. */
export type PromptForm =
  | { kind: "positional" }
  | { kind: "flag"; flag: string }
  | { kind: "none" };

export interface Recipe {
  name: string;
  command: string;
  args: string[];
  prompt: PromptForm;
  env: Record<string, string>;
  enabled: boolean;
  /** Other names that find this recipe when no entry has the exact name (e.g. "claude-code"). */
  aliases: string[];
  /** Where the recipe came from. */
  source: "builtin" | "config" | "builtin+config";
  /** What the built-in's prompt form was checked against. */
  checked?: string;
}

/** One `[clis.<name>]` table as the configuration loader hands it over (launch fields only). */
export interface CliOverride {
  command?: unknown;
  args?: unknown;
  prompt?: unknown;
  env?: unknown;
  enabled?: unknown;
  [key: string]: unknown;
}

const HELP = (v: string) => `--help of the pinned ${v} (tests/lab/clis)`;
const REF = "reference notes only (not installed here; re-check its --help)";

interface BuiltinSpec {
  command: string;
  /** argv before the prompt, always (cline: `-i`, or it runs headless). */
  args?: string[];
  prompt: string;
  aliases?: string[];
  checked: string;
}

/**
 * Built-in recipes. The pinned CLIs were checked against their real `--help`:
 * claude `[prompt]` positional; codex `[PROMPT]` positional; gemini `-i/--prompt-interactive`
 * (its positional also works, but -i is the documented interactive form); qwen's positional runs
 * one-shot, so `--prompt-interactive`; opencode's positional is a project path, so `--prompt`;
 * copilot has no positional prompt (`-p` is one-shot), `-i/--interactive <prompt>` starts it
 * interactive and runs the prompt; cline's positional prompt runs headless with every tool
 * auto-approved unless `-i/--tui` opens its TUI, where the prompt is the first turn (`cline -i
 * <prompt>`, checked byte-exact in the lab), so `-i` is always in its argv.
 */
const BUILTINS: Record<string, BuiltinSpec> = {
  claude: {
    command: "claude",
    prompt: "positional",
    aliases: ["claude-code"],
    checked: HELP("@anthropic-ai/claude-code 2.1.197"),
  },
  codex: { command: "codex", prompt: "positional", checked: HELP("@openai/codex 0.171.0") },
  gemini: {
    command: "gemini",
    prompt: "flag:--prompt-interactive",
    aliases: ["gemini-cli"],
    checked: HELP("@google/gemini-cli 0.61.0"),
  },
  qwen: {
    command: "qwen",
    prompt: "flag:--prompt-interactive",
    aliases: ["qwen-code"],
    checked: HELP("@qwen-code/qwen-code 0.15.10"),
  },
  opencode: { command: "opencode", prompt: "flag:--prompt", checked: HELP("opencode-ai 1.18.33") },
  copilot: {
    command: "copilot",
    prompt: "flag:--interactive",
    checked: HELP("@github/copilot 1.0.102"),
  },
  cline: { command: "cline", args: ["-i"], prompt: "positional", checked: HELP("cline 3.0.65") },
  "cursor-agent": { command: "cursor-agent", prompt: "positional", checked: REF },
  kimi: { command: "kimi", prompt: "flag:--prompt", checked: REF },
  droid: { command: "droid", prompt: "positional", checked: REF },
  qodercli: { command: "qodercli", prompt: "flag:--prompt-interactive", checked: REF },
  grok: { command: "grok", prompt: "positional", checked: REF },
  pi: { command: "pi", prompt: "positional", checked: REF },
  // amp has no interactive start that takes a prompt (only a one-shot --execute).
  amp: { command: "amp", prompt: "none", checked: REF },
};

export function builtinNames(): string[] {
  return Object.keys(BUILTINS);
}

const FLAG_RE = /^-{1,2}[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parse a `prompt` value: "positional", "flag:--x" or "none". */
export function parsePromptForm(value: string, where: string): PromptForm {
  if (value === "positional") return { kind: "positional" };
  if (value === "none") return { kind: "none" };
  if (value.startsWith("flag:")) {
    const flag = value.slice(5);
    if (FLAG_RE.test(flag)) return { kind: "flag", flag };
  }
  throw invalidArgument(
    `${where}: prompt = ${
      JSON.stringify(value)
    } is not one of "positional", "flag:--<option>", "none"`,
  );
}

export function formatPromptForm(form: PromptForm): string {
  return form.kind === "flag" ? `flag:${form.flag}` : form.kind;
}

function builtin(name: string): Recipe {
  const b = BUILTINS[name]!;
  return {
    name,
    command: b.command,
    args: [...(b.args ?? [])],
    prompt: parsePromptForm(b.prompt, `built-in ${name}`),
    env: {},
    enabled: true,
    aliases: b.aliases ?? [],
    source: "builtin",
    checked: b.checked,
  };
}

function stringList(v: unknown, where: string): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
    throw invalidArgument(`${where} must be a list of strings`);
  }
  return v as string[];
}

/** Merge one `[clis.<name>]` entry over its built-in (if any). Validates the launch fields. */
export function applyEntry(name: string, entry: CliOverride, base?: Recipe): Recipe {
  const where = `[clis.${name}]`;
  const r: Recipe = base ? { ...base, args: [...base.args], env: { ...base.env } } : {
    name,
    command: name,
    args: [],
    prompt: { kind: "positional" },
    env: {},
    enabled: true,
    aliases: [],
    source: "config",
  };
  if (base) r.source = "builtin+config";
  if (entry.command !== undefined) {
    if (typeof entry.command !== "string" || entry.command.trim() === "") {
      throw invalidArgument(`${where} command must be a non-empty string`);
    }
    r.command = entry.command;
  }
  if (entry.args !== undefined) r.args = stringList(entry.args, `${where} args`);
  if (entry.prompt !== undefined) {
    if (typeof entry.prompt !== "string") {
      throw invalidArgument(`${where} prompt must be a string`);
    }
    r.prompt = parsePromptForm(entry.prompt, where);
  }
  if (entry.env !== undefined) {
    if (typeof entry.env !== "object" || entry.env === null || Array.isArray(entry.env)) {
      throw invalidArgument(`${where} env must be a table of strings`);
    }
    for (const [k, v] of Object.entries(entry.env as Record<string, unknown>)) {
      if (!ENV_NAME_RE.test(k)) throw invalidArgument(`${where} env: ${k} is not a valid name`);
      if (typeof v !== "string") throw invalidArgument(`${where} env.${k} must be a string`);
      if (v.includes("\0")) throw invalidArgument(`${where} env.${k} contains a NUL byte`);
      r.env[k] = v;
    }
  }
  if (entry.enabled !== undefined) {
    if (typeof entry.enabled !== "boolean") {
      throw invalidArgument(`${where} enabled must be true or false`);
    }
    r.enabled = entry.enabled;
  }
  return r;
}

/** Every recipe: built-ins overlaid by configuration entries, built-ins first, in stable order. */
export function allRecipes(clis: Record<string, CliOverride> = {}): Recipe[] {
  const out = new Map<string, Recipe>();
  for (const name of builtinNames()) out.set(name, builtin(name));
  for (const [name, entry] of Object.entries(clis)) {
    out.set(name, applyEntry(name, entry ?? {}, out.get(name)));
  }
  return [...out.values()];
}

function basename(cmd: string): string {
  const i = cmd.lastIndexOf("/");
  return i >= 0 ? cmd.slice(i + 1) : cmd;
}

/**
 * Find the recipe for `--cli NAME`: an exact name first (disabled → PROFILE_NOT_FOUND); otherwise
 * the enabled recipes whose alias or command basename is NAME — exactly one, or PROFILE_NOT_UNIQUE.
 */
export function lookupRecipe(name: string, clis: Record<string, CliOverride> = {}): Recipe {
  const recipes = allRecipes(clis);
  const exact = recipes.find((r) => r.name === name);
  if (exact) {
    if (!exact.enabled) {
      throw new DroverError(
        "PROFILE_NOT_FOUND",
        `the CLI profile "${name}" is disabled (enabled = false in [clis.${name}]); enable it to launch`,
      );
    }
    return exact;
  }
  const matches = recipes.filter((r) =>
    r.enabled && (r.aliases.includes(name) || basename(r.command) === name)
  );
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new DroverError(
      "PROFILE_NOT_UNIQUE",
      `"${name}" matches several CLI profiles (${
        matches.map((m) => m.name).join(", ")
      }); pass one of those names`,
      { details: { candidates: matches.map((m) => m.name) } },
    );
  }
  const known = recipes.filter((r) => r.enabled).map((r) => r.name).join(", ");
  throw new DroverError(
    "PROFILE_NOT_FOUND",
    `no CLI profile named "${name}"; known: ${known} (add [clis.${name}] to the configuration)`,
  );
}

/** The argv that starts the CLI, with the place where the prompt goes. */
export interface LaunchArgv {
  /** Executable and arguments before the prompt. */
  argv: string[];
  /** The text glued in front of the prompt in the final argument ("" or "--flag="). */
  promptPrefix: string;
}

/**
 * argv for a launch. With a prompt the prompt is always the final argv element: positional after
 * the arguments (after `--` when it starts with "-", so no option parser mistakes it for a flag);
 * a flag form as `--flag PROMPT`, or `--flag=PROMPT` when the prompt starts with "-".
 */
export function promptArgv(recipe: Recipe, prompt: string): LaunchArgv {
  const argv = [recipe.command, ...recipe.args];
  const dash = prompt.startsWith("-");
  switch (recipe.prompt.kind) {
    case "none":
      throw invalidArgument(
        `the CLI "${recipe.name}" cannot take a kickoff prompt (prompt = "none"); launch it without ` +
          `--prompt, or set prompt = "positional" or "flag:--<option>" in [clis.${recipe.name}]`,
      );
    case "positional":
      if (dash) argv.push("--");
      return { argv, promptPrefix: "" };
    case "flag":
      if (dash) return { argv, promptPrefix: `${recipe.prompt.flag}=` };
      argv.push(recipe.prompt.flag);
      return { argv, promptPrefix: "" };
  }
}
