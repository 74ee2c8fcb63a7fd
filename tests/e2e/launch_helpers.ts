/**
 * Shared pieces of the launch/read/wait/send e2e tests: a fake agent CLI that records exactly the
 * argv and environment it was started with, a config that points [clis.fake] at it, and the
 * torture prompt the carrier must deliver byte-exact.
 */
import assert from "node:assert/strict";
import { drover, type DroverRun, type DroverRunOptions, envelope } from "../helpers/drover.ts";
import type { TestServer } from "../helpers/tmux_server.ts";

/**
 * The fake agent: records argv (NUL-separated, so any byte but NUL survives) and its environment,
 * then acts like a minimal chat CLI: a ready line, an input line "> " and an echo of every line
 * it is sent, with a busy phase while it "works".
 */
const FAKE_AGENT = `#!/bin/sh
d=\${FAKE_AGENT_DIR:?}
env > "$d/env"
for a in "$@"; do printf '%s\\0' "$a"; done > "$d/argv.tmp" && mv "$d/argv.tmp" "$d/argv"
rule="\$(printf "%40s" "" | sed "s/ /─/g")"
printf "%s\\n" "fake-agent ready"
while :; do
  # An open input box between rules (the Claude Code shape), the cursor after its "> ".
  printf "%s\\n> \\n%s\\033[1A\\r\\033[2C" "\$rule" "\$rule"
  IFS= read -r line || exit 0
  printf "\\r\\033[J"
  case "$line" in
    quit) exit 0 ;;
    "quit later") printf '%s\\n%s\\n> \\n%s\\n' "leaving in 10 s" "\$rule" "\$rule"; sleep 10; exit 0 ;;
    slow*) printf '%s\\n' "working... esc to interrupt"; sleep 2; printf "\\033[1A\\r\\033[J%s\\n" "done: $line" ;;
    *) printf '%s\\n' "reply: $line" ;;
  esac
done
`;

/**
 * The recording variant: same argv/env records and the same screen, but the input side is
 * tests/helpers/input_recorder.ts, which reads raw and records every byte (no line-length cap).
 */
const RECORDER = new URL("../helpers/input_recorder.ts", import.meta.url).pathname;

function recordingAgent(bracketed: boolean): string {
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  return `#!/bin/sh
d=\${FAKE_AGENT_DIR:?}
env > "$d/env"
for a in "$@"; do printf '%s\\0' "$a"; done > "$d/argv.tmp" && mv "$d/argv.tmp" "$d/argv"
exec ${q(Deno.execPath())} run --quiet --allow-read="$d" --allow-write="$d" ${q(RECORDER)} "$d"${
    bracketed ? " --bracketed" : ""
  }
`;
}

export interface FakeAgent {
  dir: string;
  script: string;
  config: string;
  /** argv the agent was started with (without argv[0]), once it has recorded it. */
  argv(timeoutMs?: number): Promise<string[]>;
  env(): Promise<string>;
  /** Recording variant: every byte received so far. */
  keys(): Promise<Uint8Array>;
  /** Recording variant: the lines submitted so far (bytes, decoded as UTF-8). */
  lines(): Promise<string[]>;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface FakeAgentOptions {
  prompt?: string;
  args?: string[];
  /** More environment for the agent (beside FAKE_AGENT_DIR). */
  env?: Record<string, string>;
  extraToml?: string;
  /** Use the raw-reading input recorder; `bracketed` makes it ask for bracketed paste. */
  recorder?: { bracketed?: boolean };
}

export async function fakeAgent(opts: FakeAgentOptions = {}): Promise<FakeAgent> {
  const dir = await Deno.makeTempDir({ prefix: "drover-launch-test-" });
  const script = `${dir}/fake-agent`;
  await Deno.writeTextFile(
    script,
    opts.recorder ? recordingAgent(opts.recorder.bracketed === true) : FAKE_AGENT,
  );
  await Deno.chmod(script, 0o755);
  const config = `${dir}/config.toml`;
  const toml = [
    "[clis.fake]",
    `command = ${JSON.stringify(script)}`,
    `args = ${JSON.stringify(opts.args ?? ["--fake-flag"])}`,
    `prompt = ${JSON.stringify(opts.prompt ?? "positional")}`,
    `env = { ${
      Object.entries({ FAKE_AGENT_DIR: dir, ...opts.env }).map(([k, v]) =>
        `${k} = ${JSON.stringify(v)}`
      ).join(", ")
    } }`,
    "",
    "[clis.fake.prompt_profile]",
    'readiness_markers = ["fake-agent ready"]',
    'mid_response_markers = ["esc to interrupt"]',
    'input_sigils = [">"]',
    opts.extraToml ?? "",
  ].join("\n");
  await Deno.writeTextFile(config, toml);
  return {
    dir,
    script,
    config,
    async argv(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        try {
          const bytes = await Deno.readFile(`${dir}/argv`);
          const parts = new TextDecoder().decode(bytes).split("\0");
          parts.pop();
          return parts;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      throw new Error(`the fake agent did not record its argv within ${timeoutMs} ms`);
    },
    async env() {
      return await Deno.readTextFile(`${dir}/env`);
    },
    async keys() {
      return await Deno.readFile(`${dir}/keys`).catch(() => new Uint8Array());
    },
    async lines() {
      const b = await Deno.readFile(`${dir}/lines`).catch(() => new Uint8Array());
      const parts = new TextDecoder().decode(b).split("\0");
      parts.pop();
      return parts;
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Run drover against a test server with the fake agent's configuration. */
export function droverOn(
  srv: TestServer,
  agent: FakeAgent | undefined,
  args: string[],
  opts: DroverRunOptions = {},
): Promise<DroverRun> {
  const pre = ["-L", srv.name];
  if (agent) pre.push("--config", agent.config);
  return drover([...pre, "--json", ...args], {
    ...opts,
    // No $TMUX: the tests run outside tmux, and must never reach the default server.
    env: { TMUX: "", TMUX_PANE: "", ...opts.env },
  });
}

/** Launch the fake agent in the holder session (in the background) and wait until it is ready. */
export async function launchedFake(srv: TestServer, agent: FakeAgent): Promise<string> {
  const r = await droverOn(srv, agent, [
    "launch",
    "--cli",
    "fake",
    "--session",
    "holder",
    "--background",
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const pane = envelope(r).data.pane.id as string;
  const w = await droverOn(srv, agent, ["wait", pane, "--until", "ready", "--timeout", "30"]);
  assert.equal(w.code, 0, w.stdout + w.stderr);
  return pane;
}

/**
 * About 100 KiB of the text a carrier must not mangle: quotes of both kinds, tabs, newlines (also
 * trailing), $VARS and $(…) that a shell would expand, backslashes, globs, and non-ASCII text.
 */
export function torturePrompt(bytes = 100 * 1024): string {
  const unit = [
    `Fix the "bug" in it's parser; don't touch 'quoted' text.\t\tTabs\there.`,
    "Shell bait: $HOME ${PATH} $(rm -rf /tmp/nothing) `id` \\$escaped \\\\ back\\slash \\n",
    "Globs * ? [a-z] ~ ; & | > < ! # % ^ { } -- --help -rf",
    "Non-ASCII: Grüße, naïve café, Ελληνικά, русский, 日本語, 中文, emoji 🐑🚜, RTL עברית",
    "fish bait: (echo sub) $argv %self; zsh bait: =ls ^x **/*(.)",
    "",
  ].join("\n");
  const enc = new TextEncoder();
  let out = "-- starts with dashes\n";
  const tail = "end\n\n\n";
  while (enc.encode(out + unit + tail).length <= bytes) out += unit;
  out += "z".repeat(bytes - enc.encode(out + tail).length);
  return out + tail;
}

export async function windowCount(srv: TestServer): Promise<number> {
  return (await srv.tmux("list-windows", "-a", "-F", "#{window_id}")).trim().split("\n").length;
}

export async function paneCount(srv: TestServer): Promise<number> {
  return (await srv.tmux("list-panes", "-a", "-F", "#{pane_id}")).trim().split("\n").length;
}

/** Per existing pane: "window_active pane_active" — what a background launch must not change. */
export async function selection(srv: TestServer): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const text = await srv.tmux(
    "list-panes",
    "-a",
    "-F",
    "#{pane_id} #{window_active} #{pane_active}",
  );
  for (const line of text.trim().split("\n")) {
    const [id, wa, pa] = line.split(" ");
    out[id!] = `${wa} ${pa}`;
  }
  return out;
}

/** The same panes' selection now, restricted to the panes in `before`. */
export async function selectionOf(
  srv: TestServer,
  before: Record<string, string>,
): Promise<Record<string, string>> {
  const now = await selection(srv);
  return Object.fromEntries(Object.keys(before).map((k) => [k, now[k] ?? "gone"]));
}
