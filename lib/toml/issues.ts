/** zod issues → `{ path, reason }`, the shape every configuration error is reported in. */
import type { z } from "../deps/zod.ts";

export interface PathIssue {
  path: (string | number)[];
  reason: string;
}

/** The longest reason shown: a reason never echoes a large value (or anything of V8's). */
const MAX_REASON = 300;

/**
 * One issue per problem: an unknown key becomes one issue at its own path (so it gets its own
 * line), with the reason `unknownKey` gives for that place.
 */
export function zodIssues(
  issues: readonly z.core.$ZodIssue[],
  unknownKey: (path: readonly (string | number)[], key: string) => string,
): PathIssue[] {
  const out: PathIssue[] = [];
  for (const i of issues) {
    const path = i.path.filter((p): p is string | number => typeof p !== "symbol");
    if (i.code === "unrecognized_keys") {
      for (const key of i.keys) out.push({ path: [...path, key], reason: unknownKey(path, key) });
    } else {
      const reason = i.message.length > MAX_REASON
        ? i.message.slice(0, MAX_REASON) + "…"
        : i.message;
      out.push({ path, reason });
    }
  }
  return out;
}
