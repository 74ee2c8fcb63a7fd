/**
 * `deno task compile [--target T …]`: build dist/drover (and dist/drover-<target> variants).
 *
 * `deno compile` needs the `denort` base runtime. It is downloaded on first use from dl.deno.land,
 * which offline build machines cannot reach; there DENORT_BIN=/path/to/denort must point at a
 * runtime of the same Deno version. Without either we stop with a clear message instead of letting
 * compile fail on a DNS error.
 */
const V8_FLAGS = "--v8-flags=--enable-experimental-regexp-engine-on-excessive-backtracks";

function targetsFrom(args: string[]): string[] {
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--target" && args[i + 1]) targets.push(args[++i]!);
    else if (args[i]!.startsWith("--target=")) targets.push(args[i]!.slice("--target=".length));
  }
  return targets;
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

const targets = targetsFrom(Deno.args);
if (!Deno.env.get("DENORT_BIN") && !(await cachedDenort())) {
  console.error(
    "compile: no denort runtime available. On an offline machine set DENORT_BIN=/path/to/denort " +
      `(Deno ${Deno.version.deno}, same target); online, deno downloads it on first use.`,
  );
  Deno.exit(1);
}

const builds = targets.length === 0 ? [undefined] : targets;
for (const target of builds) {
  const out = target ? `dist/drover-${target}` : "dist/drover";
  const args = [
    "compile",
    "--allow-all",
    V8_FLAGS,
    "--exclude-unused-npm",
    "-o",
    out,
    ...(target ? ["--target", target] : []),
    "main.ts",
  ];
  const { code } = await new Deno.Command(Deno.execPath(), { args }).spawn().status;
  if (code !== 0) Deno.exit(code);
  console.log(`built ${out}`);
}
