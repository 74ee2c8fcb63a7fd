import { z } from "../deps/zod.ts";
import { type Contract, ERROR } from "./envelope.ts";

/** A usage error found before any command was named (lib/cli/dispatch.ts USAGE_SCHEMA). */
export const USAGE: Contract = {
  id: "drover.usage.v1",
  title: "drover usage error",
  description:
    "The --json envelope of a usage error found before any command was named (an unknown command " +
    'or global option): always {"ok":false,"schema":"drover.usage.v1","error":{"code":' +
    '"INVALID_ARGUMENT",…}}, exit 2. Within v1 fields are only ever added.',
  schema: z.strictObject({
    ok: z.literal(false),
    schema: z.literal("drover.usage.v1"),
    error: ERROR,
  }),
};
