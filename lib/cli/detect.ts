/**
 * `drover detect [--cli N] [FILE|-] [--styled FILE] [--title T]`: every §5 verdict for one capture
 * (`drover.detect.v1`). The capture is the plain `capture-pane -p -J` text; `--styled` adds the
 * `-e` capture for the verdicts that need styles (a dim input placeholder).
 */
import type { Command } from "../deps/cli.ts";
import { DroverError, invalidArgument } from "../errors.ts";
import { detect, type Verdicts } from "../detect/mod.ts";
import { effectiveCli, resolveProfile } from "../profile/resolve.ts";
import { run } from "./context.ts";
import { configFor } from "./cli_common.ts";

export async function readCapture(file: string | undefined): Promise<string> {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  if (file === undefined || file === "-") {
    if (file === undefined && Deno.stdin.isTerminal()) {
      throw invalidArgument("give a capture FILE, or pipe one on stdin (`-`)");
    }
    const chunks: Uint8Array[] = [];
    for await (const c of Deno.stdin.readable) chunks.push(c);
    let len = 0;
    for (const c of chunks) len += c.length;
    const all = new Uint8Array(len);
    let o = 0;
    for (const c of chunks) {
      all.set(c, o);
      o += c.length;
    }
    return decoder.decode(all);
  }
  try {
    return decoder.decode(await Deno.readFile(file));
  } catch (e) {
    throw new DroverError(
      "INVALID_ARGUMENT",
      `cannot read capture ${file}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

export function humanVerdicts(v: Verdicts): string[] {
  const out: string[] = [];
  for (const [k, val] of Object.entries(v)) {
    if (k === "options") {
      const opts = v.options.map((o) => `${o.selected ? "❯" : " "}${o.number}. ${o.text}`);
      out.push(opts.length ? "options:" : "options: none");
      for (const o of opts) out.push(`  ${o}`);
    } else {out.push(
        `${k}: ${val === null ? "-" : typeof val === "string" ? val : JSON.stringify(val)}`,
      );}
  }
  return out;
}

export function register(program: Command): void {
  program
    .command("detect")
    .description("every detector verdict for one capture")
    .argument("[file]", "plain capture (capture-pane -p -J); `-` or omitted: stdin")
    .option(
      "--cli <name>",
      "CLI whose profile judges the capture (default: default_cli, else claude)",
    )
    .option("--styled <file>", "the styled capture (capture-pane -p -e -J) of the same screen")
    .option("--title <title>", "the pane title (mode markers read it too)")
    .action(
      async (
        file: string | undefined,
        opts: { cli?: string; styled?: string; title?: string },
        cmd: Command,
      ) => {
        await run(cmd, "drover.detect.v1", async (g) => {
          if (opts.styled === "-" && (file === undefined || file === "-")) {
            throw invalidArgument("only one of the captures can come from stdin");
          }
          const config = await configFor(g);
          const profile = resolveProfile(effectiveCli(opts.cli, config), config);
          const plain = await readCapture(file);
          const styled = opts.styled !== undefined ? await readCapture(opts.styled) : undefined;
          const v = detect({ plain, styled }, profile, { title: opts.title });
          return { data: v, human: humanVerdicts(v) };
        });
      },
    );
}
