/**
 * Test seams are injected by tests (a parameter, an option, a port), never read from the
 * environment by product code (issue 14: `lib/approve` used to run `$DROVER_TEST_HOOK_…` on every
 * real approve, and `drive` inherited it). The behaviour is proven on real tmux in
 * tests/e2e/approve_test.ts ("the old hook variable does nothing"); this pins the source: no
 * test-named variable anywhere in the product, and every DROVER_* name it holds is one the README
 * documents or one drive's hook exports to the hook command (set, never read).
 *
 * Mutation caught (verified): `lib/approve/approve.ts` reading
 * `Deno.env.get("DROVER_TEST_HOOK_BEFORE_RECONFIRM")` again.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The product: the binary's sources and the shell helper it ships. */
async function productFiles(): Promise<string[]> {
  const out = [`${ROOT}main.ts`, `${ROOT}sweep/sweep.sh`];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (e.name.endsWith(".ts")) out.push(p);
    }
  };
  await walk(`${ROOT}lib`);
  return out;
}

/** DROVER_* names the product may hold: documented settings, and the hook's exported variables. */
const ALLOWED = new Set([
  "DROVER_CONFIG", // README: configuration discovery
  "DROVER_DEBUG", // stack traces of internal errors (a user's bug report), no behaviour change
  "DROVER_SESSION", // sweep.sh: the session (README, sweep.sh header)
  // sweep.sh's own shell variables, assigned before use (never taken from the environment).
  "DROVER_BIN",
  "DROVER_ARGS",
  // drive's hook environment (docs/cron.md): exported to the hook, never read back.
  "DROVER_EVENT",
  "DROVER_PANE",
  "DROVER_TARGET",
  "DROVER_CLI",
  "DROVER_REASON",
  "DROVER_VERDICT",
  "DROVER_COMMAND",
  "DROVER_MESSAGE",
]);

Deno.test("product code reads no test seam from its environment", async () => {
  const files = await productFiles();
  assert.ok(files.length > 50, `only ${files.length} product files found`);
  const found: string[] = [];
  for (const f of files) {
    const text = await Deno.readTextFile(f);
    const rel = f.slice(ROOT.length);
    for (
      const m of text.matchAll(
        /\b(?:DROVER|SWEEP)_[A-Z0-9_]*TEST[A-Z0-9_]*|\b[A-Z0-9_]*TEST_(?:HOOK|SEAM)\w*/g,
      )
    ) {
      found.push(`${rel}: ${m[0]}`);
    }
    for (const m of text.matchAll(/\bDROVER_[A-Z0-9_]+/g)) {
      if (!ALLOWED.has(m[0])) found.push(`${rel}: ${m[0]}`);
    }
  }
  assert.deepEqual(found, [], "a test-named or undocumented DROVER_* variable in product code");
});
