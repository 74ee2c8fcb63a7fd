import assert from "node:assert/strict";
import { APPROVE_EXIT, fingerprint, gate, type GateVerdicts } from "../../lib/approve/gate.ts";
import { acquireClaim, claimDir, claimName, peekClaim } from "../../lib/approve/claim.ts";

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
