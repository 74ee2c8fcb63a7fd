/**
 * `drover approve` against replay doubles of recorded real Claude Code screens (every recorded
 * version): exactly "1" on a live permission prompt whose option 1 is a one-time yes, nothing on
 * every unsafe case, each with its own reason and exit code.
 */
import assert from "node:assert/strict";
import { drover, envelope } from "../helpers/drover.ts";
import { startTestServer, type TestServer } from "../helpers/tmux_server.ts";
import {
  allManifestScreens,
  cleanupReplay,
  loadScreen,
  type ManifestScreen,
  manifestScreens,
  pick,
  type ReplayPane,
  startReplay,
} from "../helpers/replay.ts";
import { claimPaths } from "../../lib/approve/claim.ts";
import { approve } from "../../lib/approve/approve.ts";
import { makeJudge } from "../../lib/approve/judge.ts";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { viewTarget } from "../../lib/identify/context.ts";
import { socketPath } from "../../lib/tmux/options.ts";
import { selectServer } from "../../lib/tmux/server.ts";

const SCREENS = await manifestScreens("claude-code");
const ALL = await allManifestScreens("claude-code");

/** A recorded screen (default: of the newest version; `like`: of that screen's version). */
function need(scenario: RegExp, size = "120x40", like?: ManifestScreen): ManifestScreen {
  const from = like ? ALL.filter((s) => versionOf(s) === versionOf(like)) : SCREENS;
  const s = pick(from, scenario, { size });
  if (!s) throw new Error(`no recorded screen for ${scenario} at ${size}`);
  return s;
}

function versionOf(s: ManifestScreen): string {
  return s.rel.split("/")[1];
}

interface Rig extends AsyncDisposable {
  srv: TestServer;
  orch: ReplayPane;
  agent: ReplayPane;
  runtime: string;
  approve(args: string[], env?: Record<string, string>): Promise<{
    code: number;
    // deno-lint-ignore no-explicit-any
    out: any;
    keys: string;
    orchKeys: string;
  }>;
}

/**
 * Session "agents": window 0 = the orchestrator (default: the ready screen), window 1 = the agent
 * showing `screen`. Claims are the user's own (keyed by this private server's socket).
 */
async function rig(
  screen: ManifestScreen,
  opts: { orchestratorScreen?: ManifestScreen; answered?: ManifestScreen | null } = {},
): Promise<Rig> {
  const srv = await startTestServer();
  const orchScreen = await loadScreen(
    (opts.orchestratorScreen ?? need(/^ready$/, screen.size, screen)).rel,
  );
  const orch = await startReplay(srv, orchScreen, { session: "agents" });
  const agent = await startReplay(srv, await loadScreen(screen.rel), {
    session: "agents",
    newWindow: true,
  });
  for (const p of [orch, agent]) {
    await srv.tmux("set-option", "-p", "-t", p.paneId, "@drover-cli", "claude");
  }
  // A CLI answers the digit at once: the double shows the answered screen when "1" arrives.
  const answered = opts.answered === undefined
    ? need(/^bash-answered$/, screen.size, screen)
    : opts.answered;
  if (answered) await agent.onKey("1", await loadScreen(answered.rel));
  const runtime = await Deno.makeTempDir({ prefix: "drover-rt-" });
  return {
    srv,
    orch,
    agent,
    runtime,
    async approve(args, env = {}) {
      const r = await drover(["-L", srv.name, "--json", "approve", ...args], {
        env: { XDG_RUNTIME_DIR: runtime, ...env },
      });
      // approve has exited: once the doubles read their sentinels, a stray key would be there.
      return {
        code: r.code,
        out: envelope(r),
        keys: await agent.settled(),
        orchKeys: await orch.settled(),
      };
    },
    async [Symbol.asyncDispose]() {
      await cleanupReplay(orch);
      await cleanupReplay(agent);
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
      await srv[Symbol.asyncDispose]();
    },
  };
}

/** Permission prompts whose option 1 is no one-time yes: refused (not-affirmative, exit 18). */
const NOT_AFFIRMATIVE = /^auto-no-first-prompt$/;
/**
 * The rig builds its other panes from this version's screens at the prompt's size; issue 21's
 * multi-line prompt is recorded at 60x20 and 200x50 only, where those screens do not exist yet.
 */
const OWN_SIZES_ONLY = /^bash-prompt-multiline$/;
const PROMPTS = ALL.filter((s) =>
  s.state === "prompt" && !NOT_AFFIRMATIVE.test(s.scenario) && !OWN_SIZES_ONLY.test(s.scenario)
);

Deno.test("recorded permission prompts exist to test against", () => {
  assert.ok(PROMPTS.length >= 8, `only ${PROMPTS.length} recorded permission prompts`);
  assert.ok(new Set(PROMPTS.map(versionOf)).size >= 2, "prompts of both versions");
});

for (const s of PROMPTS) {
  Deno.test(`approve sends exactly "1" on the live prompt ${s.rel}`, async () => {
    await using r = await rig(s);
    const res = await r.approve(["agents:1.0"]);
    assert.equal(res.code, 0, JSON.stringify(res.out));
    assert.equal(res.out.schema, "drover.approve.v1");
    assert.equal(res.out.data.outcome, "approved");
    assert.deepEqual(res.out.data.sent, ["1"]);
    assert.equal(res.keys, "1");
    assert.equal(res.orchKeys, "");
  });
}

Deno.test("approve --dry-run reports what it would press and sends nothing", async () => {
  await using r = await rig(need(/^bash-prompt$/));
  const res = await r.approve(["--dry-run", "agents:1.0"]);
  assert.equal(res.code, 0);
  assert.equal(res.out.data.outcome, "would-approve");
  assert.equal(res.out.data.key, "1");
  assert.deepEqual(res.out.data.sent, []);
  assert.equal(res.out.data.before.permission_prompt, true);
  assert.equal(res.keys, "");
});

Deno.test("approve never answers the orchestrator pane, even on a live prompt", async () => {
  const prompt = need(/^bash-prompt$/);
  await using r = await rig(prompt, { orchestratorScreen: prompt });
  const res = await r.approve(["agents:0.0"]);
  assert.equal(res.code, 10);
  assert.equal(res.out.data.outcome, "refused");
  assert.equal(res.out.data.reason, "orchestrator");
  assert.equal(res.orchKeys, "");
  const dry = await r.approve(["--dry-run", r.orch.paneId]);
  assert.equal(dry.code, 10);
});

Deno.test("a configured [drive].orchestrator is refused too", async () => {
  await using r = await rig(need(/^bash-prompt$/));
  const cfg = `${r.runtime}/config.toml`;
  await Deno.writeTextFile(cfg, `[drive]\norchestrator = "agents:1.0"\n`);
  const res = await r.approve(["agents:1.0"], { DROVER_CONFIG: cfg });
  assert.equal(res.code, 10);
  assert.equal(res.out.data.reason, "orchestrator");
  assert.equal(res.keys, "");
});

for (const scenario of [/^bash-answered$/, /^bash-rejected$/, /^narration$/, /^ready$/, /^busy$/]) {
  for (const size of ["120x40", "80x24"]) {
    Deno.test(`approve sends nothing on ${scenario.source} @${size} (no live prompt)`, async () => {
      await using r = await rig(need(scenario, size));
      const res = await r.approve(["agents:1.0"]);
      assert.equal(res.code, 12, JSON.stringify(res.out));
      assert.equal(res.out.data.reason, "no-live-prompt");
      assert.equal(res.keys, "");
    });
  }
}

for (
  const scenario of [
    /^bypass-warning$/,
    /^api-key-dialog$/,
    /^trust-dialog$/,
    /^auto-cant-check$/,
    /^fullscreen-upsell$/,
    /^model-picker$/,
    /^question-picker$/,
  ]
) {
  for (const s of ALL.filter((x) => scenario.test(x.scenario) && x.size === "120x40")) {
    Deno.test(`approve refuses the non-permission dialog ${s.rel}`, async () => {
      await using r = await rig(s);
      const res = await r.approve(["agents:1.0"]);
      assert.equal(res.code, 13, JSON.stringify(res.out));
      assert.equal(res.out.data.reason, "dialog");
      assert.equal(res.keys, "");
    });
  }
}

// Dialogs without a footer a live marker anchors: not live, so nothing to answer.
for (const scenario of [/^auto-mode-question$/, /^plan-exit$/, /^theme-dialog$/]) {
  for (const s of ALL.filter((x) => scenario.test(x.scenario))) {
    Deno.test(`approve sends nothing on the dialog ${s.rel}`, async () => {
      await using r = await rig(s);
      const res = await r.approve(["agents:1.0"]);
      assert.equal(res.code, 12, JSON.stringify(res.out));
      assert.equal(res.out.data.reason, "no-live-prompt");
      assert.equal(res.keys, "");
    });
  }
}

// Usage-limit menus: the CLI is unavailable; option 1 ("Stop and wait …") is never pressed.
for (const s of ALL.filter((x) => /-limit-options$/.test(x.scenario))) {
  Deno.test(`approve sends nothing on the usage-limit menu ${s.rel}`, async () => {
    await using r = await rig(s);
    const res = await r.approve(["agents:1.0"]);
    assert.equal(res.code, 13, JSON.stringify(res.out));
    assert.equal(res.keys, "");
  });
}

for (const s of ALL.filter((x) => NOT_AFFIRMATIVE.test(x.scenario))) {
  Deno.test(`approve refuses the No-first prompt ${s.rel} (not-affirmative, exit 18)`, async () => {
    await using r = await rig(s);
    const res = await r.approve(["agents:1.0"]);
    assert.equal(res.code, 18, JSON.stringify(res.out));
    assert.equal(res.out.data.reason, "not-affirmative");
    assert.deepEqual(res.out.data.sent, []);
    assert.equal(res.keys, "");
    const dry = await r.approve(["--dry-run", "agents:1.0"]);
    assert.equal(dry.code, 18);
    assert.equal(dry.keys, "");
  });
}

/**
 * A hostile profile (a .drover/config.toml an agent could write) tries every field that could
 * move the gate towards pressing: it calls "No" affirmative, empties the rejection, mode-switch
 * and broad-grant wordings, relabels the choices as a row, and makes the first-run question look
 * like a live permission prompt. The gate only ever refuses more: no key is sent.
 */
const HOSTILE = [
  "[clis.claude.prompt_profile]",
  'affirmative_option_markers = ["No", "Yes", "Upgrade", "Stop"]',
  'rejection_option_markers = ["zzz-never-shown"]',
  'mode_switch_option_markers = ["zzz-never-shown"]',
  'broad_grant_marker = "zzz-never-shown"',
  'broad_grant_markers = ["zzz-never-shown"]',
  'choice_row_markers = ["Yes", "No"]',
  'live_prompt_markers = ["do you want to", "esc to cancel", "keep manual mode", "exit plan mode"]',
  'approval_markers = ["do you want to proceed", "make auto mode", "can\'t check actions", "exit plan mode", "what do you want to do"]',
  "",
].join("\n");

for (
  const scenario of [
    /^auto-no-first-prompt$/,
    /^auto-mode-question$/,
    /^auto-cant-check$/,
    /^plan-exit$/,
    /^bypass-warning$/,
    /^trust-dialog$/,
    /^session-limit-options$/,
  ]
) {
  for (const s of ALL.filter((x) => scenario.test(x.scenario) && x.size === "120x40")) {
    Deno.test(`a hostile profile cannot make approve press on ${s.rel}`, async () => {
      await using r = await rig(s);
      const cfg = `${r.runtime}/hostile.toml`;
      await Deno.writeTextFile(cfg, HOSTILE);
      const res = await r.approve(["--config", cfg, "agents:1.0"]);
      assert.notEqual(res.code, 0, JSON.stringify(res.out));
      assert.equal(res.out.data.outcome, "refused", JSON.stringify(res.out));
      assert.deepEqual(res.out.data.sent, []);
      assert.equal(res.keys, "");
    });
  }
}

Deno.test("approve refuses when option 1 carries the broad-grant marker", async () => {
  await using r = await rig(need(/^bash-prompt-dir$/));
  const cfg = `${r.runtime}/config.toml`;
  // A profile can only make approve refuse: here it calls option 1's wording a broad grant.
  await Deno.writeTextFile(
    cfg,
    `[clis.claude.prompt_profile]\nbroad_grant_marker = "yes"\n`,
  );
  const res = await r.approve(["--config", cfg, "agents:1.0"]);
  assert.equal(res.code, 14, JSON.stringify(res.out));
  assert.equal(res.out.data.reason, "broad-grant");
  assert.equal(res.keys, "");
});

/**
 * `drover approve`'s own path, run in-process so a test can inject the hook that runs between the
 * gate capture and the re-confirm capture (lib/approve takes it as an option; the product reads no
 * seam from its environment). Resolution, judge and claim directory are the CLI's.
 */
async function approveWithHook(r: Rig, target: string, hook: () => Promise<void>) {
  const server = selectServer({ socketName: r.srv.name });
  const view = await viewTarget(server, EMPTY_CONFIG, target, {});
  const outcome = await approve({
    server,
    pane: view.pane,
    orchestrator: { is: view.role === "orchestrator", why: view.roleWhy },
    judge: makeJudge(view.identified.cli, EMPTY_CONFIG, view.pane.title),
    dryRun: false,
    socketPath: await socketPath(server),
    beforeReconfirm: hook,
  });
  // approve() has returned: once the double reads its sentinel, a stray key would be there.
  return { code: outcome.exit_code, out: { data: outcome }, keys: await r.agent.settled() };
}

Deno.test("approve sends nothing when the prompt clears between the gate capture and the send", async () => {
  const prompt = need(/^bash-prompt$/);
  await using r = await rig(prompt);
  const answered = await loadScreen(need(/^bash-answered$/).rel);
  const res = await approveWithHook(r, "agents:1.0", () => r.agent.show(answered));
  assert.equal(res.code, 16, JSON.stringify(res.out));
  assert.equal(res.out.data.reason, "prompt-changed");
  assert.equal(res.keys, "");
});

Deno.test("approve sends nothing when another prompt replaced the first before the send", async () => {
  await using r = await rig(need(/^bash-prompt$/));
  const other = await loadScreen(need(/^bash-prompt-npm$/).rel);
  const res = await approveWithHook(r, "agents:1.0", () => r.agent.show(other));
  assert.equal(res.code, 16, JSON.stringify(res.out));
  assert.equal(res.keys, "");
});

Deno.test("approve reads no test seam from its environment: the old hook variable does nothing", async () => {
  await using r = await rig(need(/^bash-prompt$/));
  const canary = `${r.runtime}/hook-ran`;
  const res = await r.approve(["agents:1.0"], {
    DROVER_TEST_HOOK_BEFORE_RECONFIRM: `touch '${canary}'`,
  });
  assert.equal(res.code, 0, JSON.stringify(res.out));
  assert.equal(res.keys, "1");
  await assert.rejects(() => Deno.stat(canary), "the variable ran a command");
});

async function socketOf(srv: TestServer): Promise<string> {
  return (await srv.tmux("display-message", "-p", "#{socket_path}")).trim();
}

Deno.test("approve sends nothing while another approver holds the pane's claim; a stale claim is stolen", async () => {
  await using r = await rig(need(/^bash-prompt$/));
  // Where every approver of this user looks (lib/approve/claim.ts), whatever XDG_RUNTIME_DIR says.
  const paths = await claimPaths(await socketOf(r.srv), r.agent.paneId);
  const path = paths.at(-1)!;
  try {
    await Deno.writeTextFile(path, "other approver\n");
    const held = await r.approve(["agents:1.0"]);
    assert.equal(held.code, 11, JSON.stringify(held.out));
    assert.equal(held.out.data.reason, "claimed");
    assert.match(held.out.data.message, /\(other approver, 0s old, /);
    assert.equal(held.keys, "");
    const old = new Date(Date.now() - 11_000);
    await Deno.utime(path, old, old);
    const stolen = await r.approve(["agents:1.0"]);
    assert.equal(stolen.code, 0, JSON.stringify(stolen.out));
    assert.equal(stolen.keys, "1");
    for (const p of paths) {
      await assert.rejects(
        () => Deno.lstat(p),
        Deno.errors.NotFound,
        "released after the approval",
      );
    }
  } finally {
    await Deno.remove(path).catch(() => {});
  }
});

Deno.test("a digit that does not take gets one Enter, never more", async () => {
  // The double does not react to keys: the prompt stays on screen with option 1 selected.
  await using r = await rig(need(/^bash-prompt$/), { answered: null });
  const res = await r.approve(["agents:1.0"]);
  assert.equal(res.code, 17, JSON.stringify(res.out));
  assert.equal(res.out.data.outcome, "unconfirmed");
  assert.deepEqual(res.out.data.sent, ["1", "Enter"]);
  assert.equal(res.keys, "1\r");
});

Deno.test("approve errors: unknown pane, bad target, no server — nothing sent", async () => {
  await using r = await rig(need(/^bash-prompt$/));
  const missing = await r.approve(["agents:7.0"]);
  assert.equal(missing.code, 4);
  assert.equal(missing.out.error.code, "TARGET_NOT_FOUND");
  const bad = await r.approve(["agents"]);
  assert.equal(bad.code, 2);
  assert.equal(bad.out.error.code, "INVALID_ARGUMENT");
  const gone = await drover(["-L", `${r.srv.name}-none`, "approve", "%1"]);
  assert.equal(gone.code, 3);
  assert.match(gone.stderr, /TMUX_UNAVAILABLE/);
  assert.equal(r.srv.name.length > 0 && (await r.agent.keys()), "");
});
