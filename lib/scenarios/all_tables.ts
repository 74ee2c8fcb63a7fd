/**
 * The per-CLI scenario tables (DESIGN §11), by drover CLI name. Shared by `drover verify` and the
 * lab; loaded only by them (never on the start path of another command).
 */
import { CLAUDE } from "./tables/claude.ts";
import { CODEX } from "./tables/codex.ts";
import { CLINE } from "./tables/cline.ts";
import { COPILOT } from "./tables/copilot.ts";
import { GEMINI } from "./tables/gemini.ts";
import { OPENCODE } from "./tables/opencode.ts";
import { QWEN } from "./tables/qwen.ts";
import type { ScenarioTable } from "./types.ts";

export const TABLES: Readonly<Record<string, ScenarioTable>> = {
  claude: CLAUDE,
  codex: CODEX,
  gemini: GEMINI,
  qwen: QWEN,
  opencode: OPENCODE,
  copilot: COPILOT,
  cline: CLINE,
};

/** The CLIs `verify --all` covers, in report order. */
export const VERIFIABLE: readonly string[] = Object.keys(TABLES);

/** The table for a CLI name or one of its aliases ("claude-code" → claude). */
export function tableFor(name: string): ScenarioTable | undefined {
  if (TABLES[name]) return TABLES[name];
  return Object.values(TABLES).find((t) => t.lab === name);
}
