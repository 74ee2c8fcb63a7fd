/**
 * Replay doubles: a tmux pane of the recorded size that shows a recorded real screen byte-exact
 * (the styled `-e` capture, so dim text survives), can switch to another screen on demand, and
 * records every byte sent to it so a test can assert exactly which keys drover pressed.
 */
import type { TestServer } from "./tmux_server.ts";

const SCRIPT = new URL("./replay.sh", import.meta.url).pathname;
/**
 * What {@link ReplayPane.settled} sends behind drover's keys: twelve bytes of FS, GS, RS and US
 * (C-\\ … C-_), random per call, so that only the sentinels themselves are left out of
 * {@link ReplayPane.keys} (a stray control byte drover sent stays visible) and no onKey screen of a
 * test (digits, letters, Enter) fires on one.
 */
function sentinel(): string {
  const r = crypto.getRandomValues(new Uint8Array(12));
  return [...r].map((b) => String.fromCharCode(0x1c + (b & 3))).join("");
}

const hexOf = (s: string) => [...s].map((c) => c.charCodeAt(0).toString(16)).join(" ");
const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

export interface Screen {
  /** Bytes to print: normally the styled capture. */
  text: string;
  cols: number;
  rows: number;
}

/** A fixture screen by path relative to tests/fixtures: "claude-code/2.1.197/bash-prompt@120x40". */
export async function loadScreen(rel: string): Promise<Screen> {
  const m = /@([0-9]+)x([0-9]+)$/.exec(rel);
  if (!m) throw new Error(`fixture name needs @<cols>x<rows>: ${rel}`);
  let text: string;
  try {
    text = await Deno.readTextFile(`${FIXTURES}${rel}.ansi.txt`);
  } catch {
    text = await Deno.readTextFile(`${FIXTURES}${rel}.txt`);
  }
  return { text, cols: Number(m[1]), rows: Number(m[2]) };
}

export async function plainFixture(rel: string): Promise<string> {
  return await Deno.readTextFile(`${FIXTURES}${rel}.txt`);
}

export interface ReplayPane {
  paneId: string;
  dir: string;
  /** Every byte the pane received so far (the sentinels of {@link settled} left out). */
  keys(): Promise<string>;
  /**
   * Every byte the pane received before now, once it has read them all: a sentinel byte goes in
   * behind whatever was sent, and the double records bytes in the order its terminal hands them
   * over, so once the sentinel is recorded nothing sent before it is still on its way. Proves "no
   * key came" only for senders that have finished (a process that exited, a call that returned);
   * a sender still running can type after the sentinel.
   */
  settled(): Promise<string>;
  /** Switch the pane to another screen now (e.g. "the prompt was answered meanwhile"). */
  show(screen: Screen | string): Promise<void>;
  /** Show `screen` as soon as `key` (one ASCII character) arrives, like a CLI answering. */
  onKey(key: string, screen: Screen | string): Promise<void>;
}

export interface ReplayOptions {
  /** Session to create (new, sized to the screen) or extend with a new window. */
  session: string;
  /** Add a window to an existing session instead of creating the session. */
  newWindow?: boolean;
  /** Pane title to set. */
  title?: string;
}

function textOf(s: Screen | string): string {
  return typeof s === "string" ? s : s.text;
}

/** Start a replay double; resolves once its screen is drawn. */
export async function startReplay(
  server: TestServer,
  screen: Screen,
  opts: ReplayOptions,
): Promise<ReplayPane> {
  const dir = await Deno.makeTempDir({ prefix: "drover-replay-" });
  await Deno.writeTextFile(`${dir}/screen`, screen.text);
  const cmd = `bash ${SCRIPT} ${dir}`;
  const fmt = "#{pane_id}";
  const out = opts.newWindow
    ? await server.tmux("new-window", "-d", "-P", "-F", fmt, "-t", `${opts.session}:`, cmd)
    : await server.tmux(
      "new-session",
      "-d",
      "-P",
      "-F",
      fmt,
      "-s",
      opts.session,
      "-x",
      String(screen.cols),
      "-y",
      String(screen.rows),
      cmd,
    );
  const paneId = out.trim();
  if (opts.title !== undefined) await server.tmux("select-pane", "-t", paneId, "-T", opts.title);
  await waitFile(`${dir}/ready`);
  const pid = async () => Number((await Deno.readTextFile(`${dir}/pid`)).trim());
  const raw = async () => {
    try {
      return await Deno.readTextFile(`${dir}/keys`);
    } catch {
      return "";
    }
  };
  const sent: string[] = [];
  const strip = (k: string) => sent.reduce((acc, x) => acc.replaceAll(x, ""), k);
  const pane: ReplayPane = {
    paneId,
    dir,
    async keys() {
      return strip(await raw());
    },
    async settled() {
      const mark = sentinel();
      sent.push(mark);
      await server.tmux("send-keys", "-t", paneId, "-H", ...hexOf(mark).split(" "));
      const deadline = Date.now() + 10_000;
      for (;;) {
        const got = await raw();
        if (got.includes(mark)) return strip(got);
        if (Date.now() > deadline) {
          throw new Error(`replay double ${paneId} did not read its sentinel within 10 s`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async show(s) {
      await Deno.remove(`${dir}/switched`).catch(() => {});
      await Deno.writeTextFile(`${dir}/next`, textOf(s));
      Deno.kill(await pid(), "SIGUSR1");
      await waitFile(`${dir}/switched`);
    },
    async onKey(key, s) {
      const hex = key.charCodeAt(0).toString(16).padStart(2, "0");
      await Deno.writeTextFile(`${dir}/onkey-${hex}`, textOf(s));
    },
  };
  return pane;
}

async function waitFile(path: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await Deno.stat(path);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error(`replay double did not come up (${path})`);
}

/** Remove a double's scratch directory (the pane dies with its server). */
export async function cleanupReplay(pane: ReplayPane): Promise<void> {
  await Deno.remove(pane.dir, { recursive: true }).catch(() => {});
}

export interface ManifestScreen {
  file: string;
  styled?: string;
  scenario: string;
  size: string;
  state: string;
  defining?: string[];
  expect?: Record<string, unknown>;
  /** Path relative to tests/fixtures, without .txt: what loadScreen takes. */
  rel: string;
}

/** The recorded versions of a CLI, oldest first (empty when nothing is recorded yet). */
export async function recordedVersions(cli = "claude-code"): Promise<string[]> {
  const versions: string[] = [];
  try {
    for await (const e of Deno.readDir(`${FIXTURES}${cli}`)) {
      if (e.isDirectory) versions.push(e.name);
    }
  } catch {
    return [];
  }
  return versions.sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}

async function screensOf(cli: string, v: string): Promise<ManifestScreen[] | undefined> {
  try {
    const m = JSON.parse(await Deno.readTextFile(`${FIXTURES}${cli}/${v}/manifest.json`));
    return (m.screens as Omit<ManifestScreen, "rel">[]).map((s) => ({
      ...s,
      rel: `${cli}/${v}/${s.file.replace(/\.txt$/, "")}`,
    }));
  } catch {
    return undefined;
  }
}

/**
 * Every screen of one recorded version of a CLI (default: the newest), empty when nothing is
 * recorded yet.
 */
export async function manifestScreens(
  cli = "claude-code",
  version?: string,
): Promise<ManifestScreen[]> {
  const versions = version ? [version] : (await recordedVersions(cli)).reverse();
  for (const v of versions) {
    const screens = await screensOf(cli, v);
    if (screens) return screens;
  }
  return [];
}

/** Every screen of every recorded version of a CLI. */
export async function allManifestScreens(cli = "claude-code"): Promise<ManifestScreen[]> {
  const out: ManifestScreen[] = [];
  for (const v of await recordedVersions(cli)) out.push(...(await screensOf(cli, v) ?? []));
  return out;
}

/** The first screen whose scenario matches `scenario` (and size, when given). */
export function pick(
  screens: ManifestScreen[],
  scenario: RegExp,
  opts: { size?: string; state?: string } = {},
): ManifestScreen | undefined {
  return screens.find((s) =>
    scenario.test(s.scenario) && (opts.size === undefined || s.size === opts.size) &&
    (opts.state === undefined || s.state === opts.state)
  );
}
