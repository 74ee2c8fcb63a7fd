/**
 * `drover __classify` (hidden): one capture on stdin → the decision `drive --approve allowlist`
 * takes on it, as one versioned line (contract in lib/drive/classify.ts). `sweep.sh classify`
 * reads it, so the script and drive share one judgement: danger rules, allowlist, option choice
 * and the approve gate's refusals.
 *
 * stdin is the plain capture (`capture-pane -p -J`); a styled one (`-p -e -J`, it holds escape
 * sequences) is taken as both forms, so a choice row's selection can be read. `--styled FILE`
 * gives the styled form separately. The allowlist is `--allow` (repeatable), else [drive].allow.
 */
import type { Command } from "../deps/cli.ts";
import { DroverError, invalidArgument } from "../errors.ts";
import { detect } from "../detect/mod.ts";
import { stripAnsi } from "../detect/text.ts";
import { CLASSIFY_FORMAT, classifyCapture, classifyLine } from "../drive/classify.ts";
import { effectiveCli, resolveProfile } from "../profile/resolve.ts";
import { run } from "./context.ts";
import { configFor } from "./cli_common.ts";
import { readCapture } from "./detect.ts";
import { writeOut } from "./output.ts";

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function register(program: Command): void {
  program
    .command("__classify", { hidden: true })
    .description("judge a capture on stdin as drive --approve allowlist would (for sweep.sh)")
    .option(
      "--cli <name>",
      "CLI whose profile judges the capture (default: default_cli, else claude)",
    )
    .option(
      "--allow <prefix>",
      "allowlisted command prefix (repeatable; replaces [drive].allow)",
      collect,
    )
    .option("--styled <file>", "the styled capture (capture-pane -p -e -J) of the same screen")
    .option("--title <title>", "the pane title")
    .option("--format-version <n>", "the format version the reader expects (sweep.sh passes it)")
    .action(async (
      opts: {
        cli?: string;
        allow?: string[];
        styled?: string;
        title?: string;
        formatVersion?: string;
      },
      cmd: Command,
    ) => {
      await run(cmd, "drover.classify.v1", async (g) => {
        // A reader from another release must fail loudly, never misparse (sweep.sh checks too).
        if (opts.formatVersion !== undefined && opts.formatVersion !== String(CLASSIFY_FORMAT)) {
          throw new DroverError(
            "FORMAT_MISMATCH",
            `format version mismatch: the reader expects __classify format ${opts.formatVersion}, ` +
              `this drover prints format ${CLASSIFY_FORMAT}; use the script from \`drover sweep-script\``,
          );
        }
        const config = await configFor(g);
        const profile = resolveProfile(effectiveCli(opts.cli, config), config);
        if (Deno.stdin.isTerminal()) {
          throw invalidArgument(
            "pipe a capture on stdin: tmux capture-pane -p -J -t PANE | drover __classify",
          );
        }
        const input = await readCapture("-");
        let plain = input;
        let styled = opts.styled !== undefined ? await readCapture(opts.styled) : undefined;
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
        const data = { format_version: CLASSIFY_FORMAT, cli: profile.cli, line, ...c };
        if (g.json) return { data };
        // Raw text for a script: written here so no envelope or colour decorates it.
        writeOut(line + "\n");
        return { data, human: [] };
      });
    });
}
