/** Durations in configuration and flags: "500ms", "15s", "10m", "1h", "1h30m". */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds for a duration string, or null when it is not one. */
export function parseDuration(text: string): number | null {
  const t = text.trim();
  if (t === "") return null;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  while (pos < t.length) {
    re.lastIndex = pos;
    const m = re.exec(t);
    if (!m) return null;
    total += Number(m[1]) * UNIT_MS[m[2]];
    pos = re.lastIndex;
  }
  return Number.isFinite(total) ? Math.round(total) : null;
}
