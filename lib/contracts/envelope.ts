/**
 * The zod schemas of drover's machine-readable outputs (`drover.<command>.v1`): the single
 * definition docs/schemas/*.json is generated from (`deno task schemas`, tools/gen_schemas.ts),
 * and the types the commands print with (`DataOf`: lib/cli imports them as types only, so nothing
 * here runs on a normal start).
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
export interface Contract<S extends z.ZodType = z.ZodType> {
  /** `drover.<name>.v1`: the envelope's `schema` field and the file name in docs/schemas/. */
  id: string;
  /** e.g. "drover approve". */
  title: string;
  description: string;
  schema: S;
}

/** An envelope's contract, with the schema of its success `data` kept for the type of it. */
export interface EnvelopeContract<D extends z.ZodType = z.ZodType> extends Contract {
  data: D;
}

/**
 * A schema's output as code writes it: the `[key: string]: unknown` of a loose object (or of a
 * record of anything) dropped, since TypeScript lets a value carry more fields anyway and an
 * interface never matches an index signature; arrays readonly, which a producer may hand over.
 */
export type Printed<T> = T extends readonly (infer E)[] ? readonly Printed<E>[]
  : T extends object ? {
      [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Printed<T[K]>;
    }
  : T;

/** What a command prints as an envelope's `data` (the type its code returns). */
export type DataOf<C extends EnvelopeContract> = Printed<z.infer<C["data"]>>;

/** The --json envelope of a command: success with its data, or the error form. */
export function envelope<D extends z.ZodType>(
  id: string,
  title: string,
  data: D,
): EnvelopeContract<D> {
  return {
    id,
    data,
    title,
    description: `The --json envelope of ${title}: {"ok":true,"schema":"${id}","data":…} or ` +
      `{"ok":false,"schema":"${id}","error":…}. Within v1 fields are only ever added.`,
    schema: z.union([
      z.strictObject({ ok: z.literal(true), schema: z.literal(id), data }),
      z.strictObject({ ok: z.literal(false), schema: z.literal(id), error: ERROR }),
    ]),
  };
}
