/**
 * `drover panes` (the one-shot table, --json, --format tsv) captures plain screens only: the
 * verdicts its rows show — state, mode and the CLI version read off the screen — never depend on
 * the styled capture. Checked on every recorded real screen of every CLI (with its title, as
 * panes passes it): the verdicts with and without the styled form agree.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
/** Fixture folder → the CLI name drover resolves its profile by. */
const CLIS: Record<string, string> = {
  "claude-code": "claude",
  codex: "codex",
  gemini: "gemini",
  qwen: "qwen",
  opencode: "opencode",
};

interface Screen {
  file: string;
  styled?: string;
  title?: string;
}

Deno.test("panes rows (state, mode, screen version) read nothing from the styled capture", () => {
  let compared = 0;
  for (const [folder, cli] of Object.entries(CLIS)) {
    const profile = resolveProfile(cli, EMPTY_CONFIG);
    for (const v of Deno.readDirSync(`${FIXTURES}${folder}`)) {
      if (!v.isDirectory) continue;
      const dir = `${FIXTURES}${folder}/${v.name}/`;
      const screens = JSON.parse(Deno.readTextFileSync(`${dir}manifest.json`)).screens as Screen[];
      for (const s of screens) {
        if (!s.styled) continue;
        const plain = Deno.readTextFileSync(dir + s.file);
        const styled = Deno.readTextFileSync(dir + s.styled);
        const opts = s.title === undefined ? {} : { title: s.title };
        const a = detect({ plain, styled }, profile, opts);
        const b = detect({ plain }, profile, opts);
        const row = (x: typeof a) => ({ state: x.state, mode: x.mode, cli_version: x.cli_version });
        assert.deepEqual(row(b), row(a), `${folder}/${v.name}/${s.file}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 300, `only ${compared} styled screens compared`);
});
