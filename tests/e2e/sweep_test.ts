/**
 * sweep.sh: its own approve gate on replay doubles (numbered options and OpenCode's choice row),
 * stuck shapes with dedup, hostile profile values, no python, format-version handshake. Parity
 * with drive and with drover's gate on every recorded screen: sweep_parity_test.ts.
 */
import assert from "node:assert/strict";
import { drover, droverCommand, REPO_ROOT } from "../helpers/drover.ts";
import { sweepDrover } from "../helpers/sweep_drover.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";
import {
  cleanupReplay,
  loadScreen,
  type ManifestScreen,
  manifestScreens,
  pick,
  plainFixture,
  type ReplayPane,
  type Screen,
  startReplay,
} from "../helpers/replay.ts";
import { acquireClaim, claimPaths } from "../../lib/approve/claim.ts";
import { CLAIM_PATHS } from "../../lib/contracts/claim_paths.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { build, lookalikes } from "../helpers/lookalikes.ts";

const SWEEP = `${REPO_ROOT}sweep/sweep.sh`;
const SCREENS = await manifestScreens("claude-code");

function need(scenario: RegExp, size = "120x40"): ManifestScreen {
  const s = pick(SCREENS, scenario, { size });
  if (!s) throw new Error(`no recorded screen for ${scenario} at ${size}`);
  return s;
}

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** A drover executable for sweep.sh: DROVER_BIN, else a wrapper around `deno run main.ts`. */
async function droverExe(dir: string): Promise<string> {
  const [exe, pre] = droverCommand();
  await Deno.mkdir(`${dir}/drover-bin`, { recursive: true });
  const path = `${dir}/drover-bin/drover`;
  await Deno.writeTextFile(path, `#!/bin/sh\nexec ${[exe, ...pre].map(q).join(" ")} "$@"\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

interface SweepRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function sweep(
  args: string[],
  opts: { stdin?: string; env?: Record<string, string>; clearEnv?: boolean; bash?: string } = {},
): Promise<SweepRun> {
  const child = new Deno.Command(opts.bash ?? "bash", {
    args: [SWEEP, ...args],
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: opts.env,
    clearEnv: opts.clearEnv ?? false,
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("parity: approve's bash gate (approve-eval) judges every hand-made look-alike prompt not live, like the binary", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const wrong: string[] = [];
    const built = lookalikes().map(build);
    // approve-eval's one drover call is __prompt-profile: read once per CLI (tests/helpers).
    const stub = await sweepDrover(tmp);
    for (const b of built) {
      const cli = b.screen.cli;
      const v = detect({ plain: b.plain, styled: b.styled }, resolveProfile(cli, EMPTY_CONFIG));
      const r = await sweep(["--cli", cli, "approve-eval"], {
        stdin: b.plain,
        env: { DROVER: stub },
      });
      assert.ok(r.code !== 0 || r.stdout !== "", r.stderr);
      if (v.live_prompt || r.stdout.trim() !== "refuse (no-live-prompt)") {
        wrong.push(`${b.rel}: sweep.sh "${r.stdout.trim()}", drover live=${v.live_prompt}`);
      }
      // The block alone (nothing drawn below it) is live for both.
      const cut = b.plain.split("\n").slice(0, b.cut).join("\n") + "\n";
      const alone = await sweep(["--cli", cli, "approve-eval"], {
        stdin: cut,
        env: { DROVER: stub },
      });
      if (alone.stdout.includes("no-live-prompt")) {
        wrong.push(`${b.rel} cut: sweep.sh says not live`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(built.length >= 6);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

interface SweepRig extends AsyncDisposable {
  srv: TestServer;
  orch: ReplayPane;
  agent: ReplayPane;
  tmp: string;
  env: Record<string, string>;
  run(args: string[], extra?: Record<string, string>): Promise<SweepRun & { keys: string }>;
}

interface RigOptions {
  /** The CLI both panes are marked as (@drover-cli), as `drover launch` marks its panes. */
  cli?: string;
  /** What the agent double shows when a key arrives (default: "1" → the answered Bash prompt). */
  onKeys?: [string, Screen][];
}

async function sweepRig(
  screen: ManifestScreen | Screen,
  orchestrator?: ManifestScreen | Screen,
  opts: RigOptions = {},
): Promise<SweepRig> {
  const srv = await startTestServer();
  const shown = async (s: ManifestScreen | Screen) => "rel" in s ? await loadScreen(s.rel) : s;
  const first = await shown(screen);
  const size = `${first.cols}x${first.rows}`;
  const orch = await startReplay(srv, await shown(orchestrator ?? need(/^ready$/, size)), {
    session: "agents",
  });
  const agent = await startReplay(srv, first, { session: "agents", newWindow: true });
  if (opts.cli) {
    for (const p of [orch, agent]) {
      await srv.tmux("set-option", "-p", "-t", p.paneId, "@drover-cli", opts.cli);
    }
  }
  for (
    const [key, s] of opts.onKeys ?? [["1", await loadScreen(need(/^bash-answered$/, size).rel)]]
  ) {
    await agent.onKey(key, s);
  }
  const tmp = await Deno.makeTempDir({ prefix: "drover-sweep-" });
  const env = { DROVER: await droverExe(tmp), XDG_RUNTIME_DIR: tmp, NO_COLOR: "1" };
  return {
    srv,
    orch,
    agent,
    tmp,
    env,
    async run(args, extra = {}) {
      const r = await sweep(["-L", srv.name, ...args], { env: { ...env, ...extra } });
      // sweep.sh has exited: once the double reads its sentinel, a stray key would be there.
      return { ...r, keys: await agent.settled() };
    },
    async [Symbol.asyncDispose]() {
      await cleanupReplay(orch);
      await cleanupReplay(agent);
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
      await srv[Symbol.asyncDispose]();
    },
  };
}

Deno.test("sweep.sh approve sends exactly 1 on a live permission prompt", async () => {
  await using r = await sweepRig(need(/^bash-prompt-dir$/));
  const res = await r.run(["approve", "agents:1.0"]);
  assert.equal(res.code, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /^approved pane %\d+ \(option 1: Yes\) with 1$/m);
  assert.equal(res.keys, "1");
});

Deno.test("sweep.sh approve refuses the orchestrator, dialogs, stale prompts, held claims", async () => {
  const prompt = need(/^bash-prompt$/);
  {
    await using r = await sweepRig(prompt, prompt);
    const res = await r.run(["approve", "agents:0.0"]);
    assert.equal(res.code, 10, res.stdout + res.stderr);
    assert.match(res.stdout, /orchestrator/);
    assert.equal(await r.orch.settled(), "");
  }
  for (const [scenario, code] of [[/^bypass-warning$/, 13], [/^bash-answered$/, 12]] as const) {
    await using r = await sweepRig(need(scenario));
    const res = await r.run(["approve", "agents:1.0"]);
    assert.equal(res.code, code, `${scenario}: ${res.stdout}${res.stderr}`);
    assert.equal(res.keys, "");
  }
  {
    await using r = await sweepRig(prompt);
    const sock = (await r.srv.tmux("display-message", "-p", "#{socket_path}")).trim();
    const path = (await claimPaths(sock, r.agent.paneId)).at(-1)!;
    await Deno.writeTextFile(path, "x\n");
    try {
      const res = await r.run(["approve", "agents:1.0"]);
      assert.equal(res.code, 11, res.stdout + res.stderr);
      assert.match(res.stdout, /claimed by another approver \(x, /);
      assert.equal(res.keys, "");
    } finally {
      await Deno.remove(path).catch(() => {});
    }
  }
  {
    await using r = await sweepRig(prompt);
    const cfg = `${r.tmp}/config.toml`;
    await Deno.writeTextFile(cfg, `[clis.claude.prompt_profile]\nbroad_grant_marker = "yes"\n`);
    const res = await r.run(["--config", cfg, "--cli", "claude", "approve", "agents:1.0"]);
    assert.equal(res.code, 14, res.stdout + res.stderr);
    assert.equal(res.keys, "");
  }
});

// Claude Code 2.1.332 (the newest recorded version, which SCREENS holds): a permission prompt whose
// un-numbered column starts with "❯ No" is refused as not affirmative (18), never answered.
// Mutation caught (verified): sweep.sh's verdict without its not_affirmative check on a choice
// (Enter would then reject the command) — it answers with Enter and exits 0.
Deno.test("sweep.sh approve refuses Claude Code 2.1.332's un-numbered No-first prompt (exit 18), sending nothing", async () => {
  const s = need(/^auto-no-first-prompt$/);
  assert.match(s.rel, /2\.1\.332/, "the newest recorded Claude Code is 2.1.332");
  const answered = await loadScreen(need(/^auto-prompt-answered$/).rel);
  await using r = await sweepRig(s, undefined, { onKeys: [["\r", answered], ["1", answered]] });
  const res = await r.run(["approve", "agents:1.0"]);
  assert.equal(res.code, 18, res.stdout + res.stderr);
  assert.match(res.stdout, /^refused pane %\d+ \(not-affirmative\)/m);
  assert.equal(res.keys, "");
});

// Found by the issue-17 audit: a blank screen's trailing newlines were eaten by $(…) with the
// capture separator's, so an empty pane read as "(pane vanished)" and approve said exit 4.
Deno.test("sweep.sh: a pane with a blank screen is captured, not reported vanished", async () => {
  await using srv = await startTestServer();
  await srv.tmux("new-window", "-d", "-t", "holder:", "sleep 100000");
  const tmp = await Deno.makeTempDir({ prefix: "drover-sweep-" });
  try {
    const env = { DROVER: await droverExe(tmp), XDG_RUNTIME_DIR: tmp, NO_COLOR: "1" };
    const snap = await sweep(["-L", srv.name, "--session", "holder", "snapshot"], { env });
    assert.equal(snap.code, 0, snap.stdout + snap.stderr);
    assert.doesNotMatch(snap.stdout, /vanished/);
    assert.match(snap.stdout, /^=== %\d+ holder:1\.0 /m);
    const res = await sweep(["-L", srv.name, "approve", "holder:1.0"], { env });
    assert.equal(res.code, 12, res.stdout + res.stderr);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

// Found by the audit: sweep.sh fingerprinted the last 15 lines, so a "1" echoed under a prompt
// that stayed live slid that window and read as "another prompt": "approved" (exit 0) where the
// binary says "unconfirmed" (17). The pane is a recorded prompt `cat` into a pane that never
// answers; tty echo draws each key below it.
Deno.test("sweep.sh approve: a prompt that stays live after the 1 is unconfirmed (17), like the binary", async () => {
  await using srv = await startTestServer();
  const fixture = `${REPO_ROOT}tests/fixtures/${need(/^bash-prompt$/).rel}.ansi.txt`;
  const show = `cat ${q(fixture)}; sleep 100000`;
  for (let i = 0; i < 2; i++) await srv.tmux("new-window", "-d", "-t", "holder:", show);
  await srv.waitFor("holder:2.0", (s) => /Do you want to proceed/.test(s));
  const tmp = await Deno.makeTempDir({ prefix: "drover-sweep-" });
  try {
    const env = { DROVER: await droverExe(tmp), XDG_RUNTIME_DIR: tmp, NO_COLOR: "1" };
    // Two panes, each with its own claim: the binary and the script wait out their confirmation
    // windows side by side.
    const [bin, res] = await Promise.all([
      drover(["-L", srv.name, "approve", "holder:1.0"], { env }),
      sweep(["-L", srv.name, "approve", "holder:2.0"], { env }),
    ]);
    assert.equal(bin.code, 17, bin.stdout + bin.stderr);
    assert.equal(res.code, 17, res.stdout + res.stderr);
    assert.match(res.stdout, /^unconfirmed pane %\d+: sent 1 \+ Enter;/m);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

// Found in the lab under load: OpenCode took longer than the settle window to redraw after the
// Enter that answers its choice row, and both approvers then sent the "earned" Enter as well — a
// second answer. The follow-up Enter belongs to the digit only.
Deno.test("approve on a choice row: an Enter that does not take is never followed by another (drover and sweep.sh)", async () => {
  await using srv = await startTestServer({ width: 80, height: 24 });
  const tmp = await Deno.makeTempDir({ prefix: "drover-sweep-" });
  const panes: ReplayPane[] = [];
  try {
    const env = { DROVER: await droverExe(tmp), XDG_RUNTIME_DIR: tmp, NO_COLOR: "1" };
    panes.push(
      await startReplay(srv, await loadScreen("opencode/1.18.33/ready@80x24"), {
        session: "agents",
      }),
    );
    for (const rel of ["shell-prompt", "shell-prompt", "file-prompt", "file-prompt"]) {
      // The doubles never react to keys: each prompt stays live, option 1 selected.
      const p = await startReplay(srv, await loadScreen(`opencode/1.18.33/${rel}@80x24`), {
        session: "agents",
        newWindow: true,
      });
      await srv.tmux("set-option", "-p", "-t", p.paneId, "@drover-cli", "opencode");
      panes.push(p);
    }
    // Each pane has its own claim: the four approvers wait out their confirmation windows side
    // by side.
    await Promise.all(
      panes.slice(1).map(async (p, i) => {
        if (i % 2 === 0) {
          const bin = await drover(["-L", srv.name, "--json", "approve", p.paneId], { env });
          assert.equal(bin.code, 17, bin.stdout + bin.stderr);
          const data = JSON.parse(bin.stdout).data;
          assert.equal(data.form, "choice-row");
          assert.deepEqual(data.sent, ["Enter"]);
        } else {
          const res = await sweep(["-L", srv.name, "approve", p.paneId], { env });
          assert.equal(res.code, 17, res.stdout + res.stderr);
          assert.match(res.stdout, /^unconfirmed pane %\d+: sent Enter;/m);
        }
      }),
    );
    for (const p of panes.slice(1)) assert.equal(await p.settled(), "\r", p.paneId);
    assert.equal(await panes[0].settled(), "");
  } finally {
    for (const p of panes) await cleanupReplay(p);
    await Deno.remove(tmp, { recursive: true });
  }
});

// Found by the audit: noclobber (set -C) refuses only a regular file, so a FIFO at the claim path
// was opened for writing and sweep.sh approve waited for a reader until its watchdog. Since the
// issue-27 follow-up a FIFO there is refused like any non-file (74), never opened, left in place.
Deno.test("sweep.sh approve: a FIFO at the claim path is refused (74), not a hang, and left as it is", async () => {
  await using r = await sweepRig(need(/^bash-prompt$/));
  const sock = (await r.srv.tmux("display-message", "-p", "#{socket_path}")).trim();
  const fifo = (await claimPaths(sock, r.agent.paneId)).at(-1)!;
  assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
  try {
    const res = await r.run(["approve", "agents:1.0"], { SWEEP_TIME_LIMIT: "60" });
    assert.equal(res.code, 74, res.stdout + res.stderr);
    assert.match(
      res.stdout,
      /^refused pane %\d+ \(claim-path\): a FIFO stands where the pane's claim file /m,
    );
    assert.equal(res.keys, "");
    assert.ok((await Deno.lstat(fifo)).isFifo);
  } finally {
    await Deno.remove(fifo).catch(() => {});
  }
});

/** Until every path exists and holds a line matching `holder` (the claim of a running approver). */
async function claimedBy(paths: string[], holder: RegExp): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const texts = await Promise.all(paths.map((p) => Deno.readTextFile(p).catch(() => "")));
    if (texts.every((t) => holder.test(t))) return;
    if (Date.now() > deadline) throw new Error(`no claim by ${holder} at ${paths.join(", ")}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

// One definition of where a pane's claim lives (lib/approve/claim.ts): sweep.sh asks the binary
// (`drover __claim-paths`) instead of computing it, and takes and honours claims exactly there.
// (drover approve, sweep.sh approve and a cron approver racing: approve_claim_test.ts.)
Deno.test("parity: sweep.sh takes its claim at drover's claim paths and honours drover's claim", async () => {
  const answered = await loadScreen(need(/^bash-answered$/).rel);
  await using r = await sweepRig(need(/^bash-prompt$/), undefined, { onKeys: [["1", answered]] });
  const sock = (await r.srv.tmux("display-message", "-p", "#{socket_path}")).trim();
  const paths = await claimPaths(sock, r.agent.paneId);
  const listed = await drover(
    ["-L", r.srv.name, "__claim-paths", "--format-version", "1", r.agent.paneId],
    { env: { XDG_RUNTIME_DIR: r.tmp } },
  );
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(listed.stdout, ["drover-claim-paths/1", ...paths].join("\n") + "\n");
  const json = await drover(["-L", r.srv.name, "--json", "__claim-paths", r.agent.paneId]);
  const env = CLAIM_PATHS.schema.parse(JSON.parse(json.stdout)) as { data: { paths: string[] } };
  assert.deepEqual(env.data.paths, paths);
  const other = await drover(["-L", r.srv.name, "__claim-paths", "--format-version", "2", "%1"]);
  assert.equal(other.code, 2);
  assert.match(
    other.stderr,
    /FORMAT_MISMATCH.*expects __claim-paths format 2, this drover prints format 1/,
  );

  // sweep.sh's claim, seen by drover's own claim code while the script holds it.
  const script = r.run(["approve", "agents:1.0"]);
  await claimedBy(paths, /^sweep\.sh pid=\d+ /);
  const taken = await acquireClaim(paths);
  assert.equal(taken.ok, false, "drover's claim code sees the script's claim");
  assert.match(!taken.ok ? taken.holder : "", /^sweep\.sh pid=\d+ /);
  const done = await script;
  assert.equal(done.code, 0, done.stdout + done.stderr);
  for (const p of paths) await assert.rejects(() => Deno.lstat(p), Deno.errors.NotFound);

  // drover's claim (the code `drover approve` runs), honoured by the script.
  await r.agent.show(await loadScreen(need(/^bash-prompt$/).rel));
  const mine = await acquireClaim(paths);
  assert.ok(mine.ok);
  try {
    const res = await r.run(["approve", "agents:1.0"]);
    assert.equal(res.code, 11, res.stdout + res.stderr);
    assert.match(res.stdout, /claimed by another approver \(drover pid=\d+ /);
    assert.ok(res.stdout.includes(paths[0]), res.stdout);
  } finally {
    await mine.claim.release();
  }
  const after = await r.run(["approve", "agents:1.0"]);
  assert.equal(after.code, 0, after.stdout + after.stderr);
  assert.equal(await r.agent.keys(), "11", "one 1 from each run that held the claim");
});

const OPENCODE = await manifestScreens("opencode");

function oc(scenario: RegExp): ManifestScreen {
  const s = pick(OPENCODE, scenario, { size: "120x40" });
  if (!s) throw new Error(`no recorded OpenCode screen for ${scenario}`);
  return s;
}

/** Hand-made: the recorded OpenCode prompt with the selection drawn on "Allow always". */
async function selectionMoved(): Promise<Screen> {
  const s = await loadScreen(oc(/^shell-prompt$/).rel);
  const bright = "\x1b[38;2;10;10;10m";
  const grey = "\x1b[38;2;128;128;128m";
  const text = s.text.replace(`${bright}Allow once`, `${grey}Allow once`)
    .replace(`${grey}Allow always`, `${bright}Allow always`);
  assert.notEqual(text, s.text, "the fixture's choice row changed");
  return { ...s, text };
}

// Mutation caught (verified): sweep.sh's choice_row taking the first choice as selected whatever
// the styled capture shows — the hand-made screen below then gets an Enter on "Allow always".
Deno.test("sweep.sh approve answers OpenCode's choice row with Enter, only when its first choice shows selected", async () => {
  const approved = await loadScreen(oc(/^shell-approved$/).rel);
  const opts: RigOptions = { cli: "opencode", onKeys: [["\r", approved]] };
  {
    await using r = await sweepRig(oc(/^shell-prompt$/), oc(/^ready$/), opts);
    const res = await r.run(["approve", "agents:1.0"]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /^approved pane %\d+ \(option 1: Allow once\) with Enter$/m);
    assert.equal(res.keys, "\r", "exactly one Enter, no digit");
  }
  {
    // Enter would confirm "Allow always": refused as no option 1, nothing sent.
    await using r = await sweepRig(await selectionMoved(), oc(/^ready$/), opts);
    const res = await r.run(["approve", "agents:1.0"]);
    assert.equal(res.code, 15, res.stdout + res.stderr);
    assert.match(res.stdout, /refused pane %\d+ \(no-option-1\)/);
    assert.equal(res.keys, "");
  }
  {
    // A configured broad-grant marker naming the first choice: refused (14) before any Enter.
    // Mutation caught (verified): sweep.sh's verdict without its broad-grant check on a choice row.
    await using r = await sweepRig(oc(/^shell-prompt$/), oc(/^ready$/), opts);
    const cfg = `${r.tmp}/config.toml`;
    await Deno.writeTextFile(cfg, `[clis.opencode.prompt_profile]\nbroad_grant_marker = "once"\n`);
    const res = await r.run(["--config", cfg, "approve", "agents:1.0"]);
    assert.equal(res.code, 14, res.stdout + res.stderr);
    assert.match(res.stdout, /refused pane %\d+ \(broad-grant\)/);
    assert.equal(res.keys, "");
  }
});

Deno.test("sweep.sh approve-eval: its shifted live window ends exactly 6 non-blank lines above the footer", async () => {
  // Hand-made (Claude Code wording), as in tests/unit/detect_boundaries_test.ts: option 1, `gap`
  // lines, the footer starting its line, 10 lines below. Live (a dialog: no approval marker) when
  // option 1 is 6 non-blank lines above the footer; not live at 7.
  // Mutation caught: sweep.sh's `k - above` window off by one (`k - above + 1`, or `j <= k`).
  const shifted = (gap: number) =>
    ["❯ 1. Yes", ...Array.from({ length: gap }, (_, i) => `  detail line ${i}`), "Esc to cancel"]
      .concat(Array.from({ length: 10 }, (_, i) => `☐ task ${i}`)).join("\n") + "\n";
  const tmp = await Deno.makeTempDir();
  try {
    const env = { DROVER: await droverExe(tmp) };
    const six = await sweep(["--cli", "claude", "approve-eval"], { stdin: shifted(5), env });
    assert.equal(six.stdout, "refuse (dialog)\n", six.stderr);
    assert.equal(six.code, 13);
    const seven = await sweep(["--cli", "claude", "approve-eval"], { stdin: shifted(6), env });
    assert.equal(seven.stdout, "refuse (no-live-prompt)\n", seven.stderr);
    assert.equal(seven.code, 12);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

// Hand-made (Claude Code wording): a prompt block with 4 lines of output under it and no footer.
// A marker within the last 15 lines is not enough: an option line (or a marker) must sit in the
// last 4, as drover's liveness says. Mutation caught (verified): sweep.sh's true-end rule reduced
// to "a marker anywhere in the block" (`tail_marker || block_marker`).
Deno.test("sweep.sh approve-eval: a marker in the block without an option line at the end is not live", async () => {
  const text = [
    " Do you want to proceed?",
    " ❯ 1. Yes",
    "   2. No",
    ...Array.from({ length: 4 }, (_, i) => `output line ${i}`),
  ].join("\n") + "\n";
  assert.equal(detect({ plain: text }, resolveProfile("claude", EMPTY_CONFIG)).live_prompt, false);
  const tmp = await Deno.makeTempDir();
  try {
    const env = { DROVER: await droverExe(tmp) };
    const res = await sweep(["--cli", "claude", "approve-eval"], { stdin: text, env });
    assert.equal(res.stdout, "refuse (no-live-prompt)\n", res.stderr);
    assert.equal(res.code, 12);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("sweep.sh detect-stuck reports stuck shapes once per dedup window", async () => {
  await using r = await sweepRig(need(/^pasted-text$/));
  const first = await r.run(["--session", "agents", "detect-stuck"]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, new RegExp(`^stuck: ${r.agent.paneId} paste-buffer \\(`, "m"));
  assert.match(first.stdout, new RegExp(`^not-stuck: ${r.orch.paneId}$`, "m"));
  const second = await r.run(["--session", "agents", "detect-stuck"]);
  assert.match(
    second.stdout,
    new RegExp(`^stuck: ${r.agent.paneId} paste-buffer \\(deduped\\)$`, "m"),
  );
  // A live prompt counts once it has been seen for the threshold.
  await r.agent.show(await loadScreen(need(/^bash-prompt$/).rel));
  const seen = await r.run(["--session", "agents", "detect-stuck"], {
    SWEEP_PROMPT_STUCK_SECONDS: "0",
  });
  assert.match(seen.stdout, new RegExp(`^stuck: ${r.agent.paneId} stuck-on-prompt`, "m"));
  assert.equal(seen.keys, "", "detect-stuck never sends keys");
});

Deno.test("sweep.sh stuck-eval reads stdin: unavailable, stream error, bloat threshold", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const env = { DROVER: await droverExe(tmp), SWEEP_STATE_DIR: tmp };
    const credit = pick(SCREENS, /^credit-400$/, { size: "120x40" });
    if (credit) {
      const r = await sweep(["stuck-eval", "agent-a"], {
        stdin: await plainFixture(credit.rel),
        env,
      });
      assert.match(r.stdout, /^stuck: agent-a cli-unavailable \(/m, r.stderr);
    }
    const retry = pick(SCREENS, /^api-retrying$/, { size: "120x40" });
    if (retry) {
      const r = await sweep(["stuck-eval", "agent-b"], {
        stdin: await plainFixture(retry.rel),
        env,
      });
      assert.match(r.stdout, /^stuck: agent-b stream-error \(/m, r.stderr);
    }
    const full = pick(SCREENS, /^context-nearly-full$/, { size: "120x40" });
    if (full) {
      const low = await sweep(["stuck-eval", "agent-c"], {
        stdin: await plainFixture(full.rel),
        env: { ...env, SWEEP_CONTEXT_USED_PCT: "100" },
      });
      assert.match(low.stdout, /^not-stuck: agent-c$/m, low.stderr);
      const high = await sweep(["stuck-eval", "agent-c"], {
        stdin: await plainFixture(full.rel),
        env: { ...env, SWEEP_CONTEXT_USED_PCT: "1" },
      });
      assert.match(high.stdout, /^stuck: agent-c context-bloat \(/m, high.stderr);
    }
    const ready = await sweep(["stuck-eval", "agent-d"], {
      stdin: await plainFixture(need(/^ready$/).rel),
      env,
    });
    assert.equal(ready.stdout, "not-stuck: agent-d\n", ready.stderr);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("hostile profile values never execute inside sweep.sh", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const canary = `${tmp}/pwned`;
    const values = [
      `$(touch ${canary})`,
      "`touch " + canary + "`",
      `'; touch ${canary}; echo '`,
      `"; touch ${canary}; echo "`,
      `\${IFS}$(touch\${IFS}${canary})`,
    ];
    const toml = (s: string) => JSON.stringify(s);
    const cfg = `${tmp}/config.toml`;
    await Deno.writeTextFile(
      cfg,
      [
        "[clis.claude.prompt_profile]",
        `live_prompt_markers = [${values.map(toml).join(", ")}, "do you want to"]`,
        `approval_markers = [${values.map(toml).join(", ")}, "do you want to proceed"]`,
        `stream_error_markers = [${values.map(toml).join(", ")}]`,
        `broad_grant_marker = ${toml(values[0])}`,
        "",
      ].join("\n"),
    );
    const env = { DROVER: await droverExe(tmp), SWEEP_STATE_DIR: tmp };
    const screen = values.join("\n") + "\n" + (await plainFixture(need(/^bash-prompt$/).rel));
    for (const sub of [["classify"], ["stuck-eval", "a"], ["approve-eval"]]) {
      const r = await sweep(["--config", cfg, ...sub], { stdin: screen, env });
      assert.equal(r.code, 0, r.stderr);
    }
    const c = await sweep(["--config", cfg, "approve-eval"], { stdin: screen, env });
    assert.equal(c.stdout, "would press 1 (option 1: Yes)\n", "the hostile markers are plain text");
    // A newline cannot reach the script: drover refuses to export it.
    await Deno.writeTextFile(
      cfg,
      `[clis.claude.prompt_profile]\nlive_prompt_markers = ["a\\n$(touch ${canary})"]\n`,
    );
    const nl = await sweep(["--config", cfg, "approve-eval"], { stdin: screen, env });
    assert.notEqual(nl.code, 0);
    await assert.rejects(() => Deno.stat(canary), "no hostile value was executed");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("sweep.sh works with no python on PATH", async () => {
  const tmp = await Deno.makeTempDir();
  await using srv = await startTestServer();
  const agent = await startReplay(srv, await loadScreen(need(/^bash-prompt$/).rel), {
    session: "agents",
  });
  const agent2 = await startReplay(srv, await loadScreen(need(/^bash-prompt$/).rel), {
    session: "agents",
    newWindow: true,
  });
  try {
    // Only the tools the script needs: bash, tmux and coreutils — no python anywhere.
    const bin = `${tmp}/tools`;
    await Deno.mkdir(bin);
    const tools = [
      "bash",
      "tmux",
      "grep",
      "cat",
      "date",
      "stat",
      "mkdir",
      "mv",
      "rm",
      "ln",
      "head",
      "sort",
      "cksum",
      "sleep",
      "mktemp",
      "sed",
      "sh",
    ];
    for (const t of tools) {
      const which = await new Deno.Command("sh", {
        args: ["-c", `command -v ${t}`],
        stdout: "piped",
      })
        .output();
      const path = new TextDecoder().decode(which.stdout).trim();
      if (path) await Deno.symlink(path, `${bin}/${t}`);
    }
    const env = {
      PATH: bin,
      // The real HOME: deno keeps its module cache there.
      HOME: Deno.env.get("HOME") ?? tmp,
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      DROVER: await droverExe(tmp),
      XDG_RUNTIME_DIR: tmp,
      TERM: "xterm-256color",
    };
    const check = await new Deno.Command(`${bin}/bash`, {
      args: ["-c", "command -v python3 || command -v python || echo none"],
      env,
      clearEnv: true,
      stdout: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(check.stdout).trim(), "none");
    // inline code: only an entry equal to the whole command approves it (issue 25)
    const whole = `node -e "console.log('build check ok: 3 files')"`;
    const classify = await sweep(["classify", "--allow", whole], {
      stdin: (await loadScreen(need(/^bash-prompt$/).rel)).text,
      env,
      clearEnv: true,
      bash: `${bin}/bash`,
    });
    assert.equal(classify.stdout, `approve option=1 (allow: ${whole})\n`, classify.stderr);
    const gateOnly = await sweep(["approve-eval"], {
      stdin: (await loadScreen(need(/^bash-prompt$/).rel)).text,
      env,
      clearEnv: true,
      bash: `${bin}/bash`,
    });
    assert.equal(gateOnly.stdout, "would press 1 (option 1: Yes)\n", gateOnly.stderr);
    const stuck = await sweep(["-L", srv.name, "--session", "agents", "detect-stuck"], {
      env,
      clearEnv: true,
      bash: `${bin}/bash`,
    });
    assert.equal(stuck.code, 0, stuck.stderr);
    assert.match(stuck.stdout, /not-stuck/);
    const approve = await sweep(["-L", srv.name, "approve", "agents:1.0"], {
      env,
      clearEnv: true,
      bash: `${bin}/bash`,
    });
    assert.equal(approve.code, 17, approve.stdout + approve.stderr);
    assert.equal(await agent2.settled(), "1\r", "one digit, one Enter, no retry");
    assert.equal(await agent.settled(), "");
  } finally {
    await cleanupReplay(agent);
    await cleanupReplay(agent2);
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("format versions: sweep.sh and drover each refuse a mismatch, naming both", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const stub = `${tmp}/drover`;
    await Deno.writeTextFile(stub, `#!/bin/sh\nprintf '#drover-prompt-profile\\t4\\nx\\ty\\n'\n`);
    await Deno.chmod(stub, 0o755);
    const r = await sweep(["approve-eval"], { stdin: "x\n", env: { DROVER: stub } });
    assert.equal(r.code, 5);
    assert.match(r.stderr, /drover prints format 4, this sweep\.sh reads format 3/);
    await Deno.writeTextFile(stub, `#!/bin/sh\nprintf 'live_prompt_markers\\tx\\n'\n`);
    const none = await sweep(["approve-eval"], { stdin: "x\n", env: { DROVER: stub } });
    assert.equal(none.code, 5);
    assert.match(none.stderr, /no format version line/);
    const bin = await drover(["__prompt-profile", "--format", "tsv", "--format-version", "9"]);
    assert.equal(bin.code, 2);
    assert.match(bin.stderr, /FORMAT_MISMATCH.*format 9.*format 3/);
    // The classify line: sweep.sh names both versions; drover refuses a reader of another one.
    await Deno.writeTextFile(
      stub,
      `#!/bin/sh\nprintf 'drover-classify/2\\tapprove\\tallowlisted\\t1\\t1\\t-\\tx\\n'\n`,
    );
    const cls = await sweep(["classify"], { stdin: "x\n", env: { DROVER: stub } });
    assert.equal(cls.code, 5, cls.stdout + cls.stderr);
    assert.equal(cls.stdout, "", "nothing is judged on a line of another format");
    assert.match(cls.stderr, /drover __classify prints format 2, this sweep\.sh reads format 1/);
    const binCls = await drover(["__classify", "--format-version", "9"], { stdin: "x\n" });
    assert.equal(binCls.code, 2);
    assert.match(binCls.stderr, /FORMAT_MISMATCH.*__classify format 9.*format 1/);
    const missing = await sweep(["classify"], {
      stdin: "x\n",
      env: { DROVER: `${tmp}/nope`, PATH: "/usr/bin:/bin" },
    });
    assert.equal(missing.code, 3);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("drover sweep-script prints the bundled sweep.sh byte for byte", async () => {
  const r = await drover(["sweep-script"]);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, await Deno.readTextFile(SWEEP));
});
