/**
 * docs/schemas/*.json are generated from the zod contracts in lib/contracts/ (`deno task
 * schemas`): the committed files must be exactly what the generator writes, and every schema a
 * command prints must have a contract.
 */
import assert from "node:assert/strict";
import { generatedSchemas, SCHEMA_DIR } from "../../tools/gen_schemas.ts";
import { CONTRACTS } from "../../lib/contracts/all.ts";
import { type Entry, ROOT } from "../../lib/cli/commands.ts";
import { USAGE_SCHEMA } from "../../lib/cli/dispatch.ts";

Deno.test("docs/schemas/*.json are what `deno task schemas` writes from lib/contracts", async () => {
  const want = generatedSchemas();
  const committed = new Set<string>();
  for await (const e of Deno.readDir(SCHEMA_DIR)) {
    if (e.name.endsWith(".json")) committed.add(e.name);
  }
  assert.deepEqual([...committed].sort(), [...want.keys()].sort(), "schema files ≠ contracts");
  for (const [name, text] of want) {
    const got = await Deno.readTextFile(new URL(name, SCHEMA_DIR));
    assert.equal(got, text, `docs/schemas/${name} is stale: run \`deno task schemas\``);
  }
});

Deno.test("every schema id the command table names has a contract", () => {
  const ids = new Set(CONTRACTS.map((c) => c.id));
  const walk = (e: Entry): string[] => [
    ...(e.schema ? [e.schema] : []),
    ...(e.commands ?? []).flatMap(walk),
  ];
  for (const id of [...walk(ROOT), USAGE_SCHEMA, "drover.event.v1"]) {
    assert.ok(ids.has(id), `${id} has no contract in lib/contracts/`);
  }
});
