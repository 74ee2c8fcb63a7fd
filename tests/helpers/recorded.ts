/**
 * Every recorded real screen of every CLI and every version (tests/fixtures/<cli>/<version>/
 * manifest.json), for the tests that must hold on all of them at once.
 */
const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

/** Recorded fixture folders → the drover CLI name whose profile judges them. */
export const RECORDED_CLIS: Readonly<Record<string, string>> = {
  "claude-code": "claude",
  codex: "codex",
  gemini: "gemini",
  qwen: "qwen",
  opencode: "opencode",
  copilot: "copilot",
  cline: "cline",
};

export interface RecordedScreen {
  /** Path relative to tests/fixtures without .txt (what loadScreen takes). */
  rel: string;
  dir: string;
  version: string;
  cli: string;
  scenario: string;
  size: string;
  state: string;
  plain: string;
  styled: string;
}

export async function recordedScreens(): Promise<RecordedScreen[]> {
  const out: RecordedScreen[] = [];
  for (const [dir, cli] of Object.entries(RECORDED_CLIS)) {
    for await (const v of Deno.readDir(`${FIXTURES}${dir}`)) {
      if (!v.isDirectory) continue;
      const base = `${FIXTURES}${dir}/${v.name}`;
      const m = JSON.parse(await Deno.readTextFile(`${base}/manifest.json`));
      for (const s of m.screens) {
        out.push({
          rel: `${dir}/${v.name}/${String(s.file).replace(/\.txt$/, "")}`,
          dir,
          version: v.name,
          cli,
          scenario: s.scenario,
          size: s.size,
          state: s.state,
          plain: await Deno.readTextFile(`${base}/${s.file}`),
          styled: await Deno.readTextFile(`${base}/${s.styled}`),
        });
      }
    }
  }
  return out;
}
