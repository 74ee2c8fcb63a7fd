// The lab harness on a private tmux server with a plain shell program standing in for an agent CLI:
// exact pane size, controlled environment, waits that fail with the last screen, relaunch-once.
import assert from "node:assert/strict";
import { LabServer, LabTimeout } from "../lab/harness/tmux.ts";

Deno.test("lab harness: pane size, env, type/keys, capture, timeout with last screen", async () => {
  await using lab = await LabServer.start({ tag: "selftest" });
  assert.match(lab.name, /^drover-lab-selftest-/);
  const home = await lab.tmpDir("home");
  const pane = await lab.launch({
    argv: [
      "sh",
      "-c",
      'printf "size=%sx%s home=%s lab=%s secret=%s\\n" "$(tput cols)" "$(tput lines)" "$HOME" "$LAB_VAR" "${DROVER_SECRET:-unset}"; ' +
      'printf "\\033[1mbold\\033[0m\\n"; read line; echo "got:$line"; sleep 30',
    ],
    cols: 90,
    rows: 20,
    home,
    env: { LAB_VAR: "yes" },
    ready: { until: "bold" },
  });
  const first = await pane.capture();
  assert.match(first.plain, new RegExp(`size=90x20 home=${home} lab=yes secret=unset`));
  assert.ok(first.styled.includes("\x1b["), "the styled capture keeps SGR sequences");
  assert.ok(!first.plain.includes("\x1b["));
  await pane.type("hello 'world' $HOME");
  await pane.keys("Enter");
  const s = await pane.waitFor("got:hello 'world' $HOME", { timeoutMs: 5000, stableMs: 200 });
  assert.ok(s.plain.includes("got:"));
  await assert.rejects(
    () => pane.waitFor("never shown", { timeoutMs: 600, intervalMs: 100 }),
    (e: unknown) => {
      assert.ok(e instanceof LabTimeout);
      assert.match(e.message, /timed out after 600 ms waiting for "never shown"/);
      assert.match(e.message, /│got:hello/);
      return true;
    },
  );
  await pane.kill();
});

Deno.test("lab harness: a program that fails to start is relaunched exactly once", async () => {
  await using lab = await LabServer.start({ tag: "selftest" });
  const home = await lab.tmpDir("home");
  let prepared = 0;
  const pane = await lab.launch({
    argv: [
      "sh",
      "-c",
      'if [ -e "$HOME/started-once" ]; then echo READY; sleep 30; else touch "$HOME/started-once"; exit 3; fi',
    ],
    cols: 80,
    rows: 24,
    home,
    prepare: () => {
      prepared++;
      return Promise.resolve();
    },
    ready: { until: "READY", timeoutMs: 5000 },
  });
  assert.equal(prepared, 2);
  assert.equal(await pane.isDead(), false);
  await assert.rejects(
    () =>
      lab.launch({
        argv: ["sh", "-c", "echo broken; exit 4"],
        cols: 80,
        rows: 24,
        ready: { until: "READY", timeoutMs: 3000 },
      }),
    // tmux 3.3a does not always record a dead pane's status before the harness gives up asking.
    /the process exited \(status (4|unknown)\)/,
  );
});

Deno.test("lab harness: bracketed paste reaches a program that asked for it", async () => {
  await using lab = await LabServer.start({ tag: "selftest" });
  const pane = await lab.launch({
    argv: [
      "sh",
      "-c",
      // Raw mode first, then ask for bracketed paste and say READY: the paste must not arrive
      // while the tty still translates CR to NL.
      'stty raw -echo; printf "\\033[?2004hREADY\\r\\n"; dd bs=1 count=15 2>/dev/null | od -c | head -3; sleep 30',
    ],
    cols: 80,
    rows: 24,
    ready: { until: "READY" },
  });
  await pane.paste("a\nb");
  const s = await pane.waitFor("033", { timeoutMs: 5000 });
  assert.match(s.plain.replace(/\s+/g, " "), /033 \[ 2 0 0 ~ a \\r b 033 \[ 2 0 1 ~/);
});

Deno.test("lab harness: a key-logging server records every key it delivers, and only those", async () => {
  await using lab = await LabServer.start({ tag: "selftest", keyLog: true });
  const pane = await lab.launch({
    argv: ["sh", "-c", "echo READY; cat >/dev/null"],
    cols: 80,
    rows: 24,
    ready: { until: "READY" },
  });
  const before = (await lab.keyLog()).keys.length;
  await pane.type("ab");
  await pane.keys("Enter");
  await pane.capture(); // reading the pane sends nothing
  const log = await lab.keyLog();
  assert.deepEqual(log.keys.slice(before), ["a", "b", "\\r"]);
  assert.ok(log.commands.some((c) => c.startsWith("send-keys")), JSON.stringify(log.commands));
  await assert.rejects(async () => {
    await using plain = await LabServer.start({ tag: "selftest" });
    await plain.keyLog();
  }, /without keyLog/);
});
