/**
 * `deno task demo`: the main job on the embedded default profile, on real recorded screens.
 *
 * Starts a throwaway tmux server (-L drover-demo-…, -f /dev/null), fills one session with replay
 * doubles showing recorded real Claude Code screens (tests/fixtures/claude-code/<version>/), runs
 * `drover panes` and `drover approve --dry-run` on them exactly as a user would, prints what drover
 * sees and would do, and kills the server. Nothing is ever sent to a pane (--dry-run).
 */
import { droverCommand } from "../tests/helpers/drover.ts";
import type { TestServer } from "../tests/helpers/tmux_server.ts";
import {
  cleanupReplay,
  loadScreen,
  manifestScreens,
  pick,
  type ReplayPane,
  startReplay,
} from "../tests/helpers/replay.ts";

const SIZE = "120x40";
/** The orchestrator first (window 0), then one agent per scenario. */
const SCENARIOS: { scenario: RegExp; what: string }[] = [
  { scenario: /^ready$/, what: "orchestrator at its input box" },
  { scenario: /^bash-prompt$/, what: "a live Bash permission prompt" },
  { scenario: /^write-prompt$/, what: "a live file-create prompt" },
  { scenario: /^bash-answered$/, what: "a prompt already answered, output below" },
  { scenario: /^narration$/, what: "the agent quoting prompt words in prose" },
  { scenario: /^bypass-warning$/, what: "the bypass-permissions warning dialog" },
  { scenario: /^busy$/, what: "busy mid-response" },
  { scenario: /^credit-400$/, what: "out of credit (CLI unavailable)" },
];

const dec = new TextDecoder();

async function tmuxRaw(
  name: string,
  args: string[],
): Promise<{ code: number; out: string; err: string }> {
  const r = await new Deno.Command("tmux", {
    args: ["-L", name, "-f", "/dev/null", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { TERM: Deno.env.get("TERM") ?? "xterm-256color" },
  }).output();
  return { code: r.code, out: dec.decode(r.stdout), err: dec.decode(r.stderr) };
}

async function droverRun(args: string[], cwd: string, env: Record<string, string>) {
  const [exe, pre] = droverCommand();
  const r = await new Deno.Command(exe, {
    args: [...pre, ...args],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: r.code, out: dec.decode(r.stdout), err: dec.decode(r.stderr) };
}

function bold(s: string): string {
  return Deno.env.get("NO_COLOR") || !Deno.stdout.isTerminal() ? s : `\x1b[1m${s}\x1b[0m`;
}

async function main(): Promise<number> {
  try {
    await new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).output();
  } catch {
    console.error("demo: tmux is not installed (need tmux >= 3.2; e.g. apt-get install tmux)");
    return 1;
  }
  const screens = await manifestScreens("claude-code");
  if (screens.length === 0) {
    console.error("demo: no recorded Claude Code screens under tests/fixtures/claude-code/");
    return 1;
  }
  const name = `drover-demo-${Deno.pid}-${Date.now().toString(36)}`;
  const server: TestServer = {
    name,
    async tmux(...args: string[]) {
      const r = await tmuxRaw(name, args);
      if (r.code !== 0) throw new Error(`tmux ${args[0]} failed: ${r.err}`);
      return r.out;
    },
    waitFor() {
      return Promise.reject(new Error("not used by the demo"));
    },
    async [Symbol.asyncDispose]() {
      await tmuxRaw(name, ["kill-server"]);
    },
  };
  // An empty working directory and config home: nothing but the embedded default profile.
  const scratch = await Deno.makeTempDir({ prefix: "drover-demo-" });
  const env: Record<string, string> = { ...Deno.env.toObject() };
  delete env.DROVER_CONFIG;
  Object.assign(env, { NO_COLOR: "1", XDG_CONFIG_HOME: scratch, XDG_RUNTIME_DIR: scratch });
  const panes: { pane: ReplayPane; what: string; scenario: string }[] = [];
  try {
    for (const [i, s] of SCENARIOS.entries()) {
      const m = pick(screens, s.scenario, { size: SIZE });
      if (!m) continue;
      const pane = await startReplay(server, await loadScreen(m.rel), {
        session: "agents",
        newWindow: i > 0,
      });
      // What `drover launch` does for the panes it starts: mark the pane with its CLI.
      await server.tmux("set-option", "-p", "-t", pane.paneId, "@drover-cli", "claude");
      panes.push({ pane, what: s.what, scenario: m.rel });
    }
    // Let every double finish drawing.
    await new Promise((r) => setTimeout(r, 300));
    const version = screens[0].rel.split("/")[1];
    console.log(bold(`drover demo — replayed real Claude Code ${version} screens (${SIZE})`));
    console.log(`throwaway tmux server: tmux -L ${name}; embedded default profile only\n`);
    for (const p of panes) console.log(`  ${p.pane.paneId.padEnd(4)} ${p.what}  [${p.scenario}]`);

    console.log("\n" + bold(`$ drover -L ${name} panes --session agents`));
    const list = await droverRun(["-L", name, "panes", "--session", "agents"], scratch, env);
    Deno.stdout.writeSync(new TextEncoder().encode(list.out + list.err));

    for (const p of panes) {
      console.log(
        "\n" + bold(`$ drover -L ${name} approve --dry-run ${p.pane.paneId}`) +
          `    # ${p.what}`,
      );
      const r = await droverRun(
        ["-L", name, "approve", "--dry-run", p.pane.paneId],
        scratch,
        env,
      );
      Deno.stdout.writeSync(new TextEncoder().encode(r.out + r.err));
      console.log(`(exit ${r.code})`);
    }
    let sent = 0;
    for (const p of panes) sent += (await p.pane.keys()).length;
    console.log(
      `\n${bold("keys sent to any pane:")} ${sent} (dry run: drover only judged and reported)`,
    );
    return sent === 0 ? 0 : 1;
  } finally {
    for (const p of panes) await cleanupReplay(p.pane);
    await server[Symbol.asyncDispose]();
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) Deno.exit(await main());
