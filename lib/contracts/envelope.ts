/**
 * The zod schemas of drover's machine-readable outputs (`drover.<command>.v1`): the single
 * definition docs/schemas/*.json is generated from (`deno task schemas`, tools/gen_schemas.ts).
 * Nothing here runs on a normal start; the schemas exist for the generator and the tests.
 *
 * Within v1 fields are only ever added, never renamed or removed; anything else is a v2. A
 * `strict` data schema is closed (a new field fails the schema test until it is listed here); a
 * `loose` one lists the fields scripts rely on and allows additions.
 */
import { z } from "../deps/zod.ts";

export const PANE_ID = z.string().regex(/^%[0-9]+$/);
export const WINDOW_ID = z.string().regex(/^@[0-9]+$/);
export const SESSION_ID = z.string().regex(/^\$[0-9]+$/);

/** `error` of every failure envelope: a typed code, a message for a person, optional details. */
export const ERROR = z.strictObject({
  code: z.string().regex(/^[A-Z][A-Z_]*$/),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** One output contract: its schema id, what prints it, and the JSON it prints. */
export interface Contract {
  /** `drover.<name>.v1`: the envelope's `schema` field and the file name in docs/schemas/. */
  id: string;
  /** e.g. "drover approve". */
  title: string;
  description: string;
  schema: z.ZodType;
}

/** The --json envelope of a command: success with its data, or the error form. */
export function envelope(id: string, title: string, data: z.ZodType): Contract {
  return {
    id,
    title,
    description: `The --json envelope of ${title}: {"ok":true,"schema":"${id}","data":…} or ` +
      `{"ok":false,"schema":"${id}","error":…}. Within v1 fields are only ever added.`,
    schema: z.union([
      z.strictObject({ ok: z.literal(true), schema: z.literal(id), data }),
      z.strictObject({ ok: z.literal(false), schema: z.literal(id), error: ERROR }),
    ]),
  };
}
