/**
 * Launch recipe for the real Claude Code in the lab: a throwaway HOME whose `.claude.json` decides which
 * first-run screens appear, a throwaway project folder, the scripted Anthropic stand-in, and the env that
 * keeps the CLI on 127.0.0.1. Reused by every suite that needs a live Claude Code pane (screens, approve,
 * drive, launch).
 *
 * ```ts
 * await using lab = await LabServer.start();
 * await using claude = await startClaude(lab, {
 *   cols: 120, rows: 40,
 *   script: [{ kind: "tool_use", name: "Bash", input: { command: "ls", description: "List" } }],
 * });                                   // waits for the ready input box (relaunches once on failure)
 * await claude.pane.type("list files"); await claude.pane.keys("Enter");
 * await claude.pane.waitFor("Do you want to proceed?");
 * claude.api.mainRequests()               // what the CLI sent
 * ```
 * `firstRun` leaves out the matching `.claude.json` keys so the real dialog shows; with any of them set
 * (or `bypass`), `startClaude` does not wait for the ready screen — wait for the dialog yourself.
 */
import { resolveCli, type ResolvedCli } from "./clis.ts";
import { seedClaude } from "../../../lib/scenarios/homes.ts";
import { type Condition, LabPane, LabServer } from "./tmux.ts";
import {
  type AnthropicStandin,
  type AnthropicStandinOptions,
  type AnthropicStep,
  startAnthropicStandin,
} from "../../../lib/scenarios/standins/anthropic.ts";

/** The API key the lab hands Claude Code; its last 20 characters are the ones lib/scenarios/homes.ts
 * approves in `.claude.json` (any value works against the stand-in). */
export const LAB_API_KEY = "sk-ant-api03-drover-lab-key-0123456789abcdefghij";

/** The fake subscription token for `auth: "subscription"` (only ever sent to the stand-in). */
export const LAB_OAUTH_TOKEN = "sk-ant-oat01-drover-lab-token-0123456789";

/** The line that proves the ready input box is up (the shortcut hint under the prompt). */
export const CLAUDE_READY: Condition = "? for shortcuts";

export interface ClaudeOptions {
  cols: number;
  rows: number;
  /** Which pinned version to start (default: the package's own pin); see `cli` for scratch installs. */
  version?: string;
  /** An already resolved CLI (e.g. `resolveCliAt` on a scratch prefix); wins over `version`. */
  cli?: ResolvedCli;
  /**
   * Extra keys for `$HOME/.claude/settings.json`, e.g. `{ permissions: { defaultMode: "default" } }`
   * (manual permission mode on versions that start in auto mode).
   */
  settings?: Record<string, unknown>;
  script?: AnthropicStep[];
  standin?: AnthropicStandinOptions;
  /** Extra argv (e.g. ["--model", "claude-sonnet-4-5"]). */
  args?: string[];
  /** Extra environment (e.g. CLAUDE_CODE_MAX_RETRIES). */
  env?: Record<string, string>;
  /** The theme answered in `.claude.json` (default "dark"). */
  theme?: string;
  /** Which first-run screens to let through (default: none). */
  firstRun?: {
    theme?: boolean;
    apiKey?: boolean;
    trust?: boolean;
    /** 2.1.332: "Try the new fullscreen renderer?" */
    fullscreenUpsell?: boolean;
    /** 2.1.332 with a manual defaultMode in settings: "Make auto mode your default permission mode?" */
    autoModeDefault?: boolean;
    /** 2.1.332: the "Auto mode is now Claude Code's default permission mode." note above the input. */
    autoModeNotice?: boolean;
  };
  /**
   * "api-key" (default): ANTHROPIC_API_KEY. "subscription": a (fake) claude.ai OAuth token
   * (CLAUDE_CODE_OAUTH_TOKEN + scopes + subscription type) — the CLI then honours the unified rate-limit
   * headers and shows the subscription usage-limit screens.
   */
  auth?: "api-key" | "subscription";
  /** Start with --dangerously-skip-permissions (IS_SANDBOX=1, since the lab runs as root). */
  bypass?: boolean;
  /** Wait for this after start instead of the ready screen (default: ready, unless firstRun/bypass). */
  waitFor?: Condition | null;
  /** Files to create in the project folder before start (relative path → content). */
  files?: Record<string, string>;
  timeoutMs?: number;
  /** Keep the TMUX and TMUX_PANE tmux sets for the pane (an orchestrator that runs drover). */
  keepTmuxEnv?: boolean;
  /** Runs on the seeded HOME before each (re)launch (e.g. install a skill into it). */
  prepareHome?: (home: string) => Promise<void>;
}

export interface ClaudeSession extends AsyncDisposable {
  pane: LabPane;
  api: AnthropicStandin;
  /** The throwaway project folder (the CLI's cwd). */
  project: string;
  home: string;
  version: string;
}

/**
 * Write `$HOME/.claude.json` (+ settings) for a lab run: the same seed `drover verify` uses
 * (lib/scenarios/homes.ts), so the lab and verify start Claude Code from one recipe.
 */
export async function seedClaudeHome(
  home: string,
  project: string,
  firstRun: ClaudeOptions["firstRun"] = {},
  settings: Record<string, unknown> = {},
  theme?: string,
): Promise<void> {
  await seedClaude({ home, project, api: "" }, { firstRun, settings, theme });
}

/** Start the stand-in and Claude Code in a new pane of `lab`; see the module doc. */
export async function startClaude(lab: LabServer, opts: ClaudeOptions): Promise<ClaudeSession> {
  const cli = opts.cli ?? await resolveCli("claude-code", opts.version);
  const api = await startAnthropicStandin(opts.script ?? [], opts.standin);
  try {
    // One short temp root with fixed-length names: the project path shows on screen (header, prompts,
    // "allow access to project/"), so its length must not vary between runs or wrapping would.
    const root = await lab.tmpDir("cc");
    const home = `${root}/home`;
    const project = `${root}/project`;
    await Deno.mkdir(home);
    await Deno.mkdir(project);
    for (const [rel, content] of Object.entries(opts.files ?? {})) {
      const path = `${project}/${rel}`;
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(path, content);
    }
    const anyFirstRun = Object.values(opts.firstRun ?? {}).some((v) => v);
    const until = opts.waitFor === undefined
      ? (anyFirstRun || opts.bypass ? null : CLAUDE_READY)
      : opts.waitFor;
    const pane = await lab.launch({
      argv: [
        ...cli.argv,
        ...(opts.bypass ? ["--dangerously-skip-permissions"] : []),
        ...(opts.args ?? []),
      ],
      cols: opts.cols,
      rows: opts.rows,
      home,
      cwd: project,
      name: "claude",
      env: {
        ANTHROPIC_BASE_URL: api.url,
        ...(opts.auth === "subscription"
          ? {
            CLAUDE_CODE_OAUTH_TOKEN: LAB_OAUTH_TOKEN,
            CLAUDE_CODE_OAUTH_SCOPES: "user:inference user:profile",
            CLAUDE_CODE_SUBSCRIPTION_TYPE: "max",
          }
          : { ANTHROPIC_API_KEY: LAB_API_KEY }),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        COLORTERM: "truecolor",
        ...(opts.bypass ? { IS_SANDBOX: "1" } : {}),
        ...opts.env,
      },
      prepare: async () => {
        await seedClaudeHome(home, project, opts.firstRun, opts.settings, opts.theme);
        await opts.prepareHome?.(home);
      },
      keepTmuxEnv: opts.keepTmuxEnv,
      // Settle first: keys sent while the first frame is still being drawn can be lost.
      ready: until === null
        ? undefined
        : { until, timeoutMs: opts.timeoutMs ?? 45_000, stableMs: 600 },
    });
    return {
      pane,
      api,
      project,
      home,
      version: cli.version,
      async [Symbol.asyncDispose]() {
        await pane.kill();
        await api.close();
      },
    };
  } catch (e) {
    await api.close();
    throw e;
  }
}
