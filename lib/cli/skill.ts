/**
 * `drover skill`: print the bundled Agent Skill (skill/SKILL.md, embedded in the binary by a text
 * import, so there is one source and no generated copy to drift), or `--install` it as
 * `DIR/drover/SKILL.md`.
 */
import skillText from "../../skill/SKILL.md" with { type: "text" };
import { DroverError } from "../errors.ts";
import type { Invocation } from "./invocation.ts";
import type { SKILL } from "./command_specs.ts";
import { type CommandResult, writeOut } from "./output.ts";
import type { SkillData } from "../contracts/skill.ts";

export const SKILL_TEXT: string = skillText;

/**
 * User skills folder of each verified CLI, as named in the installed CLI itself (strings in the
 * pinned lab builds: Claude Code 2.1.332 `~/.claude/skills/`, Gemini CLI 0.61.0 `~/.gemini/skills`,
 * Qwen Code 0.24.4 `~/.qwen/skills/`, Codex 0.171.0 `~/.codex/skills`, opencode 1.18.33
 * `.config/opencode/skill(s)/<name>/SKILL.md`). Only Claude Code's is proven by the lab; each also
 * has a project folder (`.claude/skills` …), reachable with --dir.
 */
const SKILL_DIRS: Record<string, (home: string) => string> = {
  claude: (home) => `${home}/.claude/skills`,
  gemini: (home) => `${home}/.gemini/skills`,
  qwen: (home) => `${home}/.qwen/skills`,
  codex: (home) => `${home}/.codex/skills`,
  opencode: (home) => `${home}/.config/opencode/skills`,
};

function defaultDir(cli: string): string {
  const dir = SKILL_DIRS[cli];
  if (!dir) {
    throw new DroverError(
      "INVALID_ARGUMENT",
      `--cli ${cli}: no known skills folder for this CLI (known: ${
        Object.keys(SKILL_DIRS).join(", ")
      }); pass --dir DIR`,
    );
  }
  const home = Deno.env.get("HOME");
  if (!home) throw new DroverError("INVALID_ARGUMENT", "HOME is not set; pass --dir DIR");
  return dir(home);
}

async function existing(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw new DroverError("IO_FAILED", `cannot read ${path}: ${(e as Error).message}`);
  }
}

export async function action(
  { opts: o, g }: Invocation<typeof SKILL>,
): Promise<CommandResult<SkillData>> {
  if (o.install !== true) {
    if (o.dir !== undefined || o.cli !== undefined || o.force === true) {
      throw new DroverError("INVALID_ARGUMENT", "--dir, --cli and --force need --install");
    }
    const data = { bytes: new TextEncoder().encode(SKILL_TEXT).length, skill: SKILL_TEXT };
    if (g.json) return { data };
    // Byte-exact, like sweep-script.
    writeOut(SKILL_TEXT);
    return { data, human: [] };
  }
  const base = typeof o.dir === "string" ? o.dir : defaultDir(String(o.cli ?? "claude"));
  const folder = `${base.replace(/\/+$/, "")}/drover`;
  const path = `${folder}/SKILL.md`;
  const before = await existing(path);
  const unchanged = before === SKILL_TEXT;
  if (before !== null && !unchanged && o.force !== true) {
    throw new DroverError(
      "INVALID_ARGUMENT",
      `${path} exists with different content; pass --force to overwrite it`,
    );
  }
  if (!unchanged) {
    try {
      await Deno.mkdir(folder, { recursive: true });
      await Deno.writeTextFile(path, SKILL_TEXT);
    } catch (e) {
      throw new DroverError("IO_FAILED", `cannot write ${path}: ${(e as Error).message}`);
    }
  }
  const data = { path, written: !unchanged, replaced: before !== null && !unchanged };
  return { data, human: [unchanged ? `${path} is already current` : `wrote ${path}`] };
}
