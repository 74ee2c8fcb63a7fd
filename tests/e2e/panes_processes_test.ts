/**
 * `drover panes` spawns a bounded number of processes whatever the number of panes: one tmux call
 * lists them, one per panesPerCall({}) panes captures them, and nothing else runs — no `ps`, no
 * per-pane tmux or helper process (identification reads /proc). Every process is counted with
 * `strace -f -e trace=execve`, not only tmux (the shim in panes_test.ts counts tmux alone).
 */
import assert from "node:assert/strict";
import { droverCommand } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer } from "../helpers/tmux_server.ts";
import { testWithTools } from "../helpers/tools.ts";
import { panesPerCall } from "../../lib/tmux/capture.ts";

const SCREEN = "claude-code/2.1.197/bash-prompt@80x24";

testWithTools(
  "panes --json over more panes than one capture call holds: at most 3 processes, all tmux",
  ["strace"],
  async ({ strace }) => {
    await using srv = await startTestServer({ width: 80, height: 24 });
    // The one-shot table captures plain screens only.
    const n = panesPerCall({}) + 2;
    const panes: ReplayPane[] = [];
    const dir = await Deno.makeTempDir({ prefix: "drover-panes-procs-" });
    try {
      const screen = await loadScreen(SCREEN);
      for (let i = 0; i < n; i++) {
        panes.push(await startReplay(srv, screen, { session: "many", newWindow: i > 0 }));
      }
      const [exe, pre] = droverCommand();
      const log = `${dir}/strace.log`;
      const out = await new Deno.Command(strace, {
        args: [
          "-f",
          "-qq",
          "-e",
          "trace=execve",
          "-o",
          log,
          exe,
          ...pre,
          "-L",
          srv.name,
          "--json",
          "panes",
          "--session",
          "many",
        ],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const rows = JSON.parse(stdout).data.panes as { state: string }[];
      assert.equal(rows.length, n);
      assert.ok(rows.every((r) => r.state === "prompt"), stdout);
      // Successful execve calls; the first is drover itself (deno, or the compiled binary).
      const spawned = (await Deno.readTextFile(log)).split("\n")
        .filter((l) => /execve\(/.test(l) && / = 0$/.test(l)).slice(1);
      const tmux = spawned.filter((l) => /execve\("[^"]*\/tmux"/.test(l));
      assert.deepEqual(
        spawned.filter((l) => !tmux.includes(l)),
        [],
        "panes started something other than tmux",
      );
      assert.ok(
        spawned.length <= 3,
        `${spawned.length} processes for ${n} panes (want: one list, two captures):\n` +
          spawned.join("\n"),
      );
    } finally {
      for (const p of panes) await cleanupReplay(p);
      await Deno.remove(dir, { recursive: true });
    }
  },
);
