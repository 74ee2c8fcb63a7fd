/**
 * The shipped (embedded) profiles. Text imports are bundled by `deno compile`, need no read
 * permission, and work the same under `deno run`, `deno test` and the binary. To ship a verified
 * profile for another CLI, add one import and one entry here (see docs/profiles.md).
 */
import claudeCode from "./claude-code.toml" with { type: "text" };
import codex from "./codex.toml" with { type: "text" };
import gemini from "./gemini.toml" with { type: "text" };
import qwen from "./qwen.toml" with { type: "text" };
import opencode from "./opencode.toml" with { type: "text" };
import copilot from "./copilot.toml" with { type: "text" };
import cline from "./cline.toml" with { type: "text" };

export interface EmbeddedProfileText {
  /** Path relative to the repository, used in error messages and provenance. */
  readonly file: string;
  readonly text: string;
}

export const EMBEDDED_PROFILES: readonly EmbeddedProfileText[] = [
  { file: "profiles/claude-code.toml", text: claudeCode },
  { file: "profiles/codex.toml", text: codex },
  { file: "profiles/gemini.toml", text: gemini },
  { file: "profiles/qwen.toml", text: qwen },
  { file: "profiles/opencode.toml", text: opencode },
  { file: "profiles/copilot.toml", text: copilot },
  { file: "profiles/cline.toml", text: cline },
];
