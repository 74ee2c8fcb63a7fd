/** Binds the detectors to one pane's CLI: capture → the verdicts the gate reads. */
import type { Config } from "../config/load.ts";
import { detect } from "../detect/mod.ts";
import { resolveProfile } from "../profile/resolve.ts";
import type { PaneCapture } from "../tmux/capture.ts";
import type { JudgedVerdicts } from "./mod.ts";

// deno-lint-ignore no-explicit-any
type Loose = any;

export type Verdicts = ReturnType<typeof detect>;

/** The clock a detector reads printed reset times against (lib/detect `DetectOptions.now`). */
export interface DetectClock {
  now: () => number;
  timeZone: string;
}

export function makeDetector(
  cli: string,
  config: Config,
  title?: string,
  clock?: DetectClock,
): (cap: PaneCapture) => Verdicts {
  const profile = resolveProfile(cli, config);
  return (cap) =>
    detect(cap, profile, {
      ...(title === undefined ? {} : { title }),
      ...(clock === undefined ? {} : { now: clock.now(), timeZone: clock.timeZone }),
    });
}

export function toJudged(v: Verdicts): JudgedVerdicts {
  const loose = v as Loose;
  return {
    state: String(loose.state),
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
  return (cap) => toJudged(d(cap));
}
