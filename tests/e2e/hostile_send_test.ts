/**
 * `send` delivers exactly the given text (issue 17): a trailing `;` or `\;` (tmux command
 * separators), leading dashes, formats, Unicode and a 20 KiB single line reach a raw-reading
 * recording agent byte for byte, followed by one Enter.
 */
import assert from "node:assert/strict";
import { envelope } from "../helpers/drover.ts";
import { startTestServer } from "../helpers/tmux_server.ts";
import { droverOn, fakeAgent, launchedFake } from "./launch_helpers.ts";

async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  let v = await get();
  while (!ok(v) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    v = await get();
  }
  return v;
}

const enc = new TextEncoder();

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** One ~20 KiB line (above tmux's 16 KiB command cap) ending in a separator. */
const LONG = "20 KiB line: " + "abc;def\\;ghi ".repeat(1600) + "end;";

const TEXTS = [
  "run the tests;",
  "a\\;",
  "\\;",
  ";",
  ";;",
  "--leading dashes -x --help",
  "-",
  "#{pane_id} #(touch /tmp/drover-send-bait) ##",
  "Grüße, naïve café, 日本語, emoji 🐑🚜, RTL עברית",
  `it's "quoted" $HOME \`id\` $(x) \\ back\\slash`,
  LONG,
];

Deno.test("send: separators, dashes, formats, Unicode and a 20 KiB line arrive byte-exact", async () => {
  assert.ok(enc.encode(LONG).length > 20 * 1024);
  await using srv = await startTestServer();
  await using agent = await fakeAgent({ recorder: {} });
  const pane = await launchedFake(srv, agent);
  let expectKeys: Uint8Array = new Uint8Array();
  for (const [i, text] of TEXTS.entries()) {
    const r = await droverOn(srv, agent, ["send", pane, "--", text]);
    assert.equal(r.code, 0, `${JSON.stringify(text.slice(0, 40))}: ${r.stdout.slice(0, 2000)}`);
    const d = envelope(r).data;
    assert.equal(d.input.bytes, enc.encode(text).length);
    assert.equal(d.input.method, "keys");
    const lines = await until(() => agent.lines(), (l) => l.length > i);
    assert.equal(lines.length, i + 1, `line ${i} was not submitted exactly once`);
    assert.ok(lines[i] === text, `line ${i} differs: ${JSON.stringify(lines[i]?.slice(0, 80))}`);
    // Exactly the text's bytes, then one Enter (CR): nothing added, nothing split off.
    expectKeys = concat(expectKeys, enc.encode(text), enc.encode("\r"));
    assert.deepEqual(await agent.keys(), expectKeys);
  }
  assert.equal(await srv.tmux("list-buffers"), "", "a paste buffer was left on the server");
  assert.ok(
    !(await Deno.stat("/tmp/drover-send-bait").then(() => true, () => false)),
    "#() ran",
  );
});

Deno.test("send: several lines go in as one bracketed paste, each newline as CR, then Enter", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent({ recorder: { bracketed: true } });
  const pane = await launchedFake(srv, agent);
  const text = "first line;\n--second \\;\nthird ##{x}";
  const r = await droverOn(srv, agent, ["send", pane], { stdin: text + "\n" });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(envelope(r).data.input.method, "paste");
  const lines = await until(() => agent.lines(), (l) => l.length > 0);
  assert.deepEqual(lines, [text]);
  const want = concat(
    enc.encode("\x1b[200~"),
    enc.encode(text.replaceAll("\n", "\r")),
    enc.encode("\x1b[201~\r"),
  );
  assert.deepEqual(await agent.keys(), want);
});

Deno.test("send: an over-long text is refused without echoing it", async () => {
  await using srv = await startTestServer();
  await using agent = await fakeAgent({ recorder: {} });
  const pane = await launchedFake(srv, agent);
  const huge = "x".repeat(70 * 1024) + ";";
  const r = await droverOn(srv, agent, ["send", pane], { stdin: huge });
  assert.equal(r.code, 2, r.stdout);
  assert.ok(r.stdout.length < 2000, `the error echoed ${r.stdout.length} characters`);
  assert.deepEqual(await agent.keys(), new Uint8Array());
});
