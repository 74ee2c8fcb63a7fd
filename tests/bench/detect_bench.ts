/**
 * detect() throughput on the real 120x40 Claude Code captures (plain + styled), one bench per
 * screen plus one over all of them. `deno task bench`.
 */
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const ROOT = new URL("../fixtures/claude-code/", import.meta.url).pathname;
const profile = resolveProfile("claude", EMPTY_CONFIG);

const screens: Array<{ name: string; plain: string; styled?: string }> = [];
for (const e of Deno.readDirSync(ROOT)) {
  if (!e.isDirectory) continue;
  const dir = `${ROOT}${e.name}/`;
  const m = JSON.parse(Deno.readTextFileSync(dir + "manifest.json"));
  for (const s of m.screens) {
    if (s.size !== "120x40") continue;
    screens.push({
      name: `${e.name}/${s.scenario}`,
      plain: Deno.readTextFileSync(dir + s.file),
      styled: s.styled ? Deno.readTextFileSync(dir + s.styled) : undefined,
    });
  }
}
screens.sort((a, b) => a.name.localeCompare(b.name));

Deno.bench({
  name: `detect() over all ${screens.length} real 120x40 screens`,
  group: "all",
  baseline: true,
  fn() {
    for (const s of screens) detect({ plain: s.plain, styled: s.styled }, profile);
  },
});

Deno.bench({
  name: `detect() plain only over all ${screens.length} screens`,
  group: "all",
  fn() {
    for (const s of screens) detect({ plain: s.plain }, profile);
  },
});

for (const s of screens) {
  Deno.bench({
    name: s.name,
    group: "per-screen",
    fn() {
      detect({ plain: s.plain, styled: s.styled }, profile);
    },
  });
}
