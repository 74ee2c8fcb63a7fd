/**
 * The drive state file's schema (zod), and the reader that holds a file to it. Loaded only when a
 * state file exists (state.ts imports it on demand), so a first run without one pays nothing for
 * zod.
 *
 * A field of the wrong type or shape (`"dedup": []`, `"submitted": {"text": 5}`) is never trusted:
 * that part of the state is reset and the reader says which fields, for a `state-reset` warning.
 * The rest is kept — one wrong field is no reason to forget every dedup window and limit.
 */
import { z } from "../deps/zod.ts";
import {
  type DriveState,
  freshState,
  type LimitMemory,
  type OrchestratorMemory,
  type PaneMemory,
  STATE_VERSION,
} from "./state.ts";

const text = (max: number) => z.string().transform((s) => s.slice(0, max));
const lines = z.array(z.string()).transform((a) => a.slice(0, 32).map((l) => l.slice(0, 1000)));
const stamp = z.number();

const Stamped = z.object({ text: z.string(), at: stamp });

const Limit = z.object({
  text: text(1000),
  resetsAt: stamp,
  dueAt: stamp,
  resumes: z.number().min(0).transform(Math.floor),
  seenAt: stamp,
  resumedAt: stamp.optional(),
  resumeText: text(1000).optional(),
  below: lines.optional(),
  movedOn: lines.optional(),
});

/** Each field of a pane's memory, checked on its own (one bad field resets only itself). */
const PANE_FIELDS = {
  submitted: Stamped,
  limit: Limit,
  strayKey: Stamped,
} as const;

const ORCHESTRATOR_FIELDS = { idleSince: stamp, lastNudgeAt: stamp } as const;

const Dedup = z.record(z.string(), stamp);

/** The whole file, as drover writes it. */
export const DriveStateSchema = z.object({
  version: z.literal(STATE_VERSION),
  session: z.string(),
  dedup: Dedup,
  panes: z.record(z.string(), z.object(PANE_FIELDS).partial()),
  orchestrator: z.object(ORCHESTRATOR_FIELDS).partial(),
  updatedAt: stamp,
});

// The schema and the interfaces in state.ts name the same fields: a field added to one and not the
// other fails `deno check` here.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false)
  : false;
const _limitKeys: SameKeys<z.infer<typeof Limit>, LimitMemory> = true;
const _paneKeys: SameKeys<typeof PANE_FIELDS, PaneMemory> = true;
const _orchestratorKeys: SameKeys<typeof ORCHESTRATOR_FIELDS, OrchestratorMemory> = true;
const _stateKeys: SameKeys<z.infer<typeof DriveStateSchema>, DriveState> = true;
void [_limitKeys, _paneKeys, _orchestratorKeys, _stateKeys];

export interface ParsedState {
  state: DriveState;
  /** The fields that did not fit the schema and were reset, with why ("dedup: expected record"). */
  reset: string[];
}

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** `panes.%1.submitted.text: expected string, received number`. */
function why(where: string, error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return `${where}: invalid`;
  const path = [where, ...first.path.map(String)].join(".");
  return `${path}: ${first.message.replace(/^Invalid input: /, "")}`;
}

/**
 * Parse a state file's text: a whole new state when the file is not one at all (not JSON, another
 * version or session: the reason as a string), else the state with every field that failed the
 * schema reset and named in `reset`.
 */
export function parseState(textIn: string, session: string): ParsedState | string {
  let raw: unknown;
  try {
    raw = JSON.parse(textIn);
  } catch (e) {
    return `not JSON (${(e instanceof Error ? e.message : String(e)).slice(0, 200)})`;
  }
  if (!isRecord(raw)) return "not a JSON object";
  if (raw.version !== STATE_VERSION) {
    return `unknown state version ${JSON.stringify(raw.version)?.slice(0, 40)}`;
  }
  if (raw.session !== session) {
    return `it belongs to session ${JSON.stringify(raw.session)?.slice(0, 80)}`;
  }
  const whole = DriveStateSchema.safeParse(raw);
  if (whole.success) return { state: whole.data as DriveState, reset: [] };

  // Salvage: each part on its own, so the message names exactly what was reset.
  const st = freshState(session);
  const reset: string[] = [];
  const take = <T>(where: string, schema: z.ZodType<T>, value: unknown, put: (v: T) => void) => {
    const r = schema.safeParse(value);
    if (r.success) put(r.data);
    else reset.push(why(where, r.error));
  };
  if (raw.dedup !== undefined) take("dedup", Dedup, raw.dedup, (d) => st.dedup = d);
  if (raw.panes !== undefined && !isRecord(raw.panes)) reset.push("panes: expected object");
  for (const [id, m] of Object.entries(isRecord(raw.panes) ? raw.panes : {})) {
    if (!isRecord(m)) {
      reset.push(`panes.${id}: expected object`);
      continue;
    }
    const mem: PaneMemory = {};
    for (const [field, schema] of Object.entries(PANE_FIELDS)) {
      if (m[field] === undefined) continue;
      take(`panes.${id}.${field}`, schema as z.ZodType<unknown>, m[field], (v) => {
        (mem as Record<string, unknown>)[field] = v;
      });
    }
    st.panes[id] = mem;
  }
  const o = raw.orchestrator;
  if (o !== undefined && !isRecord(o)) reset.push("orchestrator: expected object");
  for (const [field, schema] of Object.entries(ORCHESTRATOR_FIELDS)) {
    const v = isRecord(o) ? o[field] : undefined;
    if (v === undefined) continue;
    take(`orchestrator.${field}`, schema, v, (n) => {
      (st.orchestrator as Record<string, unknown>)[field] = n;
    });
  }
  if (raw.updatedAt !== undefined) take("updatedAt", stamp, raw.updatedAt, (n) => st.updatedAt = n);
  return { state: st, reset };
}
