/**
 * `drover detect [--cli N] [FILE|-] [--styled FILE] [--title T]`: every §5 verdict for one capture
 * (`drover.detect.v1`). The capture is the plain `capture-pane -p -J` text; `--styled` adds the
 * `-e` capture for the verdicts that need styles (a dim input placeholder).
 */
import { invalidArgument } from "../errors.ts";
import {
  MAX_CAPTURE_BYTES,
  readCapped,
  readFileCapped,
  TooLarge,
  tooLargeError,
} from "../io/capped.ts";
import { detect, type Verdicts } from "../detect/mod.ts";
import { localTimeZone } from "../limit/local.ts";
import { checkCliFlag, effectiveCli, resolveProfile } from "../profile/resolve.ts";
import type { Invocation } from "./invocation.ts";
import type { DETECT } from "./command_specs.ts";
import type { CommandResult } from "./output.ts";
import type { DetectData } from "../contracts/detect.ts";
import { configFor } from "./cli_common.ts";

export async function readCapture(file: string | undefined, what: string): Promise<string> {
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

export async function action(
  { args, opts: o, g }: Invocation<typeof DETECT>,
): Promise<CommandResult<DetectData>> {
  const file = args.file;
  let now = Date.now();
  if (o.now !== undefined) {
    now = Date.parse(o.now);
    if (!Number.isFinite(now)) {
      throw invalidArgument(
        `--now: "${o.now}" is not an ISO 8601 instant (e.g. 2026-12-01T18:00:00Z)`,
      );
    }
  }
  if (o.styled === "-" && (file === undefined || file === "-")) {
    throw invalidArgument("only one of the captures can come from stdin");
  }
  const config = await configFor(g);
  checkCliFlag(o.cli, config);
  const profile = resolveProfile(effectiveCli(o.cli, config), config);
  const plain = await readCapture(file, "the capture");
  const styled = o.styled !== undefined
    ? await readCapture(o.styled, "the styled capture")
    : undefined;
  const v = detect({ plain, styled }, profile, { title: o.title, now, timeZone: localTimeZone });
  return { data: v, human: humanVerdicts(v) };
}
