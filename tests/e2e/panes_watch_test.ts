/**
 * `drover panes --watch` in a real terminal: a pane of a private tmux server runs the board over a
 * session of replayed Claude Code screens; the test reads that pane the way a person would see it
 * (capture-pane, with and without colours), changes the watched panes, then quits (q, Ctrl-C,
 * SIGTERM) and checks the terminal is given back: main screen with its earlier content, cursor
 * shown, the line discipline out of raw mode, the shell prompt answering.
 */
import assert from "node:assert/strict";
import { drover, droverCommand } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, type ReplayPane, startReplay } from "../helpers/replay.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";

/** Direct children of `pid`, from /proc (pgrep is not on a minimal machine: procps is optional). */
async function childrenOf(pid: number): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir("/proc")) {
    if (!/^[0-9]+$/.test(e.name)) continue;
    try {
      const stat = await Deno.readTextFile(`/proc/${e.name}/stat`);
      // Field 4 (ppid) follows the parenthesised command name, which may contain spaces.
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(e.name);
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

const SIZE = "120x40";
const PROMPT = "board-test$ ";

function shq(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

interface Board {
  pane: string;
  dir: string;
  /** The shell command line that starts the board. */
  line(extra?: string): string;
}

/** A shell pane (plain bash, known prompt) in its own session, with earlier output on screen. */
async function boardPane(srv: TestServer): Promise<Board> {
  const dir = await Deno.makeTempDir({ prefix: "drover-watch-" });
  const pane = (await srv.tmux(
    "new-session",
    "-d",
    "-P",
    "-F",
    "#{pane_id}",
    "-s",
    "board",
    "-x",
    "110",
    "-y",
    "24",
    `env PS1=${shq(PROMPT)} TERM=xterm-256color bash --norc --noprofile`,
  )).trim();
  await srv.waitFor(pane, (s) => s.includes(PROMPT.trimEnd()));
  await srv.tmux("send-keys", "-t", pane, "-l", "echo earlier-output-$((6*7))");
  await srv.tmux("send-keys", "-t", pane, "Enter");
  await srv.waitFor(pane, (s) => s.includes("earlier-output-42"));
  // tmux on PATH is a wrapper that logs each call, to count what one refresh costs.
  await Deno.mkdir(`${dir}/bin`);
  await Deno.writeTextFile(
    `${dir}/bin/tmux`,
    `#!/bin/sh\nprintf '%s\\n' "$*" >> ${shq(`${dir}/tmux.log`)}\nexec ${shq(tmuxPath())} "$@"\n`,
  );
  await Deno.chmod(`${dir}/bin/tmux`, 0o755);
  const [exe, pre] = droverCommand();
  return {
    pane,
    dir,
    line: (extra = "") =>
      `PATH=${shq(`${dir}/bin`)}:"$PATH" ${[exe, ...pre].map(shq).join(" ")} -L ${srv.name} ` +
      `panes --watch --session agents --interval 300ms${extra}; ` +
      // Right after drover, before the shell's line editor sets the terminal up again: the exit
      // code and the line discipline exactly as drover left them.
      `echo "exit=$?" > ${shq(`${dir}/after`)}; stty -a >> ${shq(`${dir}/after`)}`,
  };
}

function tmuxPath(): string {
  for (const d of ["/usr/bin", "/usr/local/bin", "/bin"]) {
    try {
      if (Deno.statSync(`${d}/tmux`).isFile) return `${d}/tmux`;
    } catch {
      // not here
    }
  }
  return "tmux";
}

async function flags(srv: TestServer, pane: string): Promise<{ alt: string; cursor: string }> {
  const [alt, cursor] =
    (await srv.tmux("display-message", "-p", "-t", pane, "#{alternate_on} #{cursor_flag}"))
      .trim().split(" ");
  return { alt: alt!, cursor: cursor! };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await fn();
    if (last !== undefined) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** After the board quit: the main screen is back, the terminal sane, the exit code `wantExit`. */
async function assertRestored(srv: TestServer, b: Board, wantExit: number): Promise<void> {
  const screen = await srv.waitFor(b.pane, (s) => s.trimEnd().endsWith(PROMPT.trimEnd()));
  assert.match(screen, /earlier-output-42/, "the main screen's earlier content is back");
  assert.doesNotMatch(screen, /drover panes ·/, "nothing of the board is left on the main screen");
  assert.deepEqual(await flags(srv, b.pane), { alt: "0", cursor: "1" });
  const out = `${b.dir}/after`;
  const text = await until("the shell to answer", async () => {
    try {
      const t = await Deno.readTextFile(out);
      return /\bicanon\b/.test(t) ? t : undefined;
    } catch {
      return undefined;
    }
  });
  assert.match(text, new RegExp(`^exit=${wantExit}\\n`));
  // Raw mode is off again: canonical input and echo. (Deno's runtime also resets the mode when
  // the process exits, so this holds the end result, not which of the two restored it.)
  assert.match(text, /(^|\s)icanon(\s|$)/m);
  assert.match(text, /(^|\s)echo(\s|$)/m);
  assert.doesNotMatch(text, /(^|\s)-icanon(\s|$)/m);
  await Deno.remove(out);
  await srv.tmux("send-keys", "-t", b.pane, "-l", "clear");
  await srv.tmux("send-keys", "-t", b.pane, "Enter");
  await srv.tmux("send-keys", "-t", b.pane, "-l", "echo earlier-output-$((6*7))");
  await srv.tmux("send-keys", "-t", b.pane, "Enter");
  await srv.waitFor(b.pane, (s) => s.includes("earlier-output-42"));
}

async function start(srv: TestServer, b: Board, extra = ""): Promise<string> {
  await Deno.remove(`${b.dir}/tmux.log`).catch(() => {});
  await srv.tmux("send-keys", "-t", b.pane, "-l", b.line(extra));
  await srv.tmux("send-keys", "-t", b.pane, "Enter");
  return await srv.waitFor(
    b.pane,
    (s) => /drover panes · session agents · 3 panes/.test(s),
    15_000,
  );
}

Deno.test("panes --watch: a live board in a real terminal, restored on q, Ctrl-C and SIGTERM", async () => {
  await using srv = await startTestServer({ width: 120, height: 40 });
  const replays: ReplayPane[] = [];
  const b = await boardPane(srv);
  try {
    const orch = await startReplay(srv, await loadScreen(`claude-code/2.1.197/ready@${SIZE}`), {
      session: "agents",
    });
    const prompt = await startReplay(
      srv,
      await loadScreen(`claude-code/2.1.197/bash-prompt-npm@${SIZE}`),
      { session: "agents", newWindow: true },
    );
    const limited = await startReplay(
      srv,
      await loadScreen(`claude-code/2.1.197/weekly-limit@${SIZE}`),
      { session: "agents", newWindow: true },
    );
    replays.push(orch, prompt, limited);
    const events = `${b.dir}/agents.events.jsonl`;
    const event = (pane: string, name: string, message: string) =>
      JSON.stringify({
        schema: "drover.event.v1",
        ts: new Date().toISOString(),
        session: "agents",
        event: name,
        pane,
        target: "agents:1.0",
        message,
      }) + "\n";
    await Deno.writeTextFile(
      events,
      event(prompt.paneId, "escalated", "needs a person: npm run build"),
    );

    // --- q --------------------------------------------------------------------------------
    let screen = await start(srv, b, ` --events ${shq(events)}`);
    screen = await srv.waitFor(b.pane, (s) => /needs a person/.test(s));
    const lines = screen.split("\n");
    const row = (id: string) => lines.findIndex((l) => l.startsWith(`${id} `));
    assert.match(lines[row(orch.paneId)]!, /agents:0\.0 +claude +orch +idle +≥\d+s/);
    assert.match(
      lines[row(prompt.paneId)]!,
      /agents:1\.0 +claude +agent +prompt +≥\d+s +\S+ +\$ npm run build/,
    );
    assert.match(
      lines[row(prompt.paneId) + 1]!,
      /↳ \d\d:\d\d:\d\d escalated: needs a person: npm run build/,
    );
    assert.match(
      lines[row(limited.paneId)]!,
      /unavailable +≥\d+s +\S+ +You've hit your weekly limit/,
    );
    assert.match(lines[row(orch.paneId) + 1]!, /↳ no drive event yet/);
    assert.match(screen, /events: .*agents\.events\.jsonl · last \d\d:\d\d:\d\d escalated/);
    assert.doesNotMatch(screen, /earlier-output-42/, "the board has the alternate screen");
    assert.deepEqual(await flags(srv, b.pane), { alt: "1", cursor: "0" });
    // State colours, as the terminal holds them.
    const styled = await srv.tmux("capture-pane", "-p", "-e", "-t", b.pane);
    const colour = (sgr: string, word: string) =>
      new RegExp(`\u001b\\[[0-9;]*${sgr}m(\u001b\\[[0-9;]*m)*${word}`);
    assert.match(styled, colour("33", "prompt"), "prompt in yellow");
    assert.match(styled, colour("31", "unavailable"), "unavailable in red");
    assert.match(styled, colour("32", "idle"), "idle in green");

    // A narrower terminal: the board redraws at the new width (SIGWINCH), nothing wraps.
    await srv.tmux("resize-window", "-t", "board", "-x", "70");
    screen = await srv.waitFor(
      b.pane,
      (s) =>
        s.split("\n")[1] ===
          "PANE  TARGET     CLI      ROLE  STATE       FOR     MODE        DETA…",
    );
    for (const l of screen.split("\n")) assert.ok(l.length <= 69, `wider than 69: ${l}`);
    await srv.tmux("resize-window", "-t", "board", "-x", "110");
    await srv.waitFor(b.pane, (s) => / q quit$/.test(s.split("\n")[0]!));

    // The board follows the panes: the prompt is answered, its clock restarts; a new event.
    await prompt.show(await loadScreen(`claude-code/2.1.197/bash-answered@${SIZE}`));
    await Deno.writeTextFile(events, event(prompt.paneId, "approved", "approved npm run build"), {
      append: true,
    });
    screen = await srv.waitFor(b.pane, (s) => /approved: approved npm run build/.test(s));
    const promptRow = screen.split("\n").find((l) => l.startsWith(`${prompt.paneId} `))!;
    assert.doesNotMatch(promptRow, / prompt /);
    assert.match(promptRow, /agents:1\.0 +claude +agent +\S+ +\d+s /, "a fresh clock, no ≥");

    // One refresh = one list-panes + one batched capture, nothing else.
    const commandOf = (line: string) => {
      const t = line.split(" ");
      let i = 0;
      while (t[i]?.startsWith("-")) i += ["-L", "-S", "-f"].includes(t[i]!) ? 2 : 1;
      return t[i];
    };
    const calls = await until("three refreshes", async () => {
      const c = (await Deno.readTextFile(`${b.dir}/tmux.log`)).trim().split("\n").map(commandOf);
      return c.filter((x) => x === "list-panes").length >= 4 ? c : undefined;
    });
    for (let i = 0; i + 1 < calls.length; i += 2) {
      assert.deepEqual(
        [calls[i], calls[i + 1]],
        ["list-panes", "display-message"],
        calls.join(","),
      );
    }

    await srv.tmux("send-keys", "-t", b.pane, "q");
    await assertRestored(srv, b, 0);

    // --- Ctrl-C ---------------------------------------------------------------------------
    await start(srv, b);
    await srv.tmux("send-keys", "-t", b.pane, "C-c");
    await assertRestored(srv, b, 0);

    // --- SIGTERM, while a refresh keeps failing -------------------------------------------
    await start(srv, b);
    const shellPid = (await srv.tmux("display-message", "-p", "-t", b.pane, "#{pane_pid}")).trim();
    const pids = await childrenOf(Number(shellPid));
    assert.equal(pids.length, 1, `children of the shell: ${pids}`);
    // The watched session goes away: the board says so and keeps running.
    await srv.tmux("kill-session", "-t", "agents");
    await srv.waitFor(b.pane, (s) => /refresh failed: .*agents/.test(s));
    assert.deepEqual(await flags(srv, b.pane), { alt: "1", cursor: "0" });
    Deno.kill(Number(pids[0]), "SIGTERM");
    await assertRestored(srv, b, 0);

    // --- an error before the board starts: plain message on the main screen -----------------
    await srv.tmux("send-keys", "-t", b.pane, "-l", b.line());
    await srv.tmux("send-keys", "-t", b.pane, "Enter");
    screen = await srv.waitFor(b.pane, (s) => /TARGET_NOT_FOUND/.test(s));
    assert.match(screen, /error \[TARGET_NOT_FOUND\]: .*agents/);
    await assertRestored(srv, b, 4);
  } finally {
    for (const r of replays) await cleanupReplay(r);
    await Deno.remove(b.dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("panes --watch: not a terminal → the plain one-shot table; flags are checked", async () => {
  await using srv = await startTestServer();
  const orch = await startReplay(srv, await loadScreen(`claude-code/2.1.197/ready@${SIZE}`), {
    session: "agents",
  });
  try {
    const r = await drover(["-L", srv.name, "panes", "--watch", "--session", "agents"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^PANE +TARGET +CLI +ROLE +STATE +MODE +TITLE\n/);
    assert.match(r.stdout, /agents:0\.0 +claude 2\.1\.197 \(fallback\) +orchestrator +idle/);
    assert.ok(!r.stdout.includes("\x1b"), "no terminal control when piped");
    const json = await drover([
      "-L",
      srv.name,
      "--json",
      "panes",
      "--watch",
      "--session",
      "agents",
    ]);
    assert.equal(JSON.parse(json.stdout).data.panes.length, 1);
    const lone = await drover(["-L", srv.name, "panes", "--interval", "1s"]);
    assert.equal(lone.code, 2);
    assert.match(lone.stderr, /--interval needs --watch/);
    const ev = await drover(["-L", srv.name, "panes", "--events", "x.jsonl"]);
    assert.equal(ev.code, 2);
    assert.match(ev.stderr, /--events needs --watch/);
  } finally {
    await cleanupReplay(orch);
  }
});

/** U+202E (right-to-left override) and its kin: they would make the rest of a line read backwards. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

Deno.test("panes --watch: a hostile event (escapes, a bad ts) and a 25 KB right-to-left title stay data (issue 27)", async () => {
  await using srv = await startTestServer({ width: 120, height: 40 });
  const replays: ReplayPane[] = [];
  const b = await boardPane(srv);
  try {
    const ready = await loadScreen(`claude-code/2.1.332/ready@${SIZE}`);
    const orch = await startReplay(srv, ready, { session: "agents" });
    const title = `\u202eexe.txt ${"T".repeat(25_000)}`;
    // Set by the program itself (OSC 2), as a CLI sets its title: too long for a tmux command.
    const titled = await startReplay(
      srv,
      { ...ready, text: `\x1b]2;${title}\x1b\\${ready.text}` },
      {
        session: "agents",
        newWindow: true,
      },
    );
    const got = await srv.tmux("display-message", "-p", "-t", titled.paneId, "#{pane_title}");
    assert.equal(got.trimEnd().length, title.length, "the pane holds the whole title");
    const third = await startReplay(srv, ready, { session: "agents", newWindow: true });
    replays.push(orch, titled, third);
    const events = `${b.dir}/agents.events.jsonl`;
    await Deno.writeTextFile(
      events,
      JSON.stringify({
        schema: "drover.event.v1",
        ts: "not-a-date",
        session: "agents",
        event: "approved\u001b[?1049l\u001b[2J",
        pane: titled.paneId,
        target: "agents:1.0",
        message: "rtl \u202egnp.exe\u001b]0;owned\u0007",
      }) + "\n",
    );
    await start(srv, b, ` --events ${shq(events)}`);
    const screen = await srv.waitFor(b.pane, (s) => /↳ .* approved/.test(s));
    // Still on the board's alternate screen: the event's escape reached the terminal as text.
    assert.deepEqual(await flags(srv, b.pane), { alt: "1", cursor: "0" });
    assert.doesNotMatch(screen, /NaN/);
    assert.doesNotMatch(screen, BIDI);
    const lines = screen.split("\n");
    const row = lines.findIndex((l) => l.startsWith(`${titled.paneId} `));
    assert.match(lines[row]!, /exe\.txt T+…$/, "the title is cut to the DETAIL column");
    assert.ok(lines[row]!.length <= 109, `${lines[row]!.length} columns`);
    assert.match(
      lines[row + 1]!,
      /↳ --:--:-- approved\?\[\?1049l\?\[2J: rtl gnp\.exe\?\]0;owned\?/,
    );
    assert.match(screen, /events: .* · last --:--:-- approved\?\[\?1049l/);
    await srv.tmux("send-keys", "-t", b.pane, "q");
    await assertRestored(srv, b, 0);

    // The one-shot table: the same sanitiser, the title cut to its column.
    const table = await drover(["-L", srv.name, "panes", "--session", "agents"]);
    assert.equal(table.code, 0, table.stderr);
    assert.doesNotMatch(table.stdout, BIDI);
    const trow = table.stdout.split("\n").find((l) => l.startsWith(`${titled.paneId} `))!;
    assert.ok(trow.length < 200, `${trow.length} characters: the whole title was printed`);
    assert.ok(/idle +\S+ +exe\.txt T+…$/.test(trow), `table row: ${trow.slice(0, 300)}`);
    // --json keeps the title whole (escaped by JSON), for scripts.
    const json = await drover(["-L", srv.name, "--json", "panes", "--session", "agents"]);
    const p = JSON.parse(json.stdout).data.panes.find((x: { id: string }) =>
      x.id === titled.paneId
    );
    assert.ok(p.title === title, "--json has the whole title");
  } finally {
    for (const r of replays) await cleanupReplay(r);
    await Deno.remove(b.dir, { recursive: true }).catch(() => {});
  }
});
