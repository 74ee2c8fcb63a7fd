/**
 * Throwaway HOMEs: for each CLI, the files and environment that make it start straight into its
 * input box (no onboarding, no login, no folder-trust question, no self-update) and talk only to
 * the model stand-in on 127.0.0.1. Shared by `drover verify` and the lab.
 *
 * The CLI's environment is built from nothing (the pane runs `env -i …`): PATH (so a node-based
 * CLI finds node), TERM, a UTF-8 locale, HOME and every XDG base directory inside the throwaway
 * root, plus what the recipe returns. So the user's real settings, credentials and projects are
 * never read or written, and no real API key is ever in reach.
 */
import type { ScenarioTable } from "./types.ts";

export interface SeedInput {
  home: string;
  project: string;
  /** Stand-in base URL (no trailing slash, no /v1). */
  api: string;
  /** A session's own settings, merged over the recipe's (top-level keys; see `Session.settings`). */
  settings?: Record<string, unknown>;
}

export type HomeRecipe = (s: SeedInput) => Promise<Record<string, string>>;

/** The API key handed to every CLI: any value works against the stand-in; it reaches nothing else. */
export const STANDIN_API_KEY = "sk-ant-api03-drover-standin-key-0123456789abcdefghij";

/** Keeps any self-update or registry lookup on a dead loopback port (never the network). */
const OFFLINE_ENV = {
  npm_config_registry: "http://127.0.0.1:9/",
  NO_UPDATE_NOTIFIER: "1",
  COLORTERM: "truecolor",
};

async function writeJson(path: string, data: unknown): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(data, null, 2) + "\n");
}

/** Claude Code: `.claude.json` answers every first-run question; settings pin manual mode. */
export async function seedClaude(
  { home, project, api }: SeedInput,
  opts: {
    /** Leave these first-run answers out (the lab records those dialogs). */
    firstRun?: {
      theme?: boolean;
      apiKey?: boolean;
      trust?: boolean;
      fullscreenUpsell?: boolean;
      autoModeDefault?: boolean;
      autoModeNotice?: boolean;
    };
    settings?: Record<string, unknown>;
    /** The answered theme (default "dark"); issue 21 records "light" and "dark-daltonized". */
    theme?: string;
  } = {},
): Promise<Record<string, string>> {
  const f = opts.firstRun ?? {};
  const state: Record<string, unknown> = {
    numStartups: 1,
    installMethod: "unknown",
    autoUpdates: false,
    firstStartTime: "2026-11-30T00:00:00.000Z",
    userID: "0".repeat(64),
    tipsHistory: {},
    // Newer versions (2.1.332) offer a fullscreen renderer and announce auto mode once; older
    // ones ignore these keys.
    ...(f.fullscreenUpsell ? {} : { fullscreenUpsellSeenCount: 3 }),
    ...(f.autoModeDefault ? {} : { hasSeenAutoDefaultNudge: true }),
    ...(f.autoModeNotice ? {} : { hasSeenAutoDefaultNotice: true }),
    projects: {
      [project]: {
        allowedTools: [],
        hasTrustDialogAccepted: !f.trust,
        hasCompletedProjectOnboarding: true,
        projectOnboardingSeenCount: 1,
      },
    },
  };
  if (!f.theme) {
    state.hasCompletedOnboarding = true;
    state.lastOnboardingVersion = "2.1.197";
    state.theme = opts.theme ?? "dark";
  }
  if (!f.apiKey) {
    state.customApiKeyResponses = { approved: [STANDIN_API_KEY.slice(-20)], rejected: [] };
  }
  await writeJson(`${home}/.claude.json`, state);
  await writeJson(`${home}/.claude/settings.json`, {
    autoUpdates: false,
    env: {},
    ...(opts.settings ?? {}),
  });
  return {
    ANTHROPIC_BASE_URL: api,
    ANTHROPIC_API_KEY: STANDIN_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    COLORTERM: "truecolor",
  };
}

/** Codex: a CODEX_HOME whose config.toml selects a provider on the stand-in. */
export async function seedCodex(
  { home, project, api }: SeedInput,
  opts: { trust?: boolean } = {},
): Promise<Record<string, string>> {
  const codexHome = `${home}/codex-home`;
  await Deno.mkdir(codexHome, { recursive: true });
  const trust = opts.trust ? "" : `\n[projects."${project}"]\ntrust_level = "trusted"\n`;
  await Deno.writeTextFile(
    `${codexHome}/config.toml`,
    [
      `model = "standin-model"`,
      `model_provider = "standin"`,
      ``,
      `[model_providers.standin]`,
      `name = "Model stand-in"`,
      `base_url = "${api}/v1"`,
      `env_key = "STANDIN_API_KEY"`,
      `wire_api = "responses"`,
      trust,
    ].join("\n"),
  );
  return { ...OFFLINE_ENV, CODEX_HOME: codexHome, STANDIN_API_KEY: "sk-standin-0123456789" };
}

/** Gemini CLI: API-key auth against GOOGLE_GEMINI_BASE_URL, no folder trust, no updates. */
export async function seedGemini(
  { home, api }: SeedInput,
  opts: { trust?: boolean } = {},
): Promise<Record<string, string>> {
  await writeJson(`${home}/.gemini/settings.json`, {
    security: {
      auth: { selectedType: "gemini-api-key" },
      folderTrust: { enabled: !!opts.trust },
    },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ui: { hideTips: false },
  });
  return {
    ...OFFLINE_ENV,
    GEMINI_API_KEY: "standin-key-0123456789",
    GOOGLE_GEMINI_BASE_URL: api,
  };
}

/**
 * Qwen Code: an OpenAI-compatible endpoint from the environment; self-update off; the default
 * (ask-first) approval mode — 0.24.4 starts in auto mode, where file writes run unasked and the
 * table's file prompt never shows; the bundled ripgrep may lack its exec bit (an install without
 * scripts), which 0.24.4 reports in a box above the transcript.
 */
export async function seedQwen(
  { home, api, settings }: SeedInput,
): Promise<Record<string, string>> {
  await writeJson(`${home}/.qwen/settings.json`, {
    general: { enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    tools: { approvalMode: "default", useRipgrep: false },
    ...settings,
  });
  return {
    ...OFFLINE_ENV,
    OPENAI_BASE_URL: `${api}/v1`,
    OPENAI_API_KEY: "sk-standin-0123456789",
    OPENAI_MODEL: "standin-model",
  };
}

/** OpenCode: an `@ai-sdk/openai-compatible` provider on the stand-in; shell and edits ask. */
export async function seedOpencode({ home, api }: SeedInput): Promise<Record<string, string>> {
  await writeJson(`${home}/.config/opencode/opencode.json`, {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    model: "standin/standin-model",
    small_model: "standin/standin-model",
    permission: { bash: "ask", edit: "ask" },
    provider: {
      standin: {
        npm: "@ai-sdk/openai-compatible",
        name: "Model stand-in",
        options: { baseURL: `${api}/v1`, apiKey: "sk-standin-0123456789" },
        models: { "standin-model": { name: "Stand-in model" } },
      },
    },
  });
  return {
    ...OFFLINE_ENV,
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_SHARE: "1",
    // Without these it waits 20 s on its model catalogue and may fetch LSP servers / plugins.
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
  };
}

/**
 * GitHub Copilot CLI: its bring-your-own-key mode on the stand-in (no GitHub sign-in), every file
 * of its own under the throwaway HOME (COPILOT_HOME), offline (no auth, telemetry, web tools or
 * self-update) and the project folder already trusted unless the trust question is wanted. The
 * stand-in's model is in no catalogue of Copilot's: the token limits keep it from warning so.
 */
export async function seedCopilot(
  { home, project, api }: SeedInput,
  opts: { trust?: boolean } = {},
): Promise<Record<string, string>> {
  const copilotHome = `${home}/.copilot`;
  await writeJson(`${copilotHome}/config.json`, {
    firstLaunchAt: "2026-11-30T00:00:00.000Z",
    appTipShown: true,
    ...(opts.trust ? {} : { trustedFolders: [project] }),
  });
  return {
    ...OFFLINE_ENV,
    COPILOT_HOME: copilotHome,
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PROVIDER_BASE_URL: `${api}/v1`,
    COPILOT_PROVIDER_TYPE: "openai",
    COPILOT_PROVIDER_API_KEY: "sk-standin-0123456789",
    COPILOT_MODEL: "standin-model",
    COPILOT_PROVIDER_MAX_PROMPT_TOKENS: "128000",
    COPILOT_PROVIDER_MAX_OUTPUT_TOKENS: "8192",
  };
}

/** The notices Cline 3.0.65 opens over its first screen ("Press Enter to open, any other key to close"). */
const CLINE_NOTICES = ["cline-cli-cline-pass-intro", "cline-cli-desktop-launch"];

/**
 * Cline: an OpenAI-compatible provider on the stand-in, written where `cline auth -p openai -b … -k …
 * -m …` writes it (`~/.cline/data/settings/providers.json`), and its start-up notices marked as
 * shown (each would take the first key typed) unless `notices` asks for them (the lab records one). Its hub daemon outlives the CLI: it gets a port of
 * its own (CLINE_HUB_PORT), so two sessions never share one hub (and one HOME's settings), and the
 * runner ends it with the pane (it names the project in its argv).
 */
export async function seedCline(
  { home, api }: SeedInput,
  opts: { notices?: boolean } = {},
): Promise<Record<string, string>> {
  const settings = `${home}/.cline/data/settings`;
  await writeJson(`${settings}/providers.json`, {
    version: 1,
    lastUsedProvider: "openai-compatible",
    modes: {},
    providers: {
      "openai-compatible": {
        settings: {
          provider: "openai-compatible",
          apiKey: "sk-standin-0123456789",
          model: "standin-model",
          baseUrl: `${api}/v1`,
        },
        updatedAt: "2026-12-03T00:00:00.000Z",
        tokenSource: "manual",
      },
    },
  });
  if (!opts.notices) {
    await writeJson(`${settings}/cli-notices.json`, {
      shown: Object.fromEntries(CLINE_NOTICES.map((n) => [n, true])),
    });
  }
  return { ...OFFLINE_ENV, CLINE_HUB_PORT: String(freePort()) };
}

/** A port of 127.0.0.1 nobody listens on now. */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** The recipe a table names; Claude Code starts in manual mode so prompts are the numbered ones. */
export const HOMES: Record<ScenarioTable["home"], HomeRecipe> = {
  claude: (s) => seedClaude(s, { settings: { permissions: { defaultMode: "default" } } }),
  codex: (s) => seedCodex(s),
  gemini: (s) => seedGemini(s),
  qwen: (s) => seedQwen(s),
  opencode: (s) => seedOpencode(s),
  copilot: (s) => seedCopilot(s),
  cline: (s) => seedCline(s),
};

/**
 * The pane's whole environment: nothing inherited but PATH, then the throwaway HOME and XDG
 * directories, then the recipe's variables and the session's.
 */
export function paneEnv(
  root: { home: string },
  path: string,
  extra: Record<string, string>,
): Record<string, string> {
  const h = root.home;
  return {
    PATH: path,
    TERM: "tmux-256color",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    HOME: h,
    XDG_CONFIG_HOME: `${h}/.config`,
    XDG_DATA_HOME: `${h}/.local/share`,
    XDG_STATE_HOME: `${h}/.local/state`,
    XDG_CACHE_HOME: `${h}/.cache`,
    TMPDIR: `${h}/tmp`,
    ...extra,
  };
}
