/**
 * The "did you mean" hints of the argument parser (argv.ts): optimal-string-alignment distance, at
 * most 3 edits and 40 % similarity, ties all listed (the rule commander used, so the hints read the
 * same).
 */

const MAX_DISTANCE = 3;

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d[i] = [i];
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** "did you mean" candidates for `word` (an option word keeps its `--`). */
export function suggest(word: string, candidates: readonly string[]): string[] {
  const options = word.startsWith("--");
  const w = options ? word.slice(2) : word;
  let best = MAX_DISTANCE;
  let similar: string[] = [];
  for (const c0 of new Set(candidates)) {
    const c = options ? c0.slice(2) : c0;
    if (c.length <= 1) continue;
    const dist = editDistance(w, c);
    const len = Math.max(w.length, c.length);
    if ((len - dist) / len <= 0.4) continue;
    if (dist < best) {
      best = dist;
      similar = [c];
    } else if (dist === best) similar.push(c);
  }
  similar.sort((a, b) => a.localeCompare(b));
  return options ? similar.map((c) => `--${c}`) : similar;
}

/** The "did you mean" line for the candidates `suggest` found, if any. */
export function suggestion(found: string[]): string | undefined {
  if (found.length === 0) return undefined;
  return found.length === 1
    ? `Did you mean ${found[0]}?`
    : `Did you mean one of ${found.join(", ")}?`;
}
