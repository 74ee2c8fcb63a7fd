/**
 * What the launch suites (launch_claude, copilot_launch, orchestrate_claude) share: the kickoff
 * prompt no shell or tmux layer may alter, and the drover config that makes the lab's real CLI the
 * `[clis.<name>]` a launch starts.
 */
import { LAB_API_KEY } from "../harness/mod.ts";

/** About `bytes` of text no shell or tmux layer may alter. Starts and ends with non-blank text. */
export function seededPrompt(bytes: number): string {
  const unit = [
    `Read this "carefully": it's a test of the launch carrier.\tTab\tseparated.`,
    "Keep $HOME ${PATH} $(whoami) `id` \\ backslashes \\\\ and globs * ? [x] literally.",
    "Non-ASCII: Grüße, naïve café, Ελληνικά, русский, 日本語, 中文, 🐑",
    "",
  ].join("\n");
  const enc = new TextEncoder();
  let out = "Kickoff for the drover launch lab.\n";
  while (enc.encode(out + unit).length < bytes - 64) out += unit;
  return out + "Reply with exactly the sentence you were scripted to say.";
}

/**
 * `[clis.<name>]` as the lab's real CLI: the built-in recipe's prompt form, the lab's executable
 * (`argv`) and a launch-scoped environment (its own HOME, `env`) that keeps it on the stand-in.
 */
export function cliConfigToml(
  name: string,
  argv: readonly string[],
  home: string,
  env: Record<string, string>,
): string {
  return [
    `[clis.${name}]`,
    `command = ${JSON.stringify(argv[0])}`,
    `args = ${JSON.stringify(argv.slice(1))}`,
    `[clis.${name}.env]`,
    `HOME = ${JSON.stringify(home)}`,
    ...Object.entries(env).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
    'TERM = "tmux-256color"',
    'LANG = "C.UTF-8"',
    "",
  ].join("\n");
}

/** The environment that keeps a launched Claude Code on the Anthropic stand-in at `apiUrl`. */
export function claudeStandinEnv(apiUrl: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: LAB_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
}
