/**
 * Running drover the way cron does: `env -i` with PATH=/usr/bin:/bin, a HOME, no TMUX, no TERM,
 * through /bin/sh, talking to the *default* tmux server — made private to the test with
 * TMUX_TMPDIR (tmux's own variable for where its sockets live), so no real session is touched.
 * `$DROVER` is the binary under test (DROVER_BIN) or, from a source checkout, the wrapper script
 * docs/cron.md shows.
 */
import { MAIN, V8_FLAGS } from "./drover.ts";
import type { TestServer } from "./tmux_server.ts";

export interface CronBox extends AsyncDisposable {
  /** A throwaway HOME. */
  home: string;
  /** The executable cron would run ($DROVER). */
  exe: string;
  /** The default tmux server of this box (replay doubles start here). */
  server: TestServer;
  /** TMUX_TMPDIR (pass it to anything that must reach the same default server). */
  tmuxTmp: string;
  /** Run `sh -c command` under `env -i` with `env` (PATH=/usr/bin:/bin unless given). */
  run(command: string, env?: Record<string, string>): Promise<CronRun>;
}

export interface CronRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function tmuxAt(socket: string, tmpdir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-S", socket, "-f", "/dev/null", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { TMUX_TMPDIR: tmpdir, TERM: "xterm-256color" },
  }).output();
  const dec = new TextDecoder();
  if (out.code !== 0) throw new Error(`tmux ${args.join(" ")}: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout);
}

export async function cronBox(): Promise<CronBox> {
  const home = await Deno.makeTempDir({ prefix: "drover-cron-home-" });
  const tmuxTmp = await Deno.makeTempDir({ prefix: "drover-cron-tmux-" });
  const sockDir = `${tmuxTmp}/tmux-${Deno.uid() ?? 0}`;
  await Deno.mkdir(sockDir, { mode: 0o700 });
  const socket = `${sockDir}/default`;

  // What the docs tell users to install: the compiled binary, or the deno wrapper script.
  let exe = Deno.env.get("DROVER_BIN");
  if (!exe) {
    exe = `${home}/drover`;
    // HOME is a throwaway here, so the wrapper names the deno cache this checkout already filled
    // (a real user's cron HOME is their own, with the same cache).
    const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
    await Deno.writeTextFile(
      exe,
      `#!/bin/sh\nDENO_DIR='${denoDir}' exec '${Deno.execPath()}' run -A --quiet ${V8_FLAGS} '${MAIN}' "$@"\n`,
    );
    await Deno.chmod(exe, 0o755);
  }

  const server: TestServer = {
    name: "default",
    tmux: (...args: string[]) => tmuxAt(socket, tmuxTmp, ...args),
    waitFor: () => Promise.reject(new Error("unused")),
    async [Symbol.asyncDispose]() {
      await tmuxAt(socket, tmuxTmp, "kill-server").catch(() => "");
    },
  };
  const dec = new TextDecoder();
  return {
    home,
    exe,
    server,
    tmuxTmp,
    async run(command, env = {}) {
      const all = {
        PATH: "/usr/bin:/bin",
        DROVER: exe!,
        HOME: home,
        TMUX_TMPDIR: tmuxTmp,
        ...env,
      };
      const out = await new Deno.Command("/usr/bin/env", {
        args: ["-i", ...Object.entries(all).map(([k, v]) => `${k}=${v}`), "/bin/sh", "-c", command],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        clearEnv: true,
      }).output();
      return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
    },
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      await Deno.remove(home, { recursive: true }).catch(() => {});
      await Deno.remove(tmuxTmp, { recursive: true }).catch(() => {});
    },
  };
}
