/**
 * `drover panes` (the one-shot table, --json, --format tsv) captures plain screens only: the
 * verdicts its rows show — state, mode and the CLI version read off the screen — never depend on
 * the styled capture. Checked on every recorded real screen of every CLI (with its title, as
 * panes passes it): the verdicts with and without the styled form agree.
 *
 * And it runs `summarize()`, not `detect()`: the row's verdicts (those three and the pending
 * background work) without the rest. Checked on every screen under tests/fixtures (recorded,
 * held-out, hand-made, look-alikes, the field corpus), plain and styled,
 * with its manifest title: the two agree.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect, summarize } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { RECORDED_CLIS as CLIS } from "../helpers/recorded.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
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

/** Every screen file under `dir` (its plain form), with its styled twin and manifest title. */
function* screensUnder(dir: string): Generator<{ file: string; styled?: string; title?: string }> {
  const titles = new Map<string, string>();
  try {
    const m = JSON.parse(Deno.readTextFileSync(`${dir}/manifest.json`)) as { screens: Screen[] };
    for (const s of m.screens) if (s.title !== undefined) titles.set(s.file, s.title);
  } catch {
    // no manifest here: no titles
  }
  const entries = [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* screensUnder(path);
    else if (e.name.endsWith(".txt") && !e.name.endsWith(".ansi.txt")) {
      const twin = path.replace(/\.txt$/, ".ansi.txt");
      let styled: string | undefined;
      try {
        styled = Deno.readTextFileSync(twin);
      } catch {
        // plain only
      }
      const title = titles.get(e.name);
      yield {
        file: path,
        ...(styled === undefined ? {} : { styled }),
        ...(title === undefined ? {} : { title }),
      };
    }
  }
}

Deno.test("summarize() gives detect()'s state, mode, cli_version and background on every screen we hold", () => {
  let compared = 0;
  const states = new Set<string>();
  for (const [folder, cli] of Object.entries(CLIS)) {
    const profile = resolveProfile(cli, EMPTY_CONFIG);
    const roots = [
      `${FIXTURES}${folder}`,
      `${FIXTURES}unseen/${folder}`,
      `${FIXTURES}hand-made/${folder}`,
      `${FIXTURES}hand-made/lookalike/${folder}`,
      `${FIXTURES}field/${folder}`,
    ];
    for (const root of roots) {
      try {
        Deno.statSync(root);
      } catch {
        continue;
      }
      for (const s of screensUnder(root)) {
        const plain = Deno.readTextFileSync(s.file);
        const opts = s.title === undefined ? {} : { title: s.title };
        const caps = s.styled === undefined
          ? [{ plain }]
          : [{ plain }, { plain, styled: s.styled }];
        for (const cap of caps) {
          const full = detect(cap, profile, opts);
          const want = {
            state: full.state,
            mode: full.mode,
            cli_version: full.cli_version,
            background: full.background,
          };
          assert.deepEqual(summarize(cap, profile, opts), want, s.file);
          states.add(full.state);
          compared++;
        }
      }
    }
  }
  assert.ok(compared > 1000, `only ${compared} screens compared`);
  for (const st of ["unavailable", "prompt", "dialog", "busy", "shell", "idle"]) {
    assert.ok(states.has(st), `no screen in state ${st}`);
  }
});
