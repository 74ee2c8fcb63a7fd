/**
 * `drover detect [--cli N] [FILE|-] [--styled FILE] [--title T]`: every §5 verdict for one capture
 * (`drover.detect.v1`). The capture is the plain `capture-pane -p -J` text; `--styled` adds the
 * `-e` capture for the verdicts that need styles (a dim input placeholder).
 */
import type { Command } from "../deps/cli.ts";
import { invalidArgument } from "../errors.ts";
import {
  MAX_CAPTURE_BYTES,
  readCapped,
  readFileCapped,
  TooLarge,
  tooLargeError,
} from "../io/capped.ts";
import { detect, type Verdicts } from "../detect/mod.ts";
import { effectiveCli, resolveProfile } from "../profile/resolve.ts";
import { run } from "./context.ts";
import { configFor } from "./cli_common.ts";

async function readCapture(file: string | undefined, what: string): Promise<string> {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  try {
    if (file === undefined || file === "-") {
      if (file === undefined && Deno.stdin.isTerminal()) {
        throw invalidArgument("give a capture FILE, or pipe one on stdin (`-`)");
      }
      return decoder.decode(await readCapped(Deno.stdin, MAX_CAPTURE_BYTES, `${what} on stdin`));
    }
    return decoder.decode(await readFileCapped(file, MAX_CAPTURE_BYTES, `${what} ${file}`));
  } catch (e) {
    if (e instanceof TooLarge) {
      throw tooLargeError(e, "a capture is one screen (capture-pane -p -J); pass that, not a log");
    }
    throw e;
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
          const plain = await readCapture(file, "the capture");
          const styled = opts.styled !== undefined
            ? await readCapture(opts.styled, "the styled capture")
            : undefined;
          const v = detect({ plain, styled }, profile, { title: opts.title });
          return { data: v, human: humanVerdicts(v) };
        });
      },
    );
}
