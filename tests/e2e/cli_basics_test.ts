import assert from "node:assert/strict";
import { drover } from "../helpers/drover.ts";
import { VERSION } from "../../lib/version.ts";

Deno.test("drover --version prints the version", async () => {
  const r = await drover(["--version"]);
  assert.equal(r.code, 0);
  assert.equal(r.stdout.trim(), VERSION);
});

Deno.test("drover --help lists the global options", async () => {
  const r = await drover(["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /--socket-name/);
  assert.match(r.stdout, /--json/);
});
