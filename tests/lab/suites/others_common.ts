/**
 * Launch recipes for the lab's non-Claude CLIs (Codex, Gemini CLI, Qwen Code, OpenCode): each with
 * its scripted stand-in on 127.0.0.1, a throwaway HOME/config home seeded so that the CLI talks only
 * to that stand-in and never updates itself, and a throwaway project folder. Shared by the
 * `<cli>_screens.ts` and `<cli>_approve.ts` suites. No `suite` export: a helper module.
 *
 * ```ts
 * await using s = await startOther(ctx, CODEX, { script: [execCommand("touch x")] });
 * await submit(ctx, s, "create the file");
 * await ctx.screen(s.pane, "shell-prompt", { state: "prompt", defining: [...] });
 * ```
 */
import {
  type CliId,
  type Condition,
  type LabPane,
  type LabScenario,
  resolveCli,
  type ScenarioContext,
} from "../harness/mod.ts";
import { endProcesses, processesNaming, processTree } from "../../../lib/proc/tree.ts";
import { startResponsesStandin } from "../../../lib/scenarios/standins/openai_responses.ts";
import {
  type ClassifierVerdict,
  startChatStandin,
} from "../../../lib/scenarios/standins/chat_completions.ts";
import { startGeminiStandin } from "../../../lib/scenarios/standins/gemini.ts";
import type { ScriptedStandin } from "../../../lib/scenarios/standins/scripted_standin.ts";
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";
import {
  seedCline,
  seedCodex,
  seedCopilot,
  seedGemini,
  seedOpencode,
} from "../../../lib/scenarios/homes.ts";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface SeedInput {
  home: string;
  project: string;
  /** Stand-in base URL (no trailing slash, no /v1). */
  api: string;
  firstRun: FirstRun;
  /** Settings to merge into the CLI's own settings file (Qwen Code: $HOME/.qwen/settings.json). */
  settings?: Record<string, unknown>;
}

export interface FirstRun {
  /** Let the folder-trust question show. */
  trust?: boolean;
  /** Let the start-up notices show (Cline). */
  notices?: boolean;
}

export interface OtherCli {
  id: Exclude<CliId, "claude-code">;
  /** The drover CLI name detect() judges with (first token of the command). */
  profile: string;
  api: "responses" | "chat" | "gemini";
  /** The line that proves the ready input box is up. */
  ready: Condition;
  /** Write the throwaway HOME / config; return the environment to launch with. */
  seed(s: SeedInput): Promise<Record<string, string>>;
  /** argv after the executable. */
  args: string[];
  /** One-line summary of the launch for PROVENANCE.md. */
  setup: string[];
  /** How long starting may take (default 60 s). */
  readyTimeoutMs?: number;
}

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

async function gitInit(dir: string): Promise<void> {
  // A git repository is what makes Codex ask the folder-trust question.
  await new Deno.Command("git", {
    args: ["init", "-q", dir],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
}

export const CODEX: OtherCli = {
  id: "codex",
  profile: "codex",
  api: "responses",
  ready: "? for shortcuts",
  args: ["-a", "on-request", "--no-daemon"],
  setup: [
    'CODEX_HOME=<tmp>/codex-home with config.toml (lib/scenarios/homes.ts): model_provider "standin" ' +
    '(wire_api "responses", base_url http://127.0.0.1:<port>/v1, env_key STANDIN_API_KEY), model "standin-model"',
    "argv: codex -a on-request --no-daemon (no background app-server daemon is left behind)",
    "the project folder is a git repository only in the folder-trust scenario",
  ],
  async seed({ home, project, api, firstRun }) {
    // The same throwaway CODEX_HOME drover verify uses; a git repository is what makes Codex ask
    // the folder-trust question.
    const env = await seedCodex({ home, project, api }, { trust: firstRun.trust });
    if (firstRun.trust) await gitInit(project);
    return env;
  },
};

export const GEMINI: OtherCli = {
  id: "gemini",
  profile: "gemini",
  api: "gemini",
  // The input line shows while it still initialises ("Prompts will be queued"); a prompt queued
  // then can stall, so ready means: input line up and initialisation over.
  ready: (p: string) => p.includes("Type your message") && !p.includes("Initializing"),
  args: [],
  setup: [
    '$HOME/.gemini/settings.json (lib/scenarios/homes.ts): security.auth.selectedType "gemini-api-key", ' +
    "security.folderTrust.enabled (true only in the folder-trust scenario), general.enableAutoUpdate false",
    "GEMINI_API_KEY=<lab key>, GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:<port>",
  ],
  async seed({ home, project, api, firstRun }) {
    return await seedGemini({ home, project, api }, { trust: firstRun.trust });
  },
};

export const QWEN: OtherCli = {
  id: "qwen",
  profile: "qwen",
  api: "chat",
  // Keys typed while it still says "Initializing..." land raw in the input line. The footer reads
  // "? for shortcuts" (0.15.10) or names the mode, "Auto mode (shift + tab to cycle)" (0.24.4).
  ready: (p: string) =>
    p.includes("Type your message") &&
    (p.includes("? for shortcuts") || p.includes("(shift + tab to cycle)")) &&
    !p.includes("Initializing"),
  args: [],
  setup: [
    "$HOME/.qwen/settings.json: general.enableAutoUpdate false (the lab-notes key general.disableAutoUpdate " +
    "is migrated by 0.15.10 and did NOT stop a self-update; npm_config_registry points at a dead loopback port)",
    "$HOME/.qwen/settings.json: tools.useRipgrep false (the bundled rg has no exec bit under --ignore-scripts)",
    "OPENAI_BASE_URL=http://127.0.0.1:<port>/v1, OPENAI_API_KEY=<lab key>, OPENAI_MODEL=standin-model",
  ],
  async seed({ home, api, settings }) {
    await writeJson(`${home}/.qwen/settings.json`, {
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      ...settings,
      // The bundled ripgrep comes without its exec bit under --ignore-scripts; 0.24.4 then shows a
      // warning box naming the install path (which differs per checkout) at the top of every screen.
      tools: { useRipgrep: false, ...(settings?.tools as Record<string, unknown> | undefined) },
    });
    return {
      ...OFFLINE_ENV,
      OPENAI_BASE_URL: `${api}/v1`,
      OPENAI_API_KEY: "sk-lab-0123456789",
      OPENAI_MODEL: "standin-model",
    };
  },
};

export const OPENCODE: OtherCli = {
  id: "opencode",
  profile: "opencode",
  api: "chat",
  ready: "ctrl+p commands",
  // Its start-up (project scan, provider init) took 25–60 s on the loaded lab machine.
  readyTimeoutMs: 150_000,
  args: [],
  setup: [
    "$HOME/.config/opencode/opencode.json (lib/scenarios/homes.ts): autoupdate false, share disabled, " +
    'model standin/standin-model, permission {bash: ask, edit: ask}, provider "standin" (@ai-sdk/openai-compatible, ' +
    "baseURL http://127.0.0.1:<port>/v1)",
    "OPENCODE_DISABLE_AUTOUPDATE, _SHARE, _MODELS_FETCH, _LSP_DOWNLOAD, _DEFAULT_PLUGINS, _CLAUDE_CODE = 1",
  ],
  async seed({ home, project, api }) {
    return await seedOpencode({ home, project, api });
  },
};

export const COPILOT: OtherCli = {
  id: "copilot",
  profile: "copilot",
  api: "chat",
  ready: "Manual Approval",
  args: [],
  setup: [
    "BYOK (lib/scenarios/homes.ts): COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:<port>/v1, " +
    "COPILOT_PROVIDER_TYPE=openai, COPILOT_PROVIDER_API_KEY=<lab key>, COPILOT_MODEL=standin-model, " +
    "COPILOT_PROVIDER_MAX_PROMPT_TOKENS=128000, COPILOT_PROVIDER_MAX_OUTPUT_TOKENS=8192",
    "COPILOT_HOME=$HOME/.copilot with config.json {firstLaunchAt, appTipShown, trustedFolders: " +
    "[<project>] (left out in the folder-trust scenario)}; COPILOT_OFFLINE=true, COPILOT_AUTO_UPDATE=false",
  ],
  async seed({ home, project, api, firstRun, settings }) {
    const env = await seedCopilot({ home, project, api }, { trust: firstRun.trust });
    if (settings) {
      // Extra keys for Copilot's own config.json (the one file it keeps settings in).
      const path = `${home}/.copilot/config.json`;
      const cfg = JSON.parse(await Deno.readTextFile(path));
      await writeJson(path, { ...cfg, ...settings });
    }
    return env;
  },
};

export const CLINE: OtherCli = {
  id: "cline",
  profile: "cline",
  api: "chat",
  ready: "What can I do for you?",
  args: ["-i", "--auto-approve", "false"],
  setup: [
    "HOME/.cline/data/settings/providers.json (lib/scenarios/homes.ts): the openai-compatible provider " +
    "`cline auth -p openai -b http://127.0.0.1:<port>/v1 -k <lab key> -m standin-model` writes; " +
    "cli-notices.json marks its start-up notices (ClinePass, Cline Desktop) shown",
    "CLINE_HUB_PORT=<a free port> (its hub daemon, ended with the pane); started as cline -i --auto-approve false",
  ],
  async seed({ home, project, api, firstRun }) {
    return await seedCline({ home, project, api }, { notices: firstRun.notices });
  },
};

export interface OtherOptions {
  script?: Step[];
  /** How the Chat Completions stand-in answers Qwen Code's auto-mode classifier. */
  classifier?: ClassifierVerdict;
  /** Settings merged into the CLI's settings file (see `SeedInput.settings`). */
  settings?: Record<string, unknown>;
  firstRun?: FirstRun;
  /** Extra argv after the recipe's own. */
  args?: string[];
  env?: Record<string, string>;
  /** Wait for this after start instead of the ready line (null: do not wait). */
  waitFor?: Condition | null;
  /** Files to create in the project folder (relative path → content). */
  files?: Record<string, string>;
  timeoutMs?: number;
}

export interface OtherSession extends AsyncDisposable {
  cli: OtherCli;
  pane: LabPane;
  api: ScriptedStandin;
  project: string;
  home: string;
  version: string;
}

function startStandin(cli: OtherCli, opts: OtherOptions): ScriptedStandin {
  const steps = opts.script ?? [];
  if (cli.api === "responses") return startResponsesStandin({ steps });
  if (cli.api === "gemini") return startGeminiStandin({ steps });
  return startChatStandin({ steps, classifier: opts.classifier });
}

export function describeStep(s: Step): string {
  switch (s.kind) {
    case "text":
      return `text${s.hold ? " (held open)" : ""}${
        s.inputTokens ? ` (input tokens ${s.inputTokens})` : ""
      }`;
    case "tool":
      return `tool ${s.name}(${
        JSON.stringify(
          s.args.cmd ?? s.args.command ?? s.args.commands ?? s.args.file_path ?? s.args.filePath ??
            s.args.path ?? "",
        )
      })`;
    case "error":
      return `HTTP ${s.status} ${s.error}${s.times && s.times > 1 ? ` ×${s.times}` : ""}`;
    case "hang":
      return "hang (no reply)";
  }
}

/** Start `cli` with its stand-in at the scenario's size; the launch goes into the steps. */
export async function startOther(
  ctx: ScenarioContext,
  cli: OtherCli,
  opts: OtherOptions = {},
): Promise<OtherSession> {
  const resolved = await resolveCli(cli.id, ctx.version || undefined);
  const api = startStandin(cli, opts);
  try {
    // Fixed-length temp names: the project path shows on screen and must not change the wrapping.
    const root = await ctx.lab.tmpDir(cli.id.slice(0, 2));
    const home = `${root}/home`;
    const project = `${root}/project`;
    await Deno.mkdir(home);
    await Deno.mkdir(project);
    for (const [rel, content] of Object.entries(opts.files ?? {})) {
      const path = `${project}/${rel}`;
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(path, content);
    }
    const firstRun = opts.firstRun ?? {};
    let env: Record<string, string> = {};
    const args = [...cli.args, ...(opts.args ?? [])];
    ctx.step(
      `start ${cli.id} ${args.join(" ")} in a ${ctx.size.cols}x${ctx.size.rows} pane` +
        (firstRun.trust ? "; folder not yet trusted" : "") +
        (opts.script?.length
          ? `; stand-in script: ${opts.script.map(describeStep).join(" → ")}`
          : ""),
    );
    const until = opts.waitFor === undefined ? (firstRun.trust ? null : cli.ready) : opts.waitFor;
    const pane = await ctx.lab.launch({
      argv: [...resolved.argv, ...args],
      cols: ctx.size.cols,
      rows: ctx.size.rows,
      home,
      cwd: project,
      name: cli.id,
      get env() {
        return { ...env, ...opts.env };
      },
      prepare: async () => {
        // Re-seed on a relaunch: the first attempt may have rewritten its config.
        await Deno.remove(home, { recursive: true }).catch(() => {});
        await Deno.mkdir(home);
        env = await cli.seed({ home, project, api: api.url, firstRun, settings: opts.settings });
      },
      ready: until === null ? undefined : {
        until,
        timeoutMs: opts.timeoutMs ?? cli.readyTimeoutMs ?? 60_000,
        stableMs: 800,
      },
    });
    return {
      cli,
      pane,
      api,
      project,
      home,
      version: resolved.version,
      async [Symbol.asyncDispose]() {
        // Gemini CLI and Qwen Code re-exec themselves under a second node process that outlives
        // the tmux session (they ignore its SIGHUP): end the pane's whole process tree by pid.
        const pid = Number(
          (await ctx.lab.tmuxResult(["display-message", "-p", "-t", pane.id, "#{pane_pid}"]))
            .stdout.trim(),
        );
        const tree = Number.isInteger(pid) && pid > 1 ? await processTree(pid) : [];
        await pane.kill();
        // And what it left outside the tree that names its folders (Cline's hub daemon).
        await endProcesses([
          ...tree,
          ...await processesNaming(home),
          ...await processesNaming(project),
        ]);
        await api.close();
      },
    };
  } catch (e) {
    await api.close();
    throw e;
  }
}

/**
 * Type a prompt and submit it. The pause before Enter matters: Codex treats keys that arrive in a
 * burst as a paste, where Enter becomes a newline.
 */
/**
 * Qwen Code that gives up on a 429 quickly: one retry (0.24.4 honours model.generationConfig;
 * 0.15.10 ignores it and retries silently for minutes) against a stand-in answering every request
 * with HTTP 429 insufficient_quota. Started and its set-up written as a step.
 */
export async function startQwenGivingUp(ctx: ScenarioContext): Promise<OtherSession> {
  const s = await startOther(ctx, QWEN, {
    settings: {
      model: {
        generationConfig: { maxRetries: 1, retryInitialDelayMs: 1000, retryMaxDelayMs: 2000 },
      },
    },
    script: [{ kind: "error", status: 429, error: "quota", times: 1000 }],
  });
  ctx.step(
    "$HOME/.qwen/settings.json: model.generationConfig {maxRetries 1, retryInitialDelayMs " +
      "1000, retryMaxDelayMs 2000}; the stand-in answers every request with HTTP 429 " +
      "insufficient_quota",
  );
  return s;
}

export async function submit(ctx: ScenarioContext, s: OtherSession, text: string): Promise<void> {
  ctx.step(`type ${JSON.stringify(text)}, Enter`);
  await s.pane.type(text);
  await s.pane.waitFor(text.slice(0, 20), { timeoutMs: 10_000, what: "the typed text to show" });
  await sleep(700);
  await s.pane.keys("Enter");
}

export async function press(
  ctx: ScenarioContext,
  s: OtherSession,
  ...keys: string[]
): Promise<void> {
  ctx.step(`press ${keys.join(", ")}`);
  await s.pane.keys(...keys);
}

/** Wait until the stand-in saw `n` main-turn requests in all. */
export async function mainTurns(s: OtherSession, n: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (s.api.mainRequests().length < n) {
    if (Date.now() > deadline) {
      throw new Error(`the stand-in saw ${s.api.mainRequests().length} main turns, expected ${n}`);
    }
    await sleep(200);
  }
}

// ---- The §6 approval gate against these CLIs (used by <cli>_approve.ts) ----

export interface ApproveCall {
  code: number;
  // deno-lint-ignore no-explicit-any
  data: any;
  raw: string;
}

/** `drover -L <lab> --json approve ARGS` with no ambient tmux. */
export async function droverApprove(ctx: ScenarioContext, args: string[]): Promise<ApproveCall> {
  const { drover } = await import("../../helpers/drover.ts");
  const r = await drover(["-L", ctx.lab.name, "--json", "approve", ...args], {
    env: { TMUX: "", TMUX_PANE: "", XDG_RUNTIME_DIR: await ctx.lab.tmpDir("rt") },
  });
  let data = null;
  try {
    data = JSON.parse(r.stdout).data;
  } catch {
    // reported by the caller with the raw output
  }
  return { code: r.code, data, raw: r.stdout + r.stderr };
}

/** A second window in the pane's session, to be named as the orchestrator (pane 0 is the CLI). */
export async function orchestratorBeside(
  ctx: ScenarioContext,
  s: { pane: { session: string } },
): Promise<string> {
  const out = await ctx.lab.tmux(
    "new-window",
    "-d",
    "-P",
    "-F",
    "#{pane_id}",
    "-t",
    `${s.pane.session}:`,
    "sleep 86400",
  );
  return out.trim();
}

export async function fileExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

export interface ApproveSpec {
  cli: OtherCli;
  /** The stand-in step that raises the CLI's shell-command prompt for `command`. */
  shellStep: (command: string) => Step;
  /** Lines that prove the prompt is up. */
  promptShows: string[];
  /** The key drover must send for option 1. */
  key: "1" | "Enter";
  /** A non-permission dialog to refuse: how to reach it and what proves it is up. */
  dialog?: { name: string; opts: OtherOptions; shows: string[]; submit?: string };
  promptTimeoutMs?: number;
  /**
   * How long the prompt's screen must stay still before approve runs (default 500 ms; Cline's busy
   * spinner turns over its modal, so it never stays still: 0).
   */
  promptStableMs?: number;
}

/**
 * Scenarios: approve a real shell-command prompt (option 1 only, the command runs), and refuse a
 * real non-permission dialog without sending anything.
 */
export function approveScenarios(spec: ApproveSpec): LabScenario[] {
  const scenarios: LabScenario[] = [{
    name: "approve-real-shell-prompt",
    timeoutMs: 420_000,
    async run(ctx) {
      await using s = await startOther(ctx, spec.cli, {
        script: [spec.shellStep("touch approved-by-drover.txt"), {
          kind: "text",
          text: "The marker file is in place.",
        }],
      });
      const marker = `${s.project}/approved-by-drover.txt`;
      await submit(ctx, s, "create the marker file");
      await s.pane.waitFor(spec.promptShows, {
        timeoutMs: spec.promptTimeoutMs ?? 150_000,
        stableMs: spec.promptStableMs ?? 500,
        what: "the shell-command prompt",
      });
      const other = await orchestratorBeside(ctx, s);
      ctx.step(`drover approve --dry-run --orchestrator ${other}`);
      const dry = await droverApprove(ctx, ["--dry-run", "--orchestrator", other, s.pane.id]);
      if (dry.code !== 0 || dry.data?.outcome !== "would-approve" || dry.data?.key !== spec.key) {
        ctx.fail(
          `dry run: expected would-approve with key ${spec.key}, got ${dry.code}: ${dry.raw}`,
        );
      }
      if (dry.data?.cli !== spec.cli.profile || dry.data?.cli_source === "default") {
        ctx.fail(`the pane was not identified as ${spec.cli.profile}: ${dry.raw}`);
      }
      if (await fileExists(marker)) ctx.fail("the command ran before any approval");
      ctx.step(`drover approve --orchestrator ${other}`);
      const r = await droverApprove(ctx, ["--orchestrator", other, s.pane.id]);
      if (r.code !== 0 || r.data?.outcome !== "approved") {
        ctx.fail(`expected approved (exit 0), got ${r.code}: ${r.raw}`);
      }
      if (r.data.sent[0] !== spec.key || r.data.sent.length > 2) {
        ctx.fail(
          `expected ${spec.key} (and at most one Enter) sent, got ${JSON.stringify(r.data.sent)}`,
        );
      }
      await s.pane.waitFor("The marker file is in place.", { timeoutMs: 120_000 });
      if (!(await fileExists(marker))) ctx.fail(`the approved command did not run (${marker})`);
      ctx.log(
        `approved with ${
          JSON.stringify(r.data.sent)
        }; identified as ${r.data.cli} (${r.data.cli_source})`,
      );
    },
  }];
  const d = spec.dialog;
  if (d) {
    scenarios.push({
      name: `refuse-real-${d.name}`,
      timeoutMs: 420_000,
      // The server logs every key it delivers: the refusal must leave no key command for the pane.
      keyLog: true,
      async run(ctx) {
        await using s = await startOther(ctx, spec.cli, d.opts);
        if (d.submit) await submit(ctx, s, d.submit);
        await s.pane.waitFor(d.shows, { timeoutMs: 120_000, stableMs: 500, what: d.name });
        const other = await orchestratorBeside(ctx, s);
        ctx.step(`drover approve --orchestrator ${other} on the ${d.name}`);
        const before = (await s.pane.capture()).plain;
        const mark = (await ctx.lab.keyLog()).commands.length;
        const r = await droverApprove(ctx, ["--orchestrator", other, s.pane.id]);
        if (r.code === 0 || r.data?.outcome !== "refused") {
          ctx.fail(`expected a refusal, got ${r.code}: ${r.raw}`);
        }
        if ((r.data?.sent ?? []).length !== 0) ctx.fail("keys were sent to a dialog");
        await sleep(1500);
        // tmux logs the target quoted: `send-keys -t "%2" Enter`.
        const logged = (await ctx.lab.keyLog()).commands.slice(mark).filter((c) =>
          c.split(/\s+/).some((w, i, a) => w === "-t" && a[i + 1]?.replace(/"/g, "") === s.pane.id)
        );
        if (logged.length) {
          ctx.fail(`the tmux key log shows keys for the pane: ${JSON.stringify(logged)}`);
        }
        const after = (await s.pane.capture()).plain;
        if (!d.shows.every((x) => after.includes(x))) {
          ctx.fail(`the dialog did not stay untouched:\nbefore:\n${before}\nafter:\n${after}`);
        }
        ctx.log(`refused: ${r.data?.reason} (exit ${r.code})`);
      },
    });
  }
  return scenarios;
}
