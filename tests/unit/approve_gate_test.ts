import assert from "node:assert/strict";
import { APPROVE_EXIT, fingerprint, gate, type GateVerdicts } from "../../lib/approve/gate.ts";
import { acquireClaim, claimDir, claimName, peekClaim } from "../../lib/approve/claim.ts";
import { type GateWords, gateWordsFor, shippedGateWords } from "../../lib/profile/gate_words.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { parseConfig } from "../../lib/config/load.ts";

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
    const first = await acquireClaim(dir, name);
    assert.ok(first.ok);
    const second = await acquireClaim(dir, name);
    assert.ok(!second.ok);
    assert.ok((await peekClaim(dir, name)).held);
    // Age the claim past the TTL: it is stolen once.
    const old = new Date(Date.now() - 11_000);
    await Deno.utime(`${dir}/${name}`, old, old);
    const third = await acquireClaim(dir, name);
    assert.ok(third.ok && third.stole);
    // The first holder's release must not remove the thief's claim.
    if (first.ok) await first.claim.release();
    assert.ok((await peekClaim(dir, name)).held);
    if (third.ok) await third.claim.release();
    assert.ok(!(await peekClaim(dir, name)).held);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("claim dir: XDG_RUNTIME_DIR, else /tmp/drover-<uid>", () => {
  assert.equal(claimDir({ XDG_RUNTIME_DIR: "/run/user/5" }), "/run/user/5/drover/claims");
  assert.match(claimDir({}), /^\/tmp\/drover-[0-9]+\/claims$/);
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
