/**
 * The shapes of a stuck CLI that the drive loop acts on: a stream error, context bloat and use,
 * a collapsed paste buffer, and the CLI reporting itself unavailable.
 */
import type { ResolvedProfile } from "../profile/resolve.ts";
import { execBounded, type Matcher } from "../regex/match.ts";
import { drawnByCli, transcriptEnd } from "./blocks.ts";
import { bottomOutsideBox, type InputBox, statusAreaOf } from "./input.ts";
import type { Live } from "./liveness.ts";
import { isBusyLine } from "./line_kinds.ts";
import { bottomOf, hasAny, lastIndex, type Screen } from "./screen.ts";
import { contentOf } from "./text.ts";
import { statusLimitOf, unavailableBannerLine } from "./unavailable.ts";

export interface Stuck {
  stream_error: string | null;
  context_bloat_k: number | null;
  context_used_pct: number | null;
  paste_buffer: string | null;
  cli_unavailable: string | null;
}

export function stuckOf(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null,
  live: Live,
): Stuck {
  const mk = p.matchers.markers;
  const bottom = bottomOf(s);
  // A status line's words ("API Error 0") are the user's, never the CLI's stream error.
  const status = new Set(statusAreaOf(s, box));
  const streamIdx = lastIndex(
    s.nb,
    (i) => !status.has(i) && hasAny(s.lower[i], mk.stream_error_markers),
  );
  const pctRe = p.matchers.patterns.context_used_pattern;
  return {
    stream_error: streamIdx === undefined ? null : contentOf(s.lines[streamIdx]),
    context_bloat_k: numberOf(s, p.matchers.patterns.context_bloat_pattern, s.nb),
    context_used_pct: pctRe === null ? null : numberOf(s, pctRe, bottom),
    paste_buffer: pasteBufferOf(s, p, box ? box.lines : bottom),
    cli_unavailable: cliUnavailableOf(s, p, box, live),
  };
}

/**
 * The lowest bottom line (outside the input line) where the CLI says it is unavailable, else null.
 * In the transcript it counts only where the CLI drew it, with no newer work below (blocks.ts, the
 * rule a limit follows: a quoted "You've hit your … limit" or "Invalid API key" in an answer is
 * history); under the input box as it stands, except in the status area of an open-form box, where
 * only `status_limit_pattern` is the CLI's own (the rest is a user's status line). The CLI's own
 * error drawn as the last answer-glyph block (unavailable.ts) counts too; the lowest line wins. A
 * screen that ends in a shell prompt has no CLI to be unavailable.
 */
export function cliUnavailableOf(
  s: Screen,
  p: ResolvedProfile,
  box: InputBox | null,
  live: Live,
): string | null {
  const end = transcriptEnd(s, box, live);
  if (end === null) return null;
  const markers = p.matchers.markers.cli_unavailable_markers;
  const status = new Set(statusAreaOf(s, box));
  const limitAt = statusLimitOf(s, p, box)?.line;
  const i = lastIndex(
    bottomOutsideBox(s, box),
    (i) =>
      status.has(i) ? i === limitAt : hasAny(s.lower[i], markers) &&
        // A busy line quoting the error it retries (OpenCode's "■■⬝⬝ You exceeded your current
        // quota … [retrying in 13s attempt #5]") is work in progress, not the CLI giving up.
        !isBusyLine(s, p, i) &&
        (i >= end || drawnByCli(s, p, i, i, end)),
  );
  const banner = unavailableBannerLine(s, p, end);
  const at = banner !== undefined && (i === undefined || banner > i) ? banner : i;
  return at === undefined ? null : contentOf(s.lines[at]);
}

/** The lowest paste-buffer placeholder on the given lines (the input line, else the bottom). */
function pasteBufferOf(s: Screen, p: ResolvedProfile, lines: readonly number[]): string | null {
  for (let k = lines.length - 1; k >= 0; k--) {
    const m = execBounded(p.matchers.patterns.paste_buffer_pattern, s.lines[lines[k]]);
    if (m) return m[0];
  }
  return null;
}

/** First all-digit capture group of the last matching line (for bloat k / percent). */
function numberOf(s: Screen, re: Matcher, lines: readonly number[]): number | null {
  for (let k = lines.length - 1; k >= 0; k--) {
    const m = execBounded(re, s.lines[lines[k]]);
    if (!m) continue;
    for (let g = 1; g < m.length; g++) {
      const v = m[g];
      if (v !== undefined && /^[0-9]+$/.test(v)) return Number(v);
    }
  }
  return null;
}
