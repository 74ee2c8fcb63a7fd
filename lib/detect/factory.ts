/**
 * The detectors bound to one pane's CLI: its profile resolved once, then capture → verdicts. Every
 * reader of panes (approve, drive, panes, verify) judges a screen through these.
 */
import type { ProfileConfig } from "../profile/resolve.ts";
import { resolveProfile } from "../profile/resolve.ts";
import type { ZoneSource } from "./limit.ts";
import { type Capture, detect, type PaneSummary, summarize, type Verdicts } from "./state.ts";

/** The clock a detector reads printed reset times against (`DetectOptions.now`). */
export interface DetectClock {
  now: () => number;
  timeZone: ZoneSource;
}

export function makeDetector(
  cli: string,
  config: ProfileConfig,
  title?: string,
  clock?: DetectClock,
): (cap: Capture) => Verdicts {
  const profile = resolveProfile(cli, config);
  return (cap) =>
    detect(cap, profile, {
      ...(title === undefined ? {} : { title }),
      ...(clock === undefined ? {} : { now: clock.now(), timeZone: clock.timeZone }),
    });
}

/** Like makeDetector, for a row that shows only the state, mode and printed version. */
export function makeSummarizer(
  cli: string,
  config: ProfileConfig,
  title?: string,
): (cap: Capture) => PaneSummary {
  const profile = resolveProfile(cli, config);
  return (cap) => summarize(cap, profile, title === undefined ? {} : { title });
}
