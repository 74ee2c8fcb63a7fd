/**
 * `deno task schemas`: write docs/schemas/<id>.json (JSON Schema draft-07, ajv's default dialect)
 * from the zod output contracts in lib/contracts/. tests/unit/schemas_generated_test.ts fails
 * while a committed file differs from what this writes.
 */
import { z } from "../lib/deps/zod.ts";
import { type Contract, CONTRACTS } from "../lib/contracts/all.ts";

export const SCHEMA_DIR = new URL("../docs/schemas/", import.meta.url);

const SAFE = Number.MAX_SAFE_INTEGER;

/** zod spells out JavaScript's safe-integer range on every integer: noise in a contract. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === "maximum" && v === SAFE) || (k === "minimum" && v === -SAFE)) continue;
    out[k] = tidy(v);
  }
  return out;
}

/** One contract's schema document. An envelope's two forms exclude each other: `oneOf`. */
export function schemaDocument(c: Contract): Record<string, unknown> {
  const { $schema, anyOf, ...rest } = tidy(
    z.toJSONSchema(c.schema, { target: "draft-7" }),
  ) as Record<string, unknown>;
  return {
    $schema,
    $id: `https://drover.invalid/schemas/${c.id}.json`,
    title: c.title,
    description: c.description,
    ...(anyOf === undefined ? rest : { oneOf: anyOf, ...rest }),
  };
}

/** Every generated file: name → text. */
export function generatedSchemas(): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of CONTRACTS) {
    out.set(`${c.id}.json`, JSON.stringify(schemaDocument(c), null, 2) + "\n");
  }
  return out;
}

if (import.meta.main) {
  for (const [name, text] of generatedSchemas()) {
    await Deno.writeTextFile(new URL(name, SCHEMA_DIR), text);
  }
  console.log(`wrote ${CONTRACTS.length} schemas to ${SCHEMA_DIR.pathname}`);
}
