/**
 * `drover capture TARGET --save DIR --as STATE` collects a screen for `drover profile test`: the
 * plain and styled captures land as <state>-<n>.txt / .ansi.txt, and the folder then tests clean.
 */
import assert from "node:assert/strict";
import { drover } from "../helpers/drover.ts";
import { startTestServer } from "../helpers/tmux_server.ts";

Deno.test("capture --save --as writes numbered screens that profile test reads", async () => {
  await using srv = await startTestServer({ width: 80, height: 24 });
  await srv.tmux(
    "new-session",
    "-d",
    "-s",
    "work",
    "-x",
    "80",
    "-y",
    "24",
    "printf 'Reading notes\\n\\033[2m✻ Thinking… (esc to interrupt)\\033[0m\\n'; sleep 30",
  );
  await srv.waitFor("work:0.0", (s) => s.includes("esc to interrupt"));
  const dir = await Deno.makeTempDir({ prefix: "drover-capture-save-" });
  try {
    for (let i = 1; i <= 2; i++) {
      const r = await drover([
        "-L",
        srv.name,
        "--json",
        "capture",
        "work:0.0",
        "--save",
        `${dir}/screens`,
        "--as",
        "busy",
      ], { env: { TMUX: "" } });
      assert.equal(r.code, 0, r.stderr);
      const data = JSON.parse(r.stdout).data;
      assert.equal(data.saved.state, "busy");
      assert.equal(data.saved.plain, `${dir}/screens/busy-${i}.txt`);
    }
    const plain = await Deno.readTextFile(`${dir}/screens/busy-1.txt`);
    assert.match(plain, /esc to interrupt/);
    const styled = await Deno.readTextFile(`${dir}/screens/busy-1.ansi.txt`);
    assert.ok(styled.includes("\x1b["), "the styled capture keeps its escape sequences");

    const bad = await drover([
      "-L",
      srv.name,
      "capture",
      "work:0.0",
      "--save",
      dir,
      "--as",
      "busyy",
    ], {
      env: { TMUX: "" },
    });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--as must be one of prompt, dialog, busy, idle/);

    const t = await drover(["profile", "test", "--cli", "claude", `${dir}/screens`]);
    assert.equal(t.code, 0, t.stdout + t.stderr);
    assert.match(t.stdout, /all 2 screen\(s\) match/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
