import assert from "node:assert/strict";
import { APPROVE_EXIT, fingerprint, gate, type GateVerdicts } from "../../lib/approve/gate.ts";
import {
  acquireClaim,
  claimName,
  claimPathError,
  claimPaths,
  peekClaim,
} from "../../lib/approve/claim.ts";
import { runtimeBases } from "../../lib/io/user_dirs.ts";
import { type GateWords, gateWordsFor, shippedGateWords } from "../../lib/profile/gate_words.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { parseConfig } from "../../lib/config/load.ts";
import { rebuild } from "../../lib/config/cache.ts";
import { payloadOf } from "../../lib/config/cache_payload.ts";
import { DroverError } from "../../lib/errors.ts";

const v = (over: Partial<GateVerdicts> = {}): GateVerdicts => ({
  live_prompt: true,
  permission_prompt: true,
  command: "touch x",
  file_path: null,
  options: [
    { number: 1, text: "Yes", selected: true },
    { number: 2, text: "No", selected: false },
  ],
  broad_grant_option: null,
  ...over,
});

Deno.test("gate: live permission prompt → digit 1", () => {
  assert.deepEqual(gate(v()), { ok: true, form: "digit", key: "1", option: "Yes" });
});

Deno.test("gate: refusals name their reason", () => {
  const r = (x: GateVerdicts) => {
    const g = gate(x);
    return g.ok ? "ok" : g.reason;
  };
  assert.equal(r(v({ live_prompt: false })), "no-live-prompt");
  assert.equal(r(v({ permission_prompt: false })), "dialog");
  assert.equal(r(v({ broad_grant_option: 1 })), "broad-grant");
  assert.equal(r(v({ broad_grant_option: 2 })), "ok");
  assert.equal(r(v({ options: [] })), "no-option-1");
  assert.equal(r(v({ options: [{ number: 2, text: "No", selected: true }] })), "no-option-1");
});

Deno.test("gate: un-numbered choice row → Enter only when the first choice is selected", () => {
  const row = (sel: number) =>
    ["Allow once", "Allow always", "Reject"].map((text, i) => ({ text, selected: i === sel }));
  assert.deepEqual(gate(v({ options: [], choice_row: row(0) })), {
    ok: true,
    form: "choice-row",
    key: "Enter",
    option: "Allow once",
  });
  const g = gate(v({ options: [], choice_row: row(1) }));
  assert.equal(g.ok ? "ok" : g.reason, "no-option-1");
  const b = gate(v({ options: [], choice_row: row(0), broad_grant_option: 1 }));
  assert.equal(b.ok ? "ok" : b.reason, "broad-grant");
});

Deno.test("gate: every refusal has its own exit code", () => {
  const codes = Object.entries(APPROVE_EXIT).filter(([k]) =>
    k !== "approved" && k !== "would-approve"
  )
    .map(([, c]) => c);
  assert.equal(new Set(codes).size, codes.length);
  assert.ok(codes.every((c) => c >= 10 && c <= 20));
});

Deno.test("fingerprint ignores selection, not the command", () => {
  const a = v();
  const b = v({ options: [{ number: 1, text: "Yes", selected: false }, a.options[1]] });
  assert.equal(fingerprint(a), fingerprint(b));
  assert.notEqual(fingerprint(a), fingerprint(v({ command: "rm x" })));
});

Deno.test("claim: exclusive, peekable, stolen only when older than 10 s, released", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const name = claimName("/tmp/tmux-0/my sock", "%7");
    assert.equal(name, "_tmp_tmux-0_my_sock_7.claim");
    const paths = [`${dir}/${name}`];
    const first = await acquireClaim(paths);
    assert.ok(first.ok);
    const second = await acquireClaim(paths);
    assert.ok(!second.ok);
    assert.ok((await peekClaim(paths)).held);
    // Age the claim past the TTL: it is stolen once.
    const old = new Date(Date.now() - 11_000);
    await Deno.utime(paths[0], old, old);
    const third = await acquireClaim(paths);
    assert.ok(third.ok && third.stole);
    // The first holder's release must not remove the thief's claim.
    if (first.ok) await first.claim.release();
    assert.ok((await peekClaim(paths)).held);
    if (third.ok) await third.claim.release();
    assert.ok(!(await peekClaim(paths)).held);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("claim: taken at every path or none — held at any one, the others are released", async () => {
  const root = await Deno.makeTempDir();
  try {
    const paths = [`${root}/a.claim`, `${root}/b.claim`];
    await Deno.writeTextFile(paths[1], "sweep.sh pid=1\n");
    const r = await acquireClaim(paths);
    assert.ok(!r.ok);
    assert.equal(!r.ok && r.path, paths[1]);
    assert.equal(!r.ok && r.holder, "sweep.sh pid=1");
    await assert.rejects(() => Deno.lstat(paths[0]), Deno.errors.NotFound, "the first is let go");
    await Deno.remove(paths[1]);
    const ok = await acquireClaim(paths);
    assert.ok(ok.ok);
    assert.deepEqual(ok.ok && ok.claim.paths, paths);
    if (ok.ok) await ok.claim.release();
    for (const p of paths) await assert.rejects(() => Deno.lstat(p), Deno.errors.NotFound);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// Issue 27 follow-up: the claim directory came from XDG_RUNTIME_DIR, so cron (env -i) and a shell
// took their claims in different directories. It is derived from the uid alone, like the lock's.
/**
 * Run `body` (a module's text, importing lib by absolute URL) in a child Deno: what it checks sets
 * process-wide state (an environment variable, the umask) that the other test files, run side by
 * side in this process's workers, must not see.
 */
async function inChild(body: string, env: Record<string, string> = {}): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", body],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  assert.equal(out.code, 0, dec.decode(out.stdout) + dec.decode(out.stderr));
}

const CLAIM_URL = new URL("../../lib/approve/claim.ts", import.meta.url).href;

Deno.test("claim paths: the per-user runtime dirs of the uid, never XDG_RUNTIME_DIR; created 0700", async () => {
  const uid = Deno.uid()!;
  assert.deepEqual(runtimeBases(uid), [`/run/user/${uid}`, `/tmp/drover-${uid}`]);
  const elsewhere = await Deno.makeTempDir();
  const root = await Deno.makeTempDir();
  try {
    await inChild(
      `import assert from "node:assert/strict";
      import { claimPaths } from ${JSON.stringify(CLAIM_URL)};
      const uid = Deno.uid();
      const elsewhere = ${JSON.stringify(elsewhere)};
      assert.equal(Deno.env.get("XDG_RUNTIME_DIR"), elsewhere);
      const real = await claimPaths("/tmp/tmux-0/s", "%3");
      assert.ok(real.length >= 1);
      assert.equal(real.at(-1), \`/tmp/drover-\${uid}/claims/_tmp_tmux-0_s_3.claim\`);
      for (const p of real) assert.ok(!p.startsWith(elsewhere), p);
      // A fresh base (as /tmp/drover-UID on a new machine), under a permissive umask: private.
      const root = ${JSON.stringify(root)};
      Deno.umask(0o000);
      const got = await claimPaths("/s", "%1", [\`\${root}/run/user/\${uid}\`, \`\${root}/drover-\${uid}\`]);
      assert.deepEqual(got, [\`\${root}/drover-\${uid}/claims/_s_1.claim\`], "a missing /run/user is skipped");
      for (const d of [\`\${root}/drover-\${uid}\`, \`\${root}/drover-\${uid}/claims\`]) {
        assert.equal((await Deno.lstat(d)).mode & 0o777, 0o700, d);
      }`,
      { XDG_RUNTIME_DIR: elsewhere },
    );
  } finally {
    await Deno.remove(elsewhere, { recursive: true });
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("claim paths: no private runtime dir → 74, naming why; nothing to take", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/open`);
    await Deno.chmod(`${root}/open`, 0o777);
    await Deno.symlink(`${root}/open`, `${root}/link`);
    await assert.rejects(
      () => claimPaths("/s", "%1", [`${root}/open`, `${root}/link`]),
      (e: unknown) => {
        assert.ok(e instanceof DroverError && e.code === "STATE_UNWRITABLE" && e.exitCode === 74);
        assert.match(e.message, /writable by others \(mode 777\)/);
        assert.match(e.message, /is a symbolic link/);
        assert.match(e.message, /nothing was sent/);
        return true;
      },
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("claim: a symlink, FIFO or directory at a claim path is refused (74), left as it is, its target untouched", async () => {
  const root = await Deno.makeTempDir();
  try {
    const target = `${root}/target`;
    await Deno.writeTextFile(target, "SECRET\n");
    const old = new Date(Date.now() - 60_000);
    await Deno.utime(target, old, old);
    const path = `${root}/p.claim`;
    const plant = {
      symlink: () => Deno.symlink(target, path),
      dangling: () => Deno.symlink(`${root}/none`, path),
      fifo: async () => {
        const r = await new Deno.Command("mkfifo", { args: [path] }).output();
        assert.equal(r.code, 0);
      },
      directory: () => Deno.mkdir(path),
    };
    for (const [kind, make] of Object.entries(plant)) {
      await make();
      // Aged past the TTL, so the old code stole it like any stale claim.
      await new Deno.Command("touch", { args: ["-h", "-d", "@1", path] }).output();
      const before = await Deno.lstat(path);
      for (const attempt of [() => acquireClaim([path]), () => peekClaim([path])]) {
        await assert.rejects(attempt, (e: unknown) => {
          const err = claimPathError(e);
          assert.ok(err && err.exitCode === 74, `${kind}: ${e}`);
          assert.match(err.message, /stands where the pane's approve claim file .* belongs/);
          assert.doesNotMatch(err.message, /SECRET/);
          return true;
        }, kind);
      }
      const after = await Deno.lstat(path);
      assert.equal(after.ino, before.ino, `${kind}: left where it is`);
      assert.equal(await Deno.readTextFile(target), "SECRET\n");
      assert.equal((await Deno.stat(target)).mtime?.getTime(), old.getTime());
      await Deno.remove(path);
    }
    await assert.rejects(() => Deno.lstat(`${root}/none`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// ---- Option 1 must be an affirmative one-time choice (issue 10) ----

const opts = (...texts: string[]) =>
  texts.map((text, i) => ({ number: i + 1, text, selected: i === 0 }));
const reason = (x: GateVerdicts, words?: GateWords) => {
  const g = gate(x, words);
  return g.ok ? "ok" : g.reason;
};

Deno.test("gate: option 1 that rejects, switches mode or is no recognised yes is refused (18)", () => {
  assert.equal(APPROVE_EXIT["not-affirmative"], 18);
  const r = (first: string) => reason(v({ options: opts(first, "Yes") }));
  assert.equal(r("No"), "not-affirmative");
  assert.equal(r("No, exit"), "not-affirmative");
  assert.equal(r("no (recommended)"), "not-affirmative");
  assert.equal(r("Yes, and switch to default (ask each time) for this session"), "not-affirmative");
  assert.equal(r("Yes, set auto mode as my default permission mode"), "broad-grant");
  assert.equal(r("Not now"), "not-affirmative");
  assert.equal(r("Yesterday's build"), "not-affirmative", "a word, not a prefix");
  assert.equal(r("Upgrade your plan"), "not-affirmative");
  assert.equal(r("Stop and wait for limit to reset"), "not-affirmative");
  assert.equal(r(""), "not-affirmative");
  assert.equal(r("Yes"), "ok");
  assert.equal(r("yes, proceed (y)"), "ok");
  assert.equal(r("Allow once"), "ok", "shipped wordings of any CLI when the pane's is unknown");
});

Deno.test("gate: a permissive mode switch or a durable grant on option 1 is a broad grant (14)", () => {
  const r = (first: string) => reason(v({ options: opts(first, "No") }));
  assert.equal(
    r("Yes, and switch to auto mode · auto mode handles these prompts for you"),
    "broad-grant",
  );
  assert.equal(
    r("Yes, and switch to accept edits (auto-approve file edits) for this session"),
    "broad-grant",
  );
  assert.equal(r("Yes, allow all edits during this session (shift+tab)"), "broad-grant");
  assert.equal(r("Yes, and don’t ask again for: npm run *"), "broad-grant");
  assert.equal(r("Yes, and don't ask again for: npm run *"), "broad-grant");
});

Deno.test("gate: un-numbered choices — never Enter on No, never on an unselected first choice", () => {
  const col = (sel: number, ...texts: string[]) =>
    texts.map((text, i) => ({ text, selected: i === sel }));
  assert.equal(reason(v({ options: [], choice_row: col(0, "No", "Yes") })), "not-affirmative");
  assert.equal(reason(v({ options: [], choice_row: col(1, "No", "Yes") })), "not-affirmative");
  assert.equal(reason(v({ options: [], choice_row: col(1, "Yes", "No") })), "no-option-1");
  assert.equal(
    reason(v({ options: [], choice_row: col(0, "No, exit", "Yes, I accept") })),
    "not-affirmative",
  );
  const ok = gate(v({ options: [], choice_row: col(0, "Yes", "No") }));
  assert.deepEqual(ok, { ok: true, form: "choice-row", key: "Enter", option: "Yes" });
});

Deno.test("gate: a shipped dialog heading in the modal makes it a dialog, whatever the verdicts say", () => {
  assert.equal(reason(v({ modal_dialog: "exit plan mode?" })), "dialog");
  assert.equal(reason(v({ modal_dialog: null })), "ok");
});

Deno.test("gate words: a hostile profile can only make the gate refuse more", () => {
  const hostile = parseConfig(
    [
      "[clis.claude.prompt_profile]",
      'affirmative_option_markers = ["No", "Upgrade", "Allow always"]',
      'rejection_option_markers = ["zzz"]',
      'mode_switch_option_markers = ["zzz"]',
      'broad_grant_marker = "zzz"',
      'broad_grant_markers = ["zzz"]',
      'dialog_markers = ["zzz"]',
      "",
    ].join("\n"),
    "/tmp/hostile.toml",
  );
  const words = gateWordsFor(resolveProfile("claude", hostile));
  const shipped = shippedGateWords();
  for (const k of ["rejection", "modeSwitch", "broadGrant", "dialog"] as const) {
    for (const m of shipped[k]) assert.ok(words[k].includes(m), `${k} lost "${m}"`);
  }
  const r = (first: string) => reason(v({ options: opts(first, "Yes") }), words);
  assert.equal(r("No"), "not-affirmative");
  assert.equal(r("Upgrade your plan"), "not-affirmative", "not affirmative in any shipped profile");
  assert.equal(r("Yes, and switch to auto mode"), "broad-grant");
  assert.equal(r("Yes, and don’t ask again for: rm *"), "broad-grant");
  assert.equal(r("Allow always"), "broad-grant");
  assert.equal(r("Yes"), "not-affirmative", "the profile narrowed its own yes to No/Upgrade");
  // A profile that adds wordings refuses more.
  const strict = gateWordsFor(resolveProfile(
    "claude",
    parseConfig(
      '[clis.claude.prompt_profile]\nrejection_option_markers = ["Yes"]\n',
      "/tmp/strict.toml",
    ),
  ));
  assert.equal(reason(v(), strict), "not-affirmative");
});

Deno.test("gate words: a configuration cache forged to widen the gate still only narrows it", () => {
  // What a forger with a correct digest could hand a warm start (lib/config/cache.ts): the
  // payload of an ordinary file, its gate wordings rewritten to approve more.
  const payload = payloadOf(parseConfig(
    '[clis.claude.prompt_profile]\naffirmative_option_markers = ["Yes"]\n',
    "/tmp/cached.toml",
  ))!;
  const profile = payload.clis[0].promptProfile;
  profile.affirmative_option_markers = ["Yes", "No", "Allow always", "Upgrade"];
  profile.rejection_option_markers = ["zzz"];
  profile.broad_grant_marker = "zzz";
  const forged = rebuild(payload, "/tmp/cached.toml", "flag");
  assert.ok(forged, "valid values: the cache rules take them");
  const words = gateWordsFor(resolveProfile("claude", forged));
  const shipped = shippedGateWords();
  for (const k of ["rejection", "modeSwitch", "broadGrant", "dialog"] as const) {
    for (const m of shipped[k]) assert.ok(words[k].includes(m), `${k} lost "${m}"`);
  }
  const r = (first: string) => reason(v({ options: opts(first, "Yes") }), words);
  assert.equal(r("No"), "not-affirmative");
  assert.equal(r("Upgrade your plan"), "not-affirmative");
  assert.equal(r("Allow always"), "broad-grant");
  assert.equal(r("Yes, and don’t ask again for: rm *"), "broad-grant");
  // And what it cannot say at all is refused before it reaches the gate.
  profile.rejection_option_markers = [];
  assert.equal(rebuild(payload, "/tmp/cached.toml", "flag"), null);
});
