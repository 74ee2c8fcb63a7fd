import { EMPTY_CONFIG } from "./lib/config/load.ts";
import { resolveProfile } from "./lib/profile/resolve.ts";
import { detect } from "./lib/detect/mod.ts";
const p = resolveProfile("claude", EMPTY_CONFIG);
const dir = "tests/fixtures/claude-code/2.1.197/";
const m = JSON.parse(Deno.readTextFileSync(dir + "manifest.json"));
const by: Record<string, string[]> = {};
for (const s of m.screens) {
  const plain = Deno.readTextFileSync(dir + s.file);
  const styled = s.styled ? Deno.readTextFileSync(dir + s.styled) : undefined;
  const v: any = detect({ plain, styled }, p);
  delete v.cli;
  (by[s.scenario] ??= []).push(JSON.stringify(v));
}
for (const [k, vs] of Object.entries(by)) {
  console.log(k, vs.length, new Set(vs).size === 1 ? "SAME" : "DIFF");
  for (const v of new Set(vs)) console.log("   ", v);
}
