import { z } from "../deps/zod.ts";
import { type DataOf, envelope } from "./envelope.ts";

export const CLIS = envelope(
  "drover.clis.v1",
  "drover clis list",
  z.strictObject({
    count: z.number().int(),
    config: z.string().nullable(),
    clis: z.array(z.strictObject({
      name: z.string(),
      command: z.string(),
      args: z.array(z.string()),
      prompt: z.string().regex(/^(positional|none|flag:-.+)$/),
      env: z.array(z.string()),
      enabled: z.boolean(),
      source: z.enum(["builtin", "config", "builtin+config"]),
      checked: z.string().nullable(),
      availability: z.strictObject({
        status: z.enum(["available", "unavailable", "unknown"]),
        path: z.string().nullable(),
        checked_at: z.string().nullable(),
      }),
    })),
  }),
);

export type ClisData = DataOf<typeof CLIS>;
