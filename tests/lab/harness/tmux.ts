/**
 * A private tmux server for lab scenarios, and the panes real CLIs run in.
 *
 * ```ts
 * await using lab = await LabServer.start();          // tmux -L drover-lab-<unique> -f /dev/null
 * const pane = await lab.launch({
 *   argv: ["/…/claude"], cols: 120, rows: 40,
 *   env: { ANTHROPIC_BASE_URL: api.url },             // the ONLY environment (plus PATH/TERM/LANG/HOME)
 *   home: await lab.tmpDir("home"), cwd: projectDir,
 *   ready: { until: "? for shortcuts", timeoutMs: 30_000 }, // wait; on failure relaunch once
 * });
 * await pane.type("hello");            // literal text (send-keys -l)
 * await pane.keys("Enter");            // tmux key names: Enter, Escape, BTab, C-c, Up, …
 * await pane.paste("a\nb\nc");         // bracketed paste (paste-buffer -p)
 * const s = await pane.waitFor("Do you want to proceed?", { timeoutMs: 20_000 });
 * s.plain; s.styled;                   // capture-pane -p -J  /  -p -e -J
 * ```
 *
 * `waitFor(cond)` polls until `cond` (substring, RegExp, array = all of them, or a predicate on the plain
 * capture) holds, then optionally until the screen has stopped changing (`stableMs`); on timeout it
 * throws {@link LabTimeout} whose message shows what was awaited and the last screen. Everything the
 * server started dies with `[Symbol.asyncDispose]` (kill-server) — including temp dirs made by `tmpDir`.
 */

import { endProcesses, processTree } from "../../../lib/proc/tree.ts";

export interface Screen {
  /** `capture-pane -p -J` */
  plain: string;
  /** `capture-pane -p -e -J` */
  styled: string;
  /** `#{pane_title}` at capture time (CLIs put state in it; detect() reads it for the mode). */
  title?: string;
}

export type Condition = string | RegExp | Array<string | RegExp> | ((plain: string) => boolean);

export interface WaitOptions {
  /** Default 20 s. */
  timeoutMs?: number;
  /** After the condition holds, also wait until the screen is unchanged for this long (default 0). */
  stableMs?: number;
  /** Poll interval (default 250 ms; the machine is shared, keep it sane). */
  intervalMs?: number;
  /** Also fail at once when this holds (e.g. an unexpected error screen). */
  failIf?: Condition;
  /** Fail at once when the pane's process has exited (default false). */
  failOnExit?: boolean;
  /** Shown in the timeout message. */
  what?: string;
}

export interface LaunchOptions {
  argv: string[];
  cols: number;
  rows: number;
  /** Extra environment. The pane starts from an EMPTY environment (env -i) plus PATH, TERM, LANG, HOME. */
  env?: Record<string, string>;
  /** Throwaway HOME (default: a fresh temp dir). */
  home?: string;
  cwd?: string;
  /** Session name (default: generated). */
  name?: string;
  /**
   * Wait for this after starting; when it fails (timeout or the process died), relaunch once. Once an
   * executable has failed both attempts in 2 launches of this process, later launches of it fail at
   * once (a broken CLI must not eat the lab's time budget scenario by scenario).
   */
  ready?: { until: Condition; timeoutMs?: number; stableMs?: number };
  /** Runs before each (re)launch, e.g. to re-seed a HOME that the first attempt modified. */
  prepare?: () => Promise<void>;
  /**
   * Keep TMUX and TMUX_PANE, which tmux itself sets for the pane, through the empty environment:
   * an agent that runs drover inside its own tmux server needs both.
   */
  keepTmuxEnv?: boolean;
}

export class LabTimeout extends Error {
  override name = "LabTimeout";
  constructor(message: string, readonly screen: string) {
    super(message);
  }
}

let counter = 0;
const dec = new TextDecoder();

/**
 * The environment tmux runs under. The server's global environment is what every pane the lab
 * does not start itself inherits (a reviewer `drover launch` opens): kept to the same few variables
 * in CI and on a desk, so a CI runner's `CI=true` (which turns Claude Code's colours off) never
 * reaches a CLI by accident. The monochrome screens have scenarios of their own.
 */
function serverEnv(): Record<string, string> {
  const env: Record<string, string> = { TERM: "xterm-256color" };
  for (const k of ["PATH", "HOME", "USER", "LANG", "TMPDIR", "TMUX_TMPDIR"]) {
    const v = Deno.env.get(k);
    if (v !== undefined) env[k] = v;
  }
  return env;
}

/** Per executable: how many launches in this process failed both attempts, and the first reason. */
const startFailures = new Map<string, { count: number; first: string }>();
const FAIL_FAST_AFTER = 2;

export function describeCondition(c: Condition): string {
  if (typeof c === "string") return JSON.stringify(c);
  if (c instanceof RegExp) return String(c);
  if (Array.isArray(c)) return c.map(describeCondition).join(" AND ");
  return "a predicate";
}

export function holds(c: Condition, plain: string): boolean {
  if (typeof c === "string") return plain.includes(c);
  if (c instanceof RegExp) return c.test(plain);
  if (Array.isArray(c)) return c.every((x) => holds(x, plain));
  return c(plain);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a server's key log holds: every key tmux wrote into a pane, and who asked for it. */
export interface KeyLog {
  /** `input_key:` entries (one per key tmux delivered to a pane), in order. */
  keys: string[];
  /** The client commands that send keys (`send-keys …`, `paste-buffer …`), in order. */
  commands: string[];
}

export class LabServer implements AsyncDisposable {
  readonly #tmpDirs: string[] = [];
  #disposed = false;
  #logDir: string | null = null;
  private constructor(readonly name: string) {}

  /**
   * Start a private server (`-L drover-lab-<pid>-<time>-<n> -f /dev/null`). With `keyLog`, the
   * server runs with `-v` and its log (in a temp dir) records every key it delivers to a pane
   * ({@link keyLog}): proof that a refusal sent nothing.
   */
  static async start(opts: { tag?: string; keyLog?: boolean } = {}): Promise<LabServer> {
    const tag = opts.tag ? `${opts.tag.replace(/[^A-Za-z0-9_-]/g, "_")}-` : "";
    const server = new LabServer(
      `drover-lab-${tag}${Deno.pid}-${Date.now().toString(36)}-${counter++}`,
    );
    // A holder session keeps the server alive while CLI sessions come and go.
    if (opts.keyLog) {
      server.#logDir = await server.tmpDir("keylog");
      const r = await new Deno.Command("tmux", {
        args: [
          "-v",
          "-L",
          server.name,
          "-f",
          "/dev/null",
          "new-session",
          "-d",
          "-s",
          "_holder",
          "-x",
          "80",
          "-y",
          "24",
          "sleep 86400",
        ],
        cwd: server.#logDir,
        clearEnv: true,
        env: serverEnv(),
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        signal: AbortSignal.timeout(15_000),
      }).output();
      if (r.code !== 0) throw new Error(`tmux -v new-session: ${dec.decode(r.stderr).trim()}`);
    } else {
      await server.tmux(
        "new-session",
        "-d",
        "-s",
        "_holder",
        "-x",
        "80",
        "-y",
        "24",
        "sleep 86400",
      );
    }
    await server.tmux("set-option", "-g", "remain-on-exit", "on");
    await server.tmux("set-option", "-g", "history-limit", "5000");
    return server;
  }

  /** Run tmux on this server; throws with stderr on a non-zero exit. */
  async tmux(...args: string[]): Promise<string> {
    const r = await this.tmuxResult(args);
    if (r.code !== 0) throw new Error(`tmux -L ${this.name} ${args.join(" ")}: ${r.stderr.trim()}`);
    return r.stdout;
  }

  async tmuxResult(
    args: string[],
    stdin?: string,
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    if (this.#disposed && args[0] !== "kill-server") {
      // A scenario still running past its deadline must not resurrect the server (tmux would start
      // a new one under the same name that nobody kills).
      throw new Error(`lab tmux server ${this.name} is already disposed (tmux ${args[0]})`);
    }
    const cmd = new Deno.Command("tmux", {
      args: ["-L", this.name, "-f", "/dev/null", ...args],
      stdin: stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: serverEnv(),
      signal: AbortSignal.timeout(15_000),
    });
    let out: Deno.CommandOutput;
    if (stdin === undefined) out = await cmd.output();
    else {
      const child = cmd.spawn();
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(stdin));
      await w.close();
      out = await child.output();
    }
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  }

  /** The server's key log so far (only for a server started with `keyLog`). */
  async keyLog(): Promise<KeyLog> {
    if (this.#logDir === null) throw new Error("this lab server was started without keyLog");
    const out: KeyLog = { keys: [], commands: [] };
    for await (const e of Deno.readDir(this.#logDir)) {
      if (!e.isFile || !/^tmux-server-\d+\.log$/.test(e.name)) continue;
      const text = await Deno.readTextFile(`${this.#logDir}/${e.name}`);
      for (const line of text.split("\n")) {
        const k = /^\S+ input_key: (.*)$/.exec(line);
        if (k) out.keys.push(k[1]);
        const c = /^\S+ message: client-\d+ command: ((?:send-keys|send|paste-buffer)\b.*)$/.exec(
          line,
        );
        if (c) out.commands.push(c[1]);
      }
    }
    return out;
  }

  /** A temp dir removed when the server is disposed. */
  async tmpDir(prefix = "lab"): Promise<string> {
    const d = await Deno.makeTempDir({ prefix: `drover-${prefix}-` });
    this.#tmpDirs.push(d);
    return d;
  }

  /** Start argv in a new session of exactly cols x rows; see {@link LaunchOptions}. */
  async launch(opts: LaunchOptions): Promise<LabPane> {
    const exe = opts.argv[0];
    const broken = startFailures.get(exe);
    if (opts.ready && broken && broken.count >= FAIL_FAST_AFTER) {
      // A CLI that could not start in several scenarios of this run will not start in this one
      // either: fail at once instead of spending two more start timeouts (the lab has 20 minutes).
      throw new LabTimeout(
        `${
          exe.split("/").pop()
        } failed to start in ${broken.count} earlier scenarios of this run ` +
          `(not tried again); first failure: ${broken.first}`,
        "",
      );
    }
    const attempt = async (n: number): Promise<LabPane> => {
      if (opts.prepare) await opts.prepare();
      const pane = await this.#start(opts, n);
      if (!opts.ready) return pane;
      try {
        await pane.waitFor(opts.ready.until, {
          timeoutMs: opts.ready.timeoutMs ?? 45_000,
          stableMs: opts.ready.stableMs ?? 0,
          what: `${opts.argv[0].split("/").pop()} to start`,
          failOnExit: true,
        });
        return pane;
      } catch (e) {
        if (n > 0) {
          await pane.kill();
          const first = e instanceof Error ? e.message.split("\n")[0] : String(e);
          const prev = startFailures.get(exe);
          startFailures.set(exe, { count: (prev?.count ?? 0) + 1, first: prev?.first ?? first });
          throw e;
        }
        const msg = e instanceof Error
          ? e.message.split("\n")[0].replace(/; last screen:$/, "")
          : String(e);
        const lastLine = e instanceof LabTimeout
          ? e.screen.split("\n").filter((l) => l.trim()).at(-1)?.trim() ?? "(blank screen)"
          : "";
        console.error(
          `  [lab] ${
            opts.argv[0].split("/").pop()
          } failed to start (${msg}; last line: ${lastLine}); retrying once`,
        );
        await pane.kill();
        return await attempt(n + 1);
      }
    };
    return await attempt(0);
  }

  async #start(opts: LaunchOptions, n: number): Promise<LabPane> {
    const home = opts.home ?? await this.tmpDir("home");
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
      TERM: "tmux-256color",
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
      HOME: home,
      ...opts.env,
    };
    const session = `${opts.name ?? "cli"}${n ? `-r${n}` : ""}-${counter++}`;
    const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    const out = await this.tmux(
      "new-session",
      "-d",
      "-P",
      "-F",
      "#{pane_id}",
      "-s",
      session,
      "-x",
      String(opts.cols),
      "-y",
      String(opts.rows),
      ...(opts.cwd ? ["-c", opts.cwd] : []),
      "--",
      // More than one argument: tmux execs it directly, no shell quoting involved (the keepTmuxEnv
      // shell only expands its own two variables; the rest are its positional arguments).
      ...(opts.keepTmuxEnv
        ? ["sh", "-c", 'exec env -i "TMUX=$TMUX" "TMUX_PANE=$TMUX_PANE" "$@"', "sh"]
        : ["env", "-i"]),
      ...envArgs,
      ...opts.argv,
    );
    const id = out.trim();
    // Detached sessions keep -x/-y; pin it so nothing resizes the pane behind our back.
    await this.tmux("set-option", "-t", session, "window-size", "manual");
    return new LabPane(this, id, session, opts.cols, opts.rows, home);
  }

  /** Every pane's process tree, deepest first (see lib/proc/tree.ts for why). */
  async #paneProcessTrees(): Promise<number[]> {
    const out = await this.tmuxResult(["list-panes", "-a", "-F", "#{pane_pid}"]).catch(() =>
      undefined
    );
    const pids: number[] = [];
    for (const line of out?.stdout.split("\n") ?? []) {
      const pid = Number(line.trim());
      if (Number.isInteger(pid) && pid > 1) pids.push(...await processTree(pid));
    }
    return pids;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#disposed) return;
    const trees = await this.#paneProcessTrees();
    this.#disposed = true;
    await this.tmuxResult(["kill-server"]).catch(() => {});
    await endProcesses(trees);
    for (const d of this.#tmpDirs) await Deno.remove(d, { recursive: true }).catch(() => {});
  }
}

export class LabPane {
  constructor(
    readonly server: LabServer,
    /** tmux pane id, e.g. %3 */
    readonly id: string,
    readonly session: string,
    readonly cols: number,
    readonly rows: number,
    readonly home: string,
  ) {}

  /** `-t` target for tmux commands (the pane id). */
  get target(): string {
    return this.id;
  }

  async capture(): Promise<Screen> {
    const [plain, styled, title] = await Promise.all([
      this.server.tmux("capture-pane", "-p", "-J", "-t", this.id),
      this.server.tmux("capture-pane", "-p", "-e", "-J", "-t", this.id),
      this.server.tmux("display-message", "-p", "-t", this.id, "#{pane_title}"),
    ]);
    return { plain, styled, title: title.replace(/\n$/, "") };
  }

  /** The plain capture only (`capture-pane -p -J`). */
  async capturePlain(): Promise<string> {
    return await this.server.tmux("capture-pane", "-p", "-J", "-t", this.id);
  }

  /** Literal text (send-keys -l); no Enter. */
  async type(text: string): Promise<void> {
    await this.server.tmux("send-keys", "-t", this.id, "-l", "--", text);
  }

  /** tmux key names, sent one send-keys call per key with `gapMs` between them (default 150 ms). */
  async keys(...keys: Array<string | { gapMs: number }>): Promise<void> {
    let gap = 150;
    let first = true;
    for (const k of keys) {
      if (typeof k !== "string") {
        gap = k.gapMs;
        continue;
      }
      if (!first) await sleep(gap);
      first = false;
      await this.server.tmux("send-keys", "-t", this.id, k);
    }
  }

  /** Bracketed paste of `text` (load-buffer + paste-buffer -p), as a terminal paste would arrive. */
  async paste(text: string): Promise<void> {
    const buf = `lab-paste-${counter++}`;
    const r = await this.server.tmuxResult(["load-buffer", "-b", buf, "-"], text);
    if (r.code !== 0) throw new Error(`load-buffer: ${r.stderr}`);
    await this.server.tmux("paste-buffer", "-p", "-d", "-b", buf, "-t", this.id);
  }

  async isDead(): Promise<boolean> {
    const r = await this.server.tmuxResult([
      "display-message",
      "-p",
      "-t",
      this.id,
      "#{pane_dead}",
    ]);
    return r.code !== 0 || r.stdout.trim() === "1";
  }

  /** Exit status of a dead pane's process (undefined while it runs). */
  async exitStatus(): Promise<number | undefined> {
    // tmux can mark a pane dead (pty closed) a while before it reaps the process and records the
    // status: give it up to 3 s.
    for (let i = 0; i < 30; i++) {
      const r = await this.server.tmuxResult([
        "display-message",
        "-p",
        "-t",
        this.id,
        "#{pane_dead}:#{pane_dead_status}",
      ]);
      const [dead, status] = r.stdout.trim().split(":");
      if (dead !== "1") return undefined;
      if (status !== "" && status !== undefined) return Number(status);
      await sleep(100);
    }
    return undefined;
  }

  /**
   * Poll until `cond` holds on the plain capture (then until stable for `stableMs`), or throw
   * {@link LabTimeout} with the last screen.
   */
  async waitFor(cond: Condition, opts: WaitOptions = {}): Promise<Screen> {
    const timeoutMs = opts.timeoutMs ?? 20_000;
    const interval = opts.intervalMs ?? 250;
    const deadline = Date.now() + timeoutMs;
    // Poll the plain capture only (one tmux call per tick); take both forms once it holds.
    let plain = "";
    while (true) {
      plain = await this.capturePlain();
      if (holds(cond, plain)) break;
      let why = "";
      if (opts.failIf && holds(opts.failIf, plain)) why = `${describeCondition(opts.failIf)} holds`;
      else if (opts.failOnExit && await this.isDead()) {
        const status = await this.exitStatus(); // also lets tmux finish drawing the last output
        plain = await this.capturePlain();
        if (holds(cond, plain)) break;
        why = `the process exited (status ${status ?? "unknown"})`;
      }
      if (why) {
        throw new LabTimeout(
          `gave up waiting for ${
            opts.what ?? describeCondition(cond)
          } on ${this.id}: ${why}; last screen:\n${frame(plain)}`,
          plain,
        );
      }
      if (Date.now() > deadline) {
        throw new LabTimeout(
          `timed out after ${timeoutMs} ms waiting for ${
            opts.what ?? describeCondition(cond)
          } on ${this.id} (${this.cols}x${this.rows}); last screen:\n${frame(plain)}`,
          plain,
        );
      }
      await sleep(interval);
    }
    if (opts.stableMs && opts.stableMs > 0) {
      return await this.waitStable({
        stableMs: opts.stableMs,
        timeoutMs: Math.max(2000, deadline - Date.now()),
      });
    }
    return await this.capture();
  }

  /** Wait until the plain capture is unchanged for `stableMs` (default 800); returns the screen. */
  async waitStable(opts: { stableMs?: number; timeoutMs?: number } = {}): Promise<Screen> {
    const stableMs = opts.stableMs ?? 800;
    const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
    let last = await this.capturePlain();
    let since = Date.now();
    while (Date.now() < deadline) {
      await sleep(Math.min(200, stableMs));
      const now = await this.capturePlain();
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since >= stableMs) break;
    }
    return await this.capture();
  }

  async kill(): Promise<void> {
    const out = await this.server.tmuxResult(
      ["display-message", "-p", "-t", this.id, "#{pane_pid}"],
    ).catch(() => undefined);
    const pid = Number(out?.stdout.trim());
    const tree = Number.isInteger(pid) && pid > 1 ? await processTree(pid) : [];
    await this.server.tmuxResult(["kill-session", "-t", this.session]).catch(() => {});
    await endProcesses(tree);
  }
}

/** A screen framed for error messages. */
export function frame(plain: string): string {
  const lines = plain.replace(/\n+$/, "").split("\n");
  return ["┌" + "─".repeat(20), ...lines.map((l) => "│" + l), "└" + "─".repeat(20)].join("\n");
}
