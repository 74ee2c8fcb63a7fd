/**
 * Pane → CLI. Sources, first hit wins:
 *   1. the pane option @drover-cli (set by `drover launch`): "pane-option"
 *   2. the pane's processes against configured commands, then known CLI executables: "process"
 *   3. the command's --cli flag: "flag"
 *   4. the configuration's default_cli: "default_cli"
 *   5. claude: "fallback"
 * CLIs that run under node (or bun, deno) show the interpreter as the pane's current command, so
 * the script argument of every process in the pane's tree is looked at as well.
 */
import type { PaneInfo } from "../tmux/panes.ts";
import { type Proc, type ProcTable, subtree } from "./procs.ts";
import type { CliNames } from "./version.ts";
import { oneLine } from "../base/clip.ts";

export type CliSource = "pane-option" | "process" | "flag" | "default_cli" | "fallback";

export interface Identified {
  cli: string;
  source: CliSource;
  /** What matched, for people: the option value, the process argv, the flag … */
  evidence: string;
}

/** The part of the configuration identification reads. */
export interface IdentifyConfig {
  readonly defaultCli?: string | null;
  readonly clis?: Readonly<Record<string, { readonly command?: string | null }>>;
}

/**
 * Executable names (and npm package paths) of the CLIs drover knows, by the profile name they
 * resolve to. Process names, not screen wording: no profile can describe them.
 */
export const KNOWN_CLIS: { name: string; executables: string[]; packages: string[] }[] = [
  {
    name: "claude",
    executables: ["claude"],
    // The npm package, and its platform binary packages (@anthropic-ai/claude-code-linux-x64 …).
    packages: ["@anthropic-ai/claude-code", "@anthropic-ai/claude-code-"],
  },
  { name: "codex", executables: ["codex"], packages: ["@openai/codex"] },
  { name: "gemini", executables: ["gemini"], packages: ["@google/gemini-cli"] },
  { name: "qwen", executables: ["qwen"], packages: ["@qwen-code/qwen-code"] },
  { name: "opencode", executables: ["opencode"], packages: ["opencode-ai", "opencode-linux-"] },
  { name: "copilot", executables: ["copilot"], packages: ["@github/copilot"] },
  { name: "cline", executables: ["cline"], packages: ["cline", "@cline/cli-"] },
];

export const FALLBACK_CLI = "claude";

/**
 * What the installs of CLI `cli` are called: its known executables and npm packages, plus the
 * executable of its configured command. Used to read its version from its processes (version.ts).
 */
export function cliNames(cli: string, config: IdentifyConfig): CliNames {
  const known = KNOWN_CLIS.find((k) => k.name === cli);
  const cmd = config.clis?.[cli]?.command?.trim();
  const exe = cmd ? basename(cmd.split(/\s+/)[0]) : undefined;
  return {
    executables: [...new Set([...(known?.executables ?? []), ...(exe ? [exe] : [])])],
    packages: known?.packages ?? [],
  };
}

/** Processes whose first non-flag argument is the program really running (a script, a wrapper). */
const INTERPRETERS = new Set([
  "node",
  "nodejs",
  "bun",
  "deno",
  "npx",
  "tsx",
  "bash",
  "sh",
  "dash",
  "zsh",
  "python",
  "python3",
]);

function basename(p: string): string {
  const i = p.lastIndexOf("/");
  return i >= 0 ? p.slice(i + 1) : p;
}

/**
 * The names a process may be known by: its executable and, under an interpreter (node, a shell …),
 * the script it runs — following interpreter chains (`bash /usr/bin/node …/cli.js`).
 */
function processNames(p: Proc): { names: string[]; paths: string[] } {
  const names: string[] = [];
  // Paths only: an argument with whitespace is data (a prompt), not a program.
  const paths = p.argv.filter((a) => a.includes("/") && !/\s/.test(a));
  let i = 0;
  for (let hops = 0; hops < 4 && i < p.argv.length; hops++) {
    // A login shell shows as "-bash"; a process may set its title with spaces ("claude --x").
    const name = basename(p.argv[i]).replace(/^-/, "").split(" ")[0];
    names.push(name);
    if (!INTERPRETERS.has(name)) break;
    let j = i + 1;
    while (j < p.argv.length && p.argv[j].startsWith("-")) j++;
    i = j;
  }
  return { names, paths };
}

function matchConfigured(
  names: string[],
  config: IdentifyConfig,
): string | undefined {
  for (const [cli, entry] of Object.entries(config.clis ?? {})) {
    const cmd = entry.command?.trim();
    if (!cmd) continue;
    const exe = basename(cmd.split(/\s+/)[0]);
    if (names.includes(exe)) return cli;
  }
  return undefined;
}

function matchKnown(names: string[], paths: string[]): string | undefined {
  for (const k of KNOWN_CLIS) {
    if (names.some((n) => k.executables.includes(n))) return k.name;
    if (paths.some((p) => k.packages.some((pkg) => p.includes(`/${pkg}`)))) return k.name;
  }
  return undefined;
}

/**
 * Whether identifying `pane` can use the process table at all: not when its drover option names
 * the CLI, nor when no configured command could match and its own command is a known CLI (the
 * table would only confirm what the command says). Reading /proc is the dearest part of an
 * inventory, so callers skip it when no pane needs it.
 */
export function needsProcessTable(pane: PaneInfo, config: IdentifyConfig): boolean {
  if (pane.droverCli.trim() !== "") return false;
  if (Object.values(config.clis ?? {}).some((e) => e.command?.trim())) return true;
  return !pane.currentCommand || matchKnown([basename(pane.currentCommand)], []) === undefined;
}

export interface IdentifyInput {
  pane: PaneInfo;
  config: IdentifyConfig;
  /** The command's --cli flag. */
  cliFlag?: string;
  /** Process table snapshot; without one only the pane's current command is looked at. */
  procs?: ProcTable;
}

export function identifyPane(input: IdentifyInput): Identified {
  const { pane, config } = input;
  if (pane.droverCli.trim() !== "") {
    return {
      cli: pane.droverCli.trim(),
      source: "pane-option",
      evidence: `@drover-cli=${pane.droverCli.trim()}`,
    };
  }
  // Evidence is written only for the candidate that matched (an argv may be a long script).
  const candidates: { names: string[]; paths: string[]; evidence: () => string }[] = [];
  if (pane.currentCommand) {
    candidates.push({
      names: [basename(pane.currentCommand)],
      paths: [],
      evidence: () => `pane command ${pane.currentCommand}`,
    });
  }
  if (input.procs) {
    for (const p of subtree(input.procs, pane.pid)) {
      const { names, paths } = processNames(p);
      candidates.push({
        names,
        paths,
        // argv can carry a whole prompt: evidence stays one short line.
        evidence: () => oneLine(`process ${p.pid}: ${p.argv.join(" ")}`, 120),
      });
    }
  }
  // Configured commands first across the whole tree, then known names: a user's own wrapper named
  // like a known CLI should win.
  for (const c of candidates) {
    const hit = matchConfigured(c.names, config);
    if (hit) return { cli: hit, source: "process", evidence: c.evidence() };
  }
  for (const c of candidates) {
    const hit = matchKnown(c.names, c.paths);
    if (hit) return { cli: hit, source: "process", evidence: c.evidence() };
  }
  if (input.cliFlag) return { cli: input.cliFlag, source: "flag", evidence: "--cli" };
  if (config.defaultCli) {
    return { cli: config.defaultCli, source: "default_cli", evidence: "default_cli" };
  }
  return { cli: FALLBACK_CLI, source: "fallback", evidence: "nothing identified the pane" };
}
