/**
 * The held-out screens (tests/fixtures/unseen/<cli>/<version>/, recorded by
 * tests/lab/unseen/record.ts): real Claude Code and Qwen Code screens in pane sizes, commands,
 * file names, prompts and setups the fixtures do not use. Their state and expectations were written
 * from what each screen shows, not from detect(). Issue 10's bar: ≥ 98 % of verdicts right, and
 * no screen that is not a permission prompt taken as one.
 *
 * A verdict is the manifest's `state` or one `expect` field of a screen ("*" = any value but
 * null/false/""). The score is printed so a run shows where it stands.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const ROOT = new URL("../fixtures/unseen/", import.meta.url).pathname;
/** The fixture folder's CLI → the drover profile that judges it. */
const PROFILE: Record<string, string> = { "claude-code": "claude", qwen: "qwen", cline: "cline" };

interface Entry {
  file: string;
  styled: string;
  state: string;
  size: string;
  expect?: Record<string, unknown>;
  title?: string;
}

interface Judged {
  where: string;
  verdicts: number;
  wrong: string[];
  falsePrompt: boolean;
}

async function judgeAll(): Promise<{ judged: Judged[]; folders: string[] }> {
  const judged: Judged[] = [];
  const folders: string[] = [];
  for await (const cli of Deno.readDir(ROOT)) {
    if (!cli.isDirectory) continue;
    const profile = resolveProfile(PROFILE[cli.name] ?? cli.name, EMPTY_CONFIG);
    for await (const ver of Deno.readDir(`${ROOT}${cli.name}`)) {
      if (!ver.isDirectory) continue;
      const dir = `${ROOT}${cli.name}/${ver.name}`;
      folders.push(`${cli.name}/${ver.name}`);
      const m = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`));
      assert.equal(m.version, ver.name, `${dir}: manifest version`);
      const listed = new Set<string>();
      for (const s of m.screens as Entry[]) {
        listed.add(s.file).add(s.styled);
        const plain = await Deno.readTextFile(`${dir}/${s.file}`);
        const styled = await Deno.readTextFile(`${dir}/${s.styled}`);
        const v = detect(
          { plain, styled },
          profile,
          s.title === undefined ? undefined : { title: s.title },
        ) as unknown as Record<string, unknown>;
        const wrong: string[] = [];
        if (v.state !== s.state) wrong.push(`state: want ${s.state}, got ${v.state}`);
        for (const [k, want] of Object.entries(s.expect ?? {})) {
          const got = v[k];
          const ok = want === "*"
            ? ![null, undefined, false, ""].includes(got as never)
            : JSON.stringify(got) === JSON.stringify(want);
          if (!ok) wrong.push(`${k}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
        }
        judged.push({
          where: `${cli.name}/${ver.name}/${s.file}`,
          verdicts: 1 + Object.keys(s.expect ?? {}).length,
          wrong,
          falsePrompt: s.state !== "prompt" &&
            (v.permission_prompt === true || v.state === "prompt"),
        });
      }
      for await (const f of Deno.readDir(dir)) {
        if (f.name.endsWith(".txt")) {
          assert.ok(listed.has(f.name), `${dir}/${f.name}: recorded but not in manifest.json`);
        }
      }
    }
  }
  return { judged, folders: folders.sort() };
}

Deno.test("unseen real screens: ≥ 98 % of verdicts right, no non-prompt taken as a permission prompt", async () => {
  const { judged, folders } = await judgeAll();
  // Every pinned version of each CLI held out, so the set cannot shrink to nothing unnoticed.
  assert.deepEqual(folders, [
    "claude-code/2.1.197",
    "claude-code/2.1.332",
    "cline/3.0.65",
    "qwen/0.15.10",
    "qwen/0.24.4",
  ]);
  assert.ok(judged.length >= 80, `only ${judged.length} unseen screens`);
  const total = judged.reduce((n, j) => n + j.verdicts, 0);
  const wrong = judged.reduce((n, j) => n + j.wrong.length, 0);
  const pct = 100 * (total - wrong) / total;
  const misses = judged.filter((j) => j.wrong.length).map((j) =>
    `${j.where}: ${j.wrong.join("; ")}`
  );
  console.log(
    `unseen: ${judged.length} screens, ${total} verdicts, ${pct.toFixed(1)} % right, ` +
      `${judged.filter((j) => j.falsePrompt).length} false prompts`,
  );
  for (const m of misses) console.log(`  miss ${m}`);
  assert.deepEqual(judged.filter((j) => j.falsePrompt).map((j) => j.where), []);
  assert.ok(pct >= 98, `${pct.toFixed(1)} % of verdicts right:\n${misses.join("\n")}`);
});
