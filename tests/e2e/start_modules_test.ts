/**
 * No Node-compat module on the start paths (issue 13): `--version`, `detect FILE`,
 * `__prompt-profile --format tsv`, `panes --json` and `drive --once` run as real processes with
 * V8's script log on, and none may load a `node:` module or a script of Deno's Node-compat layer
 * (`ext:deno_node/…`, which a `node:` import or a CommonJS npm package pulls in) beyond what an
 * empty `deno run` loads. No configuration file is in reach, so no npm package (zod, smol-toml,
 * the regex parser) may load either — nor on the next `drive --once`, which reads the state file
 * the first one wrote. With a configuration file, the first start validates it (zod, smol-toml and
 * the regex parser load) and caches the result; every later start with the file unchanged (the
 * warm configured start, issue 24) loads no npm package at all.
 */
import assert from "node:assert/strict";
import {
  droverScripts,
  emptyRunScripts,
  type LoadedScripts,
  nodeScripts,
  npmPackages,
} from "../helpers/modules.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer } from "../helpers/tmux_server.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
const SCREENS = ["ready@80x24", "bash-prompt@80x24", "busy@80x24"].map((s) =>
  `claude-code/2.1.197/${s}`
);

function check(name: string, r: LoadedScripts, baseline: Set<string>, wantCode = 0): void {
  assert.equal(r.code, wantCode, `${name}: exit ${r.code}\n${r.stdout}\n${r.stderr}`);
  assert.ok(r.scripts.size > 0, `${name}: V8 wrote no script log (DENO_V8_FLAGS ignored?)`);
  assert.deepEqual(nodeScripts(r.scripts, baseline), [], `${name} loads Node-compat modules`);
  // With no configuration file nothing from npm is needed: zod, smol-toml and the regex parser
  // load only to validate a file (the shipped profiles are read precompiled).
  assert.deepEqual(npmPackages(r.scripts), [], `${name} loads npm packages without a config`);
}

Deno.test("start paths load no node: module and no Node-compat layer", async () => {
  const baseline = await emptyRunScripts();
  // The yardstick must itself be sane: Deno's start-up loads one Node-compat script of its own.
  assert.ok(baseline.size > 10, `empty run logged ${baseline.size} scripts`);

  // Nothing to discover: no .drover/config.toml above cwd, an empty XDG config home.
  const home = await Deno.makeTempDir({ prefix: "drover-start-home-" });
  const state = await Deno.makeTempDir({ prefix: "drover-start-state-" });
  const env = { HOME: home, XDG_CONFIG_HOME: `${home}/.config`, XDG_RUNTIME_DIR: home };
  const opts = { env, cwd: home };
  await using srv = await startTestServer({ width: 80, height: 24 });
  const panes: ReplayPane[] = [];
  try {
    for (const [i, s] of SCREENS.entries()) {
      panes.push(
        await startReplay(srv, await loadScreen(s), { session: "s", newWindow: i > 0 }),
      );
    }
    const version = await droverScripts(["--version"], opts);
    if (version.scripts.size === 0 && Deno.env.get("DROVER_BIN")) {
      // A compiled binary that ignores DENO_V8_FLAGS cannot be observed this way.
      console.log("  skipped: the binary in DROVER_BIN wrote no V8 script log (DENO_V8_FLAGS)");
      return;
    }
    check("--version", version, baseline);
    const file = `${FIXTURES}${SCREENS[1]}.txt`;
    check("detect FILE", await droverScripts(["detect", file], opts), baseline);
    check(
      "__prompt-profile --format tsv",
      await droverScripts(["__prompt-profile", "--format", "tsv"], opts),
      baseline,
    );
    const p = await droverScripts(["-L", srv.name, "panes", "--json"], opts);
    check("panes --json", p, baseline);
    assert.equal(JSON.parse(p.stdout).data.panes.length, SCREENS.length + 1);
    check(
      "drive --once",
      await droverScripts(
        ["-L", srv.name, "drive", "--session", "s", "--once", "--state", state],
        opts,
      ),
      baseline,
    );
    // The next cron tick finds the state file the first one wrote: taken as written, without zod
    // (only a file drover did not write exactly so is held to the zod schema; issue 27).
    assert.ok(
      (await Array.fromAsync(Deno.readDir(state))).some((e) => e.name.endsWith(".state.json")),
    );
    check(
      "drive --once with its state file",
      await droverScripts(
        ["-L", srv.name, "drive", "--session", "s", "--once", "--state", state],
        opts,
      ),
      baseline,
    );
    // A configuration file is validated with zod (and still without the Node-compat layer).
    await Deno.writeTextFile(`${home}/drover.toml`, `[clis.claude]\nenabled = true\n`);
    const withConfig = await droverScripts(
      ["--config", `${home}/drover.toml`, "detect", file],
      opts,
    );
    assert.equal(withConfig.code, 0, withConfig.stderr);
    assert.deepEqual(nodeScripts(withConfig.scripts, baseline), []);
    assert.ok(npmPackages(withConfig.scripts).some((p) => p.startsWith("zod@")));

    // The configured start of issue 24: a [drive] table and one prompt_profile override, found
    // where a user keeps it, the cache in the user's cache dir.
    const cfgHome = `${home}/configured`;
    await Deno.mkdir(`${cfgHome}/.config/drover`, { recursive: true });
    await Deno.writeTextFile(
      `${cfgHome}/.config/drover/config.toml`,
      [
        "[drive]",
        'allow = ["npm test", "npm run build", "git status", "git diff"]',
        'nudge = "Run your sweep now."',
        'nudge_every = "10m"',
        "",
        "[clis.claude.prompt_profile]",
        'approval_markers = ["Do you want to proceed?"]',
        'context_bloat_pattern = "(?i)(\\\\d+)k tokens"',
        "",
      ].join("\n"),
    );
    const cfgOpts = {
      env: { HOME: cfgHome, XDG_CONFIG_HOME: `${cfgHome}/.config`, XDG_RUNTIME_DIR: cfgHome },
      cwd: cfgHome,
    };
    const cold = await droverScripts(["detect", file], cfgOpts);
    assert.equal(cold.code, 0, cold.stderr);
    assert.deepEqual(nodeScripts(cold.scripts, baseline), [], "cold configured detect");
    const coldNpm = npmPackages(cold.scripts).map((p) => p.replace(/@[^@]*$/, ""));
    for (const pkg of ["smol-toml", "zod", "@eslint-community/regexpp"]) {
      assert.ok(coldNpm.includes(pkg), `the cold configured start validates with ${pkg}`);
    }
    const cached = await Array.fromAsync(Deno.readDir(`${cfgHome}/.cache/drover`));
    assert.ok(
      cached.some((e) => /^config-[0-9a-f]+\.cache$/.test(e.name)),
      "the cold start cached",
    );
    // Warm: not smol-toml, zod nor the regex parser — no npm package at all, no Node-compat layer.
    const warmRuns: [string, string[]][] = [
      ["--version", ["--version"]],
      ["detect FILE", ["detect", file]],
      ["__prompt-profile --format tsv", ["__prompt-profile", "--format", "tsv"]],
      ["drive --once", ["-L", srv.name, "drive", "--session", "s", "--once", "--state", state]],
    ];
    for (const [name, args] of warmRuns) {
      const r = await droverScripts(args, cfgOpts);
      check(`${name}, configured (warm cache)`, r, baseline);
    }
    const warm = await droverScripts(["detect", file], cfgOpts);
    assert.equal(warm.stdout, cold.stdout, "the warm start prints what the cold one did");
  } finally {
    for (const p of panes) await cleanupReplay(p);
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.remove(state, { recursive: true }).catch(() => {});
  }
});
