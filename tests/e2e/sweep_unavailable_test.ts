/**
 * sweep.sh agrees with the binary on issue 21's unavailable screens (the field corpus's recorded
 * `unavailable/` folders and `hand-made-unavailable/`): `stuck-eval` reports the CLI unavailable
 * exactly where detect() says so (the auth banner, a status-area limit, the limit menu) and not
 * for a user's status line full of the CLI's words; `classify` words drive's decision (a limit
 * menu alone escalates as "limit menu", never answered).
 *
 * Mutations caught: sweep.sh reading the status area with cli_unavailable_markers again
 * (statusline-words "cli-unavailable"), without unavailable_banner (auth-login-banner
 * "stream-error"), without status_match (statusline-limit "not-stuck"), without limit_menu, or
 * classify wording limit-menu as "not allowlisted".
 */
import assert from "node:assert/strict";
import { droverCommand, REPO_ROOT } from "../helpers/drover.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";

const SWEEP = `${REPO_ROOT}sweep/sweep.sh`;
const FIELD = `${REPO_ROOT}tests/fixtures/field/claude-code`;

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

async function droverExe(dir: string): Promise<string> {
  const [exe, pre] = droverCommand();
  const path = `${dir}/drover`;
  await Deno.writeTextFile(path, `#!/bin/sh\nexec ${[exe, ...pre].map(q).join(" ")} "$@"\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

async function sweep(args: string[], stdin: string, env: Record<string, string>) {
  const child = new Deno.Command("bash", {
    args: [SWEEP, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env,
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

function screens(): { name: string; file: string; state: string }[] {
  const out: { name: string; file: string; state: string }[] = [];
  const dirs = ["2.1.197/unavailable", "2.1.332/unavailable", "hand-made-unavailable"];
  for (const d of dirs) {
    const expected = JSON.parse(Deno.readTextFileSync(`${FIELD}/${d}/expected.json`));
    for (const [name, e] of Object.entries(expected as Record<string, { state: string }>)) {
      out.push({ name: `${d}/${name}`, file: `${FIELD}/${d}/${name}.txt`, state: e.state });
    }
  }
  return out;
}

Deno.test("sweep.sh stuck-eval and classify agree with drover on issue 21's unavailable screens", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const env = { DROVER: await droverExe(tmp), SWEEP_STATE_DIR: tmp };
    const profile = resolveProfile("claude", EMPTY_CONFIG);
    const wrong: string[] = [];
    let n = 0;
    for (const s of screens()) {
      const plain = await Deno.readTextFile(s.file);
      const v = detect({ plain }, profile);
      assert.equal(v.state, s.state, `${s.name}: detect() state`);
      const stuck = await sweep(["--cli", "claude", "stuck-eval", `agent-${n++}`], plain, env);
      assert.equal(stuck.code, 0, stuck.stderr);
      const unavailable = /^stuck: \S+ cli-unavailable /m.test(stuck.stdout);
      if (unavailable !== (v.state === "unavailable")) {
        wrong.push(`${s.name}: stuck-eval "${stuck.stdout.trim()}", detect ${v.state}`);
      }
      const cls = await sweep(["--cli", "claude", "classify"], plain, env);
      assert.equal(cls.code, 0, cls.stderr);
      const want = v.limit_menu !== null && v.cli_unavailable === null && v.limit === null
        ? "escalate (limit menu)"
        : v.state === "unavailable"
        ? "escalate (cli unavailable)"
        : "no-op (not live)";
      if (cls.stdout.trim() !== want) {
        wrong.push(`${s.name}: classify "${cls.stdout.trim()}", want "${want}"`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(n >= 10, `only ${n} screens`);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
