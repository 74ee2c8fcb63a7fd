/**
 * Batched captures stay batched past tmux's command-length limit: a session of well over a hundred
 * panes (drive's one-call-per-tick capture) used to fail with "command too long".
 */
import assert from "node:assert/strict";
import { newPane, startTestServer } from "../helpers/tmux_server.ts";
import { capturePanes, panesPerCall } from "../../lib/tmux/capture.ts";

Deno.test("capturePanes: 130 panes, plain and styled, in chunks under tmux's command limit", async () => {
  await using srv = await startTestServer({ width: 80, height: 24 });
  const n = 130;
  assert.ok(n > 2 * panesPerCall({ styled: true }));

  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = await newPane(srv, `printf 'pane-%s\\n' ${i}; exec cat`);
    ids.push(id.trim());
  }
  await srv.waitFor(ids[n - 1], (s) => s.includes(`pane-${n - 1}`));
  const caps = await capturePanes({ socketName: srv.name }, ids, { styled: true });
  assert.equal(caps.size, n);
  ids.forEach((id, i) => {
    const c = caps.get(id)!;
    assert.match(c.plain, new RegExp(`^pane-${i}$`, "m"), id);
    assert.ok(c.styled !== undefined && c.styled.includes(`pane-${i}`), id);
  });
  // The densest calls: plain screens only (the panes table), and all three jobs (drive's tick).
  for (const opts of [{}, { styled: true, sync: true }]) {
    const more = await capturePanes({ socketName: srv.name }, ids, opts);
    assert.equal(more.size, n, JSON.stringify(opts));
    ids.forEach((id, i) => assert.match(more.get(id)!.plain, new RegExp(`^pane-${i}$`, "m"), id));
  }
});
