/** Cutting text drover did not write down to a size it can show. */

/** One line (whitespace runs collapsed, ends trimmed) of at most `max` characters, "…" when cut. */
export function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
}

/** At most `max` characters of `s`, marked when cut (errors never echo megabytes of input). */
export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length - max} more characters)`;
}
