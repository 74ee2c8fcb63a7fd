/**
 * `deno task compile [--target T …] [--download]`: build dist/drover (and dist/drover-<target>).
 *
 * This file is the one source of the release target list and of the compile flags: the release
 * workflow runs `deno task compile --target T` for each entry of RELEASE_TARGETS, and
 * tests/unit/release_workflow_test.ts checks that the workflow's list is this one.
 *
 * `deno compile` needs the `denort` base runtime of the same Deno version and target. It is
 * downloaded on first use from dl.deno.land, which offline build machines cannot reach; there
 * DENORT_BIN=/path/to/denort must point at one. Without DENORT_BIN, a cached runtime or
 * `--download` (an online machine, e.g. the release runner) we stop with a clear message instead of
 * letting compile fail on a DNS error.
 */
/**
 * The V8 flags drover runs with, everywhere it runs as a product: this binary, the `drover` task,
 * the cron wrapper of docs/cron.md and every drover process the tests start
 * (tests/unit/v8_flags_test.ts holds them to this one string).
 * - The experimental regexp engine takes over a JavaScript RegExp that backtracks too long.
 * - `--no-lazy` compiles every function when its module is compiled, so Deno's code cache (written
 *   after the first run) holds their bytecode: a start no longer compiles the detectors it calls.
 *   `panes --json` over 50 panes ran ~8 % faster, `detect FILE` ~15 % (deno task bench).
 */
export const V8_FLAGS =
  "--v8-flags=--enable-experimental-regexp-engine-on-excessive-backtracks,--no-lazy";

/** The platforms a release ships a binary for (Rust target triples, as `deno compile` takes them). */
export const RELEASE_TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
] as const;

/** Where `deno task compile` writes the binary for `target` (the host's when undefined). */
export function outputPath(target?: string): string {
  return target ? `dist/drover-${target}` : "dist/drover";
}

/** The `deno compile` argv for one build: all permissions, the V8 flags, the profiles embedded. */
export function compileArgs(target?: string): string[] {
  return [
    "compile",
    "--allow-all",
    V8_FLAGS,
    "--exclude-unused-npm",
    "-o",
    outputPath(target),
    ...(target ? ["--target", target] : []),
    // profiles/*.toml are text imports of main.ts's module graph, so they are embedded as is.
    "main.ts",
  ];
}

function parseArgs(args: string[]): { targets: string[]; download: boolean } {
  const targets: string[] = [];
  let download = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--target" && args[i + 1]) targets.push(args[++i]!);
    else if (a.startsWith("--target=")) targets.push(a.slice("--target=".length));
    else if (a === "--download") download = true;
    else {
      console.error(`compile: unknown argument ${a} (use --target TRIPLE, --download)`);
      Deno.exit(2);
    }
  }
  return { targets, download };
}

async function cachedDenort(): Promise<boolean> {
  const denoDir = Deno.env.get("DENO_DIR") ??
    `${Deno.env.get("HOME") ?? ""}/.cache/deno`;
  try {
    for await (const e of Deno.readDir(`${denoDir}/dl/release/v${Deno.version.deno}`)) {
      if (e.name.startsWith("denort-")) return true;
    }
  } catch {
    // no cache directory: nothing downloaded yet
  }
  return false;
}

async function main(): Promise<void> {
  const { targets, download } = parseArgs(Deno.args);
  if (!download && !Deno.env.get("DENORT_BIN") && !(await cachedDenort())) {
    console.error(
      "compile: no denort runtime available. On an offline machine set DENORT_BIN=/path/to/denort " +
        `(Deno ${Deno.version.deno}, same target); online, pass --download to let deno fetch it.`,
    );
    Deno.exit(1);
  }
  const builds = targets.length === 0 ? [undefined] : targets;
  for (const target of builds) {
    const { code } = await new Deno.Command(Deno.execPath(), { args: compileArgs(target) })
      .spawn().status;
    if (code !== 0) Deno.exit(code);
    console.log(`built ${outputPath(target)}`);
  }
}

if (import.meta.main) await main();
