/**
 * `drover __classify` (hidden): one capture on stdin → the decision `drive --approve allowlist`
 * takes on it, as one versioned line (contract in lib/drive/classify.ts). `sweep.sh classify`
 * reads it, so the script and drive share one judgement: danger rules, allowlist, option choice
 * and the approve gate's refusals.
 *
 * stdin is the capture. A styled one (`capture-pane -p -e -J`: it holds escape sequences) is taken
 * as both forms — what drive judges, since the styles tell a command from its grey description and
 * show which choice of a row is selected. A plain capture (`-p -J`) is judged without styles, which
 * only ever errs towards escalating. `--styled FILE` gives the styled form separately.
 * The allowlist is `--allow` (repeatable), else [drive].allow.
 */
import { DroverError, invalidArgument } from "../errors.ts";
import { detect } from "../detect/mod.ts";
import { stripAnsi } from "../detect/text.ts";
import { CLASSIFY_FORMAT, classifyCapture, classifyLine } from "../drive/classify.ts";
import { effectiveCli, resolveProfile } from "../profile/resolve.ts";
import type { Invocation } from "./invocation.ts";
import type { CLASSIFY } from "./command_specs_internal.ts";
import type { ClassifyData } from "../contracts/classify.ts";
import { configFor } from "./cli_common.ts";
import { readCapture } from "./detect.ts";
import { type CommandResult, writeOut } from "./output.ts";

export async function action(
  { opts, g }: Invocation<typeof CLASSIFY>,
): Promise<CommandResult<ClassifyData>> {
  // A reader from another release must fail loudly, never misparse (sweep.sh checks too).
  if (opts.formatVersion !== undefined && opts.formatVersion !== String(CLASSIFY_FORMAT)) {
    throw new DroverError(
      "FORMAT_MISMATCH",
      `format version mismatch: the reader expects __classify format ${opts.formatVersion}, ` +
        `this drover prints format ${CLASSIFY_FORMAT}; use the script from \`drover sweep-script\``,
    );
  }
  if (opts.styled === "-") {
    throw invalidArgument("the capture comes from stdin; --styled takes a FILE");
  }
  if (Deno.stdin.isTerminal()) {
    throw invalidArgument(
      "pipe a capture on stdin: tmux capture-pane -p -e -J -t PANE | drover __classify",
    );
  }
  const config = await configFor(g);
  const profile = resolveProfile(effectiveCli(opts.cli, config), config);
  const input = await readCapture("-", "the capture");
  let plain = input;
  let styled = opts.styled !== undefined
    ? await readCapture(opts.styled, "the styled capture")
    : undefined;
  if (styled === undefined && input.includes("\x1b[")) {
    styled = input;
    plain = stripAnsi(input);
  }
  const allow = [...(opts.allow ?? config.drive.allow ?? [])]
    .map((a) => a.trim())
    .filter((a) => a !== "");
  const raw = detect(
    { plain, styled },
    profile,
    opts.title === undefined ? {} : { title: opts.title },
  );
  const c = classifyCapture(raw, plain, allow);
  const line = classifyLine(c);
  const data: ClassifyData = { format_version: CLASSIFY_FORMAT, cli: profile.cli, line, ...c };
  if (g.json) return { data };
  // Raw text for a script: written here so no envelope or colour decorates it.
  writeOut(line + "\n");
  return { data, human: [] };
}
