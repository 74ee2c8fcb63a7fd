/** CLI version order, for scenarios that exist only from some version of a CLI on. */

/** Numeric-aware version order ("2.1.197" < "2.1.332" < "2.10.0"). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? "";
    const y = pb[i] ?? "";
    const d = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x.localeCompare(y);
    if (d !== 0) return d;
  }
  return 0;
}

/** Is `version` at or past `since`? An unknown version (null) counts as past: it is tried. */
export function reached(version: string | null | undefined, since: string): boolean {
  return !version || compareVersions(version, since) >= 0;
}
