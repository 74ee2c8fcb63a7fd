/**
 * Which scripts a real drover process compiles: V8's own log (`--log-function-events`, passed
 * through DENO_V8_FLAGS so `deno run` and a compiled binary take it alike) names every script V8
 * parses, including the lazily loaded parts of Deno's runtime such as the Node-compat layer
 * (`ext:deno_node/…`, which is what a `node:` import or a CommonJS npm package pulls in).
 */
import { droverCommand } from "./drover.ts";

export interface LoadedScripts {
  code: number;
  stdout: string;
  stderr: string;
  /** Every script URL V8 parsed (ext:…, file:///…, node:…). */
  scripts: Set<string>;
}

async function logged(
  exe: string,
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string },
): Promise<LoadedScripts> {
  const dir = await Deno.makeTempDir({ prefix: "drover-v8log-" });
  const log = `${dir}/v8.log`;
  try {
    const out = await new Deno.Command(exe, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      cwd: opts.cwd,
      env: {
        NO_COLOR: "1",
        ...opts.env,
        DENO_V8_FLAGS: `--log-function-events,--logfile=${log},--no-logfile-per-isolate`,
      },
      signal: AbortSignal.timeout(60_000),
    }).output();
    let text = "";
    try {
      text = await Deno.readTextFile(log);
    } catch {
      // no log: the runtime ignored DENO_V8_FLAGS (the caller reports it)
    }
    const scripts = new Set<string>();
    for (const m of text.matchAll(/^script-details,\d+,([^,\n]*)/gm)) {
      if (m[1]) scripts.add(m[1]);
    }
    const dec = new TextDecoder();
    return {
      code: out.code,
      stdout: dec.decode(out.stdout),
      stderr: dec.decode(out.stderr),
      scripts,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The scripts an empty `deno run` loads: Deno's own start-up, the yardstick. */
export async function emptyRunScripts(): Promise<Set<string>> {
  const dir = await Deno.makeTempDir({ prefix: "drover-empty-" });
  try {
    await Deno.writeTextFile(`${dir}/empty.ts`, "");
    return (await logged(Deno.execPath(), ["run", "--quiet", `${dir}/empty.ts`], {})).scripts;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Run drover (DROVER_BIN or `deno run main.ts`) and report the scripts it loaded. */
export function droverScripts(
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Promise<LoadedScripts> {
  const [exe, pre] = droverCommand();
  return logged(exe, [...pre, ...args], opts);
}

/** Scripts of Deno's Node-compat layer, or `node:` modules, beyond what `baseline` loads. */
export function nodeScripts(loaded: Set<string>, baseline: Set<string>): string[] {
  return [...loaded].filter((u) =>
    (u.startsWith("node:") || u.startsWith("ext:deno_node/")) && !baseline.has(u)
  ).sort();
}

/** The npm packages (name@version) whose files were loaded. */
export function npmPackages(loaded: Set<string>): string[] {
  const out = new Set<string>();
  for (const u of loaded) {
    const m = /\/npm\/[^/]+\/((?:@[^/]+\/)?[^/]+)\/([^/]+)\//.exec(u);
    if (m) out.add(`${m[1]}@${m[2]}`);
  }
  return [...out].sort();
}
