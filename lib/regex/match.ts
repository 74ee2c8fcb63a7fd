/** Matching that cannot be stalled: every pattern runs on a bounded line and never throws. */

/**
 * Lines longer than this are cut before a pattern runs on them. Terminal lines are at most a few
 * hundred columns; a joined (-J) line can be longer, but nothing a detector looks for sits past
 * the first 4096 characters of a line. The cut bounds the work of every pattern on every line.
 */
export const MAX_MATCH_LINE = 4096;

export function boundLine(line: string): string {
  return line.length > MAX_MATCH_LINE ? line.slice(0, MAX_MATCH_LINE) : line;
}

/** RegExp#exec on a bounded line. Never throws (a V8 failure counts as no match). */
export function execBounded(re: RegExp, line: string): RegExpExecArray | null {
  try {
    re.lastIndex = 0;
    return re.exec(boundLine(line));
  } catch {
    return null;
  }
}
