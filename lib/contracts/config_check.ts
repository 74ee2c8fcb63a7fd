import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";

export const CONFIG_CHECK = envelope(
  "drover.config-check.v1",
  "drover config check",
  z.looseObject({
    valid: z.boolean(),
    path: z.string().nullable(),
    source: z.enum(["flag", "env", "project", "user", "none"]),
    default_cli: z.string().nullable(),
    clis: z.array(z.unknown()),
    drive: z.record(z.string(), z.unknown()),
    unknown: z.array(z.unknown()),
    allow_notes: z.array(z.object({
      entry: z.string(),
      line: z.number().nullable(),
      note: z.string(),
    })).describe(
      "[drive].allow entries that name only an interpreter, a package runner or a wrapper, or " +
        "are opaque commands themselves: what each approves and what it never approves",
    ),
  }),
);

export type ConfigCheckData = DataOf<typeof CONFIG_CHECK>;
