/**
 * A private tmux server for one test: `-L drover-test-<unique> -f /dev/null`, killed on dispose.
 * Tests may run tmux directly through this helper; product code goes through lib/tmux.
 */
import { claimPaths } from "../../lib/approve/claim.ts";

export interface TestServer extends AsyncDisposable {
  name: string;
  /** Run tmux on this server; throws on a non-zero exit. */
  tmux(...args: string[]): Promise<string>;
  /** Poll capture-pane until `pred` holds, or throw with the last screen after `timeoutMs`. */
  waitFor(target: string, pred: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
}

let counter = 0;

/**
 * Remove a pane's approve claim files (lib/approve/claim.ts). They live in the user's own runtime
 * directories, not in a test's scratch: a test whose approver is killed mid-claim (a watchdog)
 * clears what it left there.
 */
export async function dropClaims(srv: TestServer, paneId: string): Promise<void> {
  const sock = (await srv.tmux("display-message", "-p", "#{socket_path}")).trim();
  for (const p of await claimPaths(sock, paneId)) await Deno.remove(p).catch(() => {});
}

/** Run `command` in a new detached window of the holder session; its pane id. */
export async function newPane(srv: TestServer, command: string): Promise<string> {
  return (await srv.tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "holder:", command))
    .trim();
}

/** A pane's own (`-p`) user option, e.g. `@drover-stray-key`; "" when unset. */
export async function paneOption(srv: TestServer, paneId: string, name: string): Promise<string> {
  return (await srv.tmux("show-options", "-p", "-q", "-v", "-t", paneId, name)).trim();
}

export async function startTestServer(opts: { width?: number; height?: number } = {}): Promise<
  TestServer
> {
  // Test files run side by side in one process's workers, each with its own counter: the random
  // part keeps two workers' servers apart when they start in the same millisecond.
  const name = `drover-test-${Deno.pid}-${Date.now().toString(36)}-${counter++}-${
    crypto.randomUUID().slice(0, 8)
  }`;
  const run = async (...args: string[]): Promise<string> => {
    const out = await new Deno.Command("tmux", {
      // -u: as lib/tmux does — without a UTF-8 locale (a fresh container has none) tmux would
      // print the separators tests put in -F formats as "_".
      args: ["-u", "-L", name, "-f", "/dev/null", ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { TERM: Deno.env.get("TERM") ?? "xterm-256color" },
    }).output();
    const dec = new TextDecoder();
    if (out.code !== 0) {
      throw new Error(`tmux ${args.join(" ")} failed: ${dec.decode(out.stderr)}`);
    }
    return dec.decode(out.stdout);
  };
  // A holder session keeps the server alive between test panes.
  await run(
    "new-session",
    "-d",
    "-s",
    "holder",
    "-x",
    String(opts.width ?? 120),
    "-y",
    String(opts.height ?? 40),
    "sleep 100000",
  );
  await run("set-option", "-g", "remain-on-exit", "off");
  return {
    name,
    tmux: run,
    async waitFor(target, pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      let last = "";
      while (Date.now() < deadline) {
        last = await run("capture-pane", "-p", "-t", target);
        if (pred(last)) return last;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(
        `timed out after ${timeoutMs} ms waiting on ${target}; last screen:\n${last}`,
      );
    },
    async [Symbol.asyncDispose]() {
      await new Deno.Command("tmux", {
        args: ["-L", name, "kill-server"],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).output();
    },
  };
}
