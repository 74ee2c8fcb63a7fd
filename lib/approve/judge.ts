/**
 * The verdicts the gate reads, from one pane's detector (lib/detect/factory.ts) and the gate's
 * wordings for its CLI.
 */
import type { Config } from "../config/load.ts";
import { makeDetector } from "../detect/factory.ts";
import { bottomModalLines, type Verdicts } from "../detect/mod.ts";
import { resolveProfile } from "../profile/resolve.ts";
import type { PaneCapture } from "../tmux/capture.ts";
import type { JudgedVerdicts } from "./approve.ts";
import { type GateWords, gateWordsFor } from "../profile/gate_words.ts";

// deno-lint-ignore no-explicit-any
type Loose = any;

/**
 * The verdicts the gate reads. With the capture and the gate wordings, also `modal_dialog`: a
 * dialog heading (the shipped profiles' ones always count) in the bottom modal.
 */
export function toJudged(v: Verdicts, cap?: PaneCapture, words?: GateWords): JudgedVerdicts {
  const loose = v as Loose;
  let modal_dialog: string | null = null;
  if (cap && words) {
    const lines = bottomModalLines(cap.plain).map((l) => l.toLowerCase());
    modal_dialog = words.dialog.find((m) => lines.some((l) => l.includes(m))) ?? null;
  }
  return {
    modal_dialog,
    state: v.state,
    live_prompt: loose.live_prompt === true,
    permission_prompt: loose.permission_prompt === true,
    command: loose.command ?? null,
    file_path: loose.file_path ?? null,
    options: Array.isArray(loose.options) ? loose.options : [],
    broad_grant_option: typeof loose.broad_grant_option === "number"
      ? loose.broad_grant_option
      : null,
    choice_row: Array.isArray(loose.choice_row) ? loose.choice_row : null,
    limit: typeof loose.limit === "string" ? loose.limit : null,
    input_box: typeof loose.input_box === "string" ? loose.input_box : null,
  };
}

export function makeJudge(
  cli: string,
  config: Config,
  title?: string,
): (cap: PaneCapture) => JudgedVerdicts {
  const d = makeDetector(cli, config, title);
  const words = makeGateWords(cli, config);
  return (cap) => toJudged(d(cap), cap, words);
}

/** The approve gate's wordings for a pane running `cli` (shipped ones + what its profile adds). */
export function makeGateWords(cli: string, config: Config): GateWords {
  return gateWordsFor(resolveProfile(cli, config));
}
