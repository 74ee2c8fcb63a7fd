/**
 * Sessions that exist only from some CLI version on (`Session.since`): the version order, and
 * verify reporting such a session's scenarios as skipped — with its reason, starting no CLI and
 * no tmux server — for an older version (Qwen Code 0.15.10 takes no retry count, so its
 * out-of-credit screen never shows within verify's time).
 */
import assert from "node:assert/strict";
import { compareVersions, reached } from "../../lib/scenarios/versions.ts";
import { QWEN } from "../../lib/scenarios/tables/qwen.ts";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { runTable } from "../../lib/verify/run.ts";

Deno.test("version order is numeric, and an unknown version counts as reached", () => {
  assert.ok(compareVersions("0.15.10", "0.24.4") < 0);
  assert.ok(compareVersions("2.1.332", "2.1.197") > 0);
  assert.ok(compareVersions("2.10.0", "2.9.9") > 0);
  assert.equal(compareVersions("0.24.4", "0.24.4"), 0);
  assert.equal(reached("0.15.10", "0.24.4"), false);
  assert.equal(reached("0.24.4", "0.24.4"), true);
  assert.equal(reached("0.25.0", "0.24.4"), true);
  assert.equal(reached(null, "0.24.4"), true);
});

Deno.test("verify: a session the installed version predates is skipped with its reason, nothing started", async () => {
  const quota = QWEN.sessions.find((s) => s.since);
  assert.ok(quota?.since, "the Qwen table has a session with `since`");
  const tmpRoot = await Deno.makeTempDir({ prefix: "drover-since-" });
  try {
    const results = await runTable({
      table: { ...QWEN, sessions: [quota] },
      // Never started: a path that cannot run proves it.
      exec: `${tmpRoot}/no-such-qwen`,
      profile: resolveProfile("qwen", EMPTY_CONFIG),
      config: EMPTY_CONFIG,
      path: "/usr/bin:/bin",
      version: "0.15.10",
    }, { keepGoing: true, signal: new AbortController().signal, tmpRoot });
    assert.deepEqual(
      results.map((r) => [r.scenario, r.status]),
      quota.scenarios.map((s) => [s.name, "skipped"]),
    );
    for (const r of results) {
      assert.ok(r.reason?.startsWith(quota.since.why), r.reason ?? "");
      assert.match(r.reason ?? "", /needs qwen 0\.24\.4 or later/);
    }
    assert.deepEqual(await Array.fromAsync(Deno.readDir(tmpRoot)), [], "a session root was made");
  } finally {
    await Deno.remove(tmpRoot, { recursive: true });
  }
});
