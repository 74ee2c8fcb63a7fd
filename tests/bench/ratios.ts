/**
 * `deno task bench`: the start-up and inventory ratios of issue 13, each against its yardstick
 * measured in the same run (interleaved rounds, medians, process start included):
 *
 *   drover --version                    ≤ 2 × `deno run` of an empty file
 *   drover detect FILE                  ≤ 3 × that empty run
 *   drover __prompt-profile --format tsv ≤ 3 × that empty run
 *   the same three with an ordinary configuration (issue 24: a [drive] table with four allow
 *   entries and a nudge, one prompt_profile field for claude), with the same targets, and
 *   configured detect                   ≤ 1.25 × the same detect with no configuration
 *   — all with the configuration cache warm, as every start after the first finds it (the
 *   warm-up run writes it); the cold first start (no cache: validate, then write it) is reported
 *   beside them, without a target
 *   drover panes --json over 50 panes   ≤ 0.6 × the naive loop (one `tmux capture-pane` per pane)
 *   drover drive --once over 10 panes   spawns ≤ 3 processes, tmux included (a quiet tick: no
 *                                       screen that needs a keystroke)
 *
 * drover runs as users run it: `deno run -A --quiet --v8-flags=… main.ts`, or the compiled binary
 * when DROVER_BIN is set. The panes are replay doubles showing real recorded screens on a private
 * tmux server. Processes are counted with `strace -f -e trace=execve` when strace is installed,
 * else by a `tmux` shim on PATH (then only tmux processes are counted, and the report says so).
 *
 *   deno run -A tests/bench/ratios.ts [--rounds N]
 */
import { droverCommand } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";

const ROUNDS = Number(Deno.args[Deno.args.indexOf("--rounds") + 1]) || 21;
const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
const fixture = (s: string) => `claude-code/2.1.197/${s}@120x40`;
/** What `panes` looks at: a mix of every kind of screen. */
const PANES_SCREENS = [
  "ready",
  "busy",
  "bash-prompt",
  "narration",
  "write-prompt",
  "typed-input",
  "mode-plan",
  "trust-dialog",
  "credit-400",
  "context-nearly-full",
].map(fixture);
/** A quiet tick for `drive --once`: screens that need no keystroke (orchestrator first). */
const DRIVE_SCREENS = [
  "ready",
  "busy",
  "busy-tool",
  "narration",
  "interrupted",
  "mode-accept-edits",
  "mode-plan",
  "bash-answered",
  "bash-rejected",
  "edit-answered",
].map(fixture);

interface Variant {
  label: string;
  exe: string;
  args: string[];
  env?: Record<string, string>;
  /** Run before each timed run, untimed (the cold start removes the cache here). */
  before?: () => Promise<void>;
}

async function runOnce(v: Variant): Promise<number> {
  await v.before?.();
  const t0 = performance.now();
  const out = await new Deno.Command(v.exe, {
    args: v.args,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: v.env,
    signal: AbortSignal.timeout(60_000),
  }).output();
  const ms = performance.now() - t0;
  if (out.code !== 0) {
    throw new Error(`${v.label} exited ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Interleaved rounds (every variant once per round, so load drifts hit all alike); medians. */
async function measure(variants: Variant[], rounds: number): Promise<Map<string, number>> {
  const times = new Map<string, number[]>(variants.map((v) => [v.label, []]));
  for (const v of variants) await runOnce(v); // warm the module and code caches
  for (let r = 0; r < rounds; r++) {
    for (const v of variants) times.get(v.label)!.push(await runOnce(v));
  }
  return new Map([...times].map(([k, xs]) => [k, median(xs)]));
}

async function which(tool: string): Promise<string | null> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      const p = `${dir}/${tool}`;
      if ((await Deno.stat(p)).isFile) return p;
    } catch {
      // not here
    }
  }
  return null;
}

async function replayPanes(
  srv: TestServer,
  session: string,
  n: number,
  screens: string[],
): Promise<ReplayPane[]> {
  const panes: ReplayPane[] = [];
  for (let i = 0; i < n; i++) {
    const screen = await loadScreen(screens[i % screens.length]);
    panes.push(await startReplay(srv, screen, { session, newWindow: i > 0 }));
  }
  return panes;
}

/** Processes `drive --once` starts: execve calls after drover's own, or tmux calls via a shim. */
async function countProcesses(
  drover: [string, string[]],
  args: string[],
  env: Record<string, string>,
): Promise<{ total: number | null; tmux: number; how: string }> {
  const dir = await Deno.makeTempDir({ prefix: "drover-bench-procs-" });
  try {
    const strace = await which("strace");
    if (strace) {
      const log = `${dir}/strace.log`;
      const out = await new Deno.Command(strace, {
        args: ["-f", "-qq", "-e", "trace=execve", "-o", log, drover[0], ...drover[1], ...args],
        stdin: "null",
        stdout: "null",
        stderr: "piped",
        env,
      }).output();
      if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
      const calls = (await Deno.readTextFile(log)).split("\n")
        .filter((l) => /execve\(/.test(l) && / = 0$/.test(l));
      // The first successful execve is drover itself (deno, or the compiled binary).
      const spawned = calls.slice(1);
      return {
        total: spawned.length,
        tmux: spawned.filter((l) => /execve\("[^"]*\/tmux"/.test(l)).length,
        how: "strace -f -e trace=execve",
      };
    }
    const real = await which("tmux");
    const count = `${dir}/count`;
    await Deno.writeTextFile(
      `${dir}/tmux`,
      `#!/bin/sh\necho x >> '${count}'\nexec '${real}' "$@"\n`,
    );
    await Deno.chmod(`${dir}/tmux`, 0o755);
    await new Deno.Command(drover[0], {
      args: [...drover[1], ...args],
      stdin: "null",
      stdout: "null",
      stderr: "null",
      env: { ...env, PATH: `${dir}:${Deno.env.get("PATH")}` },
    }).output();
    const n = (await Deno.readTextFile(count).catch(() => "")).split("\n").filter(Boolean).length;
    return { total: null, tmux: n, how: "a tmux shim on PATH (strace not installed: tmux only)" };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main(): Promise<void> {
  const drover = droverCommand();
  const binary = Deno.env.get("DROVER_BIN");
  const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "?")).split(" ")
    .slice(0, 3).join(" ");
  const scratch = await Deno.makeTempDir({ prefix: "drover-bench-" });
  // No configuration file in reach: discovery finds nothing, as on a fresh server.
  const env = {
    HOME: scratch,
    XDG_CONFIG_HOME: `${scratch}/config`,
    XDG_RUNTIME_DIR: scratch,
    NO_COLOR: "1",
  };
  await Deno.writeTextFile(`${scratch}/empty.ts`, "");
  // The configured start (issue 24): what a cron `drive --once` and sweep.sh really run with.
  const configured = {
    ...env,
    HOME: `${scratch}/c`,
    XDG_CONFIG_HOME: `${scratch}/c/config`,
    XDG_CACHE_HOME: `${scratch}/c/cache`,
  };
  await Deno.mkdir(`${scratch}/c/config/drover`, { recursive: true });
  await Deno.writeTextFile(
    `${scratch}/c/config/drover/config.toml`,
    [
      "[drive]",
      'allow = ["npm test", "npm run build", "git status", "git diff"]',
      'nudge = "Run your sweep now."',
      'nudge_every = "10m"',
      "",
      "[clis.claude.prompt_profile]",
      'approval_markers = ["Do you want to proceed?"]',
      "",
    ].join("\n"),
  );
  const srv = await startTestServer({ width: 120, height: 40 });
  const panes: ReplayPane[] = [];
  try {
    panes.push(...await replayPanes(srv, "fifty", 50, PANES_SCREENS));
    panes.push(...await replayPanes(srv, "ten", 10, DRIVE_SCREENS));
    const d = (label: string, args: string[]): Variant => ({
      label,
      exe: drover[0],
      args: [...drover[1], ...args],
      env,
    });
    const file = `${FIXTURES}claude-code/2.1.197/bash-prompt@120x40.txt`;
    const loop = `for p in $(tmux -L '${srv.name}' list-panes -s -t fifty -F '#{pane_id}'); do ` +
      `tmux -L '${srv.name}' capture-pane -p -J -t "$p" >/dev/null; done`;
    const medians = await measure([
      {
        label: "empty",
        exe: Deno.execPath(),
        args: ["run", "-A", "--quiet", `${scratch}/empty.ts`],
        env,
      },
      d("version", ["--version"]),
      d("detect", ["detect", file]),
      d("tsv", ["__prompt-profile", "--format", "tsv"]),
      { ...d("version+cfg", ["--version"]), env: configured },
      { ...d("detect+cfg", ["detect", file]), env: configured },
      { ...d("tsv+cfg", ["__prompt-profile", "--format", "tsv"]), env: configured },
      {
        ...d("detect+cfg cold", ["detect", file]),
        env: { ...configured, XDG_CACHE_HOME: `${scratch}/cold-cache` },
        before: () => Deno.remove(`${scratch}/cold-cache`, { recursive: true }).catch(() => {}),
      },
      d("panes", ["-L", srv.name, "panes", "--session", "fifty", "--json"]),
      { label: "loop", exe: "bash", args: ["-c", loop], env },
    ], ROUNDS);
    const procs = await countProcesses(
      drover,
      ["-L", srv.name, "drive", "--session", "ten", "--once", "--state", `${scratch}/state`],
      env,
    );

    const m = (k: string) => medians.get(k)!;
    const rows: [string, string, string, number, number | null][] = [
      [
        "--version",
        fmt(m("version")),
        `empty deno run ${fmt(m("empty"))}`,
        m("version") / m("empty"),
        2,
      ],
      [
        "detect FILE",
        fmt(m("detect")),
        `empty deno run ${fmt(m("empty"))}`,
        m("detect") / m("empty"),
        3,
      ],
      [
        "__prompt-profile --format tsv",
        fmt(m("tsv")),
        `empty deno run ${fmt(m("empty"))}`,
        m("tsv") / m("empty"),
        3,
      ],
      [
        "--version, configured",
        fmt(m("version+cfg")),
        `empty deno run ${fmt(m("empty"))}`,
        m("version+cfg") / m("empty"),
        2,
      ],
      [
        "detect FILE, configured",
        fmt(m("detect+cfg")),
        `empty deno run ${fmt(m("empty"))}`,
        m("detect+cfg") / m("empty"),
        3,
      ],
      [
        "__prompt-profile, configured",
        fmt(m("tsv+cfg")),
        `empty deno run ${fmt(m("empty"))}`,
        m("tsv+cfg") / m("empty"),
        3,
      ],
      [
        "detect FILE, configured, cold",
        fmt(m("detect+cfg cold")),
        `empty deno run ${fmt(m("empty"))}`,
        m("detect+cfg cold") / m("empty"),
        null,
      ],
      [
        "detect configured/unconfigured",
        fmt(m("detect+cfg")),
        `unconfigured detect ${fmt(m("detect"))}`,
        m("detect+cfg") / m("detect"),
        1.25,
      ],
      [
        "panes --json, 50 panes",
        fmt(m("panes")),
        `capture-pane loop ${fmt(m("loop"))}`,
        m("panes") / m("loop"),
        0.6,
      ],
    ];
    const out = [
      `drover bench — ${binary ? `compiled binary ${binary}` : "deno run main.ts"}, ` +
      `Deno ${Deno.version.deno}, ${ROUNDS} interleaved rounds, medians, process start included`,
      `load average at start: ${load}`,
      "",
      "check                          drover       yardstick                   ratio  target",
    ];
    let missed = 0;
    for (const [name, t, y, ratio, target] of rows) {
      const ok = target === null || ratio <= target;
      if (!ok) missed++;
      out.push(
        `${name.padEnd(31)}${t.padEnd(13)}${y.padEnd(28)}${ratio.toFixed(2).padStart(5)}× ` +
          (target === null
            ? " (first start only: no target)"
            : ` ≤ ${target}×  ${ok ? "ok" : "MISSED"}`),
      );
    }
    const spawned = procs.total ?? procs.tmux;
    const procOk = spawned <= 3;
    if (!procOk) missed++;
    out.push(
      `${"drive --once, 10 panes".padEnd(31)}${
        `${spawned} process${spawned === 1 ? "" : "es"}`.padEnd(13)
      }${`(tmux: ${procs.tmux})`.padEnd(28)}${"".padStart(5)}   ≤ 3     ${
        procOk ? "ok" : "MISSED"
      }`,
      `  counted with ${procs.how}`,
    );
    if (!binary) {
      out.push(
        "",
        "compiled binary: not measured (set DROVER_BIN=dist/drover; `deno task compile` needs " +
          "the denort runtime, DENORT_BIN offline)",
      );
    }
    out.push("", missed === 0 ? "all targets met" : `${missed} target(s) missed`);
    console.log(out.join("\n"));
  } finally {
    for (const p of panes) await cleanupReplay(p);
    await srv[Symbol.asyncDispose]();
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

await main();
