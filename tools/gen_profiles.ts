/**
 * `deno task profiles`: validate profiles/*.toml in full and write profiles/compiled.json, the
 * form every drover start reads (lib/profile/shipped.ts). Run it after editing a profile;
 * tests/unit/profiles_compiled_test.ts fails while the committed file is stale.
 */
import { frozenEmbeddedProfiles } from "../lib/profile/embedded.ts";

export const COMPILED_PATH = new URL("../profiles/compiled.json", import.meta.url);

/** The file's text: one profile per top-level entry, formatted the way `deno fmt` keeps it. */
export function compiledText(): string {
  return JSON.stringify(frozenEmbeddedProfiles(), null, 2) + "\n";
}

if (import.meta.main) {
  await Deno.writeTextFile(COMPILED_PATH, compiledText());
  console.log(`wrote ${COMPILED_PATH.pathname}`);
}
