/**
 * The tmux argv boundary (issue 17): only lib/tmux spawns tmux, only through `tmux()`, and
 * `tmux()` only takes TmuxArgs made by lib/tmux/arg.ts. The escapes themselves are proven against
 * a real tmux in tests/e2e/tmux_test.ts; here: their text, and a scan of the source tree.
 */
import assert from "node:assert/strict";
import { data, fmt, num, paneId, SEP, text, type TmuxArg, word } from "../../lib/tmux/arg.ts";
import { tmux } from "../../lib/tmux/run.ts";
import { DroverError } from "../../lib/errors.ts";

const LIB = new URL("../../lib/", import.meta.url).pathname;

Deno.test("data() moves a final ; behind a backslash; nothing else changes", () => {
  assert.equal(data("plain"), "plain");
  assert.equal(data("a;"), "a\\;");
  assert.equal(data("a\\;"), "a\\\\;");
  assert.equal(data(";"), "\\;");
  assert.equal(data(";;"), ";\\;");
  assert.equal(data("mid;dle"), "mid;dle");
  assert.equal(data("#{pane_id}"), "#{pane_id}");
  assert.equal(data(""), "");
});

Deno.test("text() doubles every # (then escapes a final ;)", () => {
  assert.equal(text("T#(touch x)#{pane_id}"), "T##(touch x)##{pane_id}");
  assert.equal(text("fix#;"), "fix##\\;");
  assert.equal(text("##"), "####");
});

Deno.test("fmt keeps its literal parts and doubles the #s of interpolated values", () => {
  const sep = "#x;";
  assert.equal(fmt`#{pane_id}${sep}#{pane_title}`, "#{pane_id}##x;#{pane_title}");
  assert.equal(fmt`#{a}${";"}`, "#{a}\\;");
});

Deno.test("word, num, paneId, SEP", () => {
  assert.equal(word("send-keys"), "send-keys");
  assert.throws(() => word("x;"));
  assert.equal(num(-200), "-200");
  assert.throws(() => num(1.5));
  assert.equal(paneId("%12"), "%12");
  for (const bad of ["%12;", "12", "%", "%1 ", "=s:0.0"]) {
    assert.throws(() => paneId(bad), (e: unknown) => e instanceof DroverError);
  }
  assert.equal(SEP, ";");
});

Deno.test("tmux() takes no plain strings (a compile-time guarantee)", () => {
  // Never called: only type-checked.
  const _typed = () => {
    // @ts-expect-error a plain string array cannot reach tmux
    tmux({}, ["send-keys", "-t", "%1", "x;"]);
    const s: string = "user text";
    // @ts-expect-error a variable is not a word
    word(s);
    // @ts-expect-error nor a template with a variable in it
    word(`${s}:`);
    const ok: TmuxArg[] = [word("list-panes"), data(s)];
    return ok;
  };
  assert.equal(typeof _typed, "function");
});

async function libFiles(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = `${dir}${e.name}`;
      if (e.isDirectory) await walk(`${p}/`);
      else if (e.name.endsWith(".ts")) out.set(p.slice(LIB.length), await Deno.readTextFile(p));
    }
  };
  await walk(LIB);
  return out;
}

/** Files that start processes, and what they start (none of them is tmux). */
const SPAWNERS: Record<string, string> = {
  "tmux/run.ts": "tmux itself: the one primitive",
  "identify/procs.ts": "ps, where /proc is missing",
  "drive/hook.ts": "the user's --on-escalate hook",
  "launch/availability.ts": "the login shell probing PATH",
  "verify/find.ts": "the agent CLI's --version (verify)",
};

Deno.test("scan: only lib/tmux/run.ts spawns tmux; nothing outside lib/tmux calls tmux()", async () => {
  const files = await libFiles();
  assert.ok(files.size > 20);
  for (const [path, src] of files) {
    if (/new Deno\.Command\(|Deno\.run\(/.test(src)) {
      assert.ok(path in SPAWNERS, `${path} starts a process: review it and list it in SPAWNERS`);
      if (path !== "tmux/run.ts") {
        assert.ok(!/Command\(\s*["'`][^"'`]*tmux/.test(src), `${path} spawns tmux`);
      }
    }
    if (!path.startsWith("tmux/")) {
      // Value imports of the primitive (type imports are fine).
      for (const m of src.matchAll(/import\s*\{([^}]*)\}\s*from\s*"[./]*tmux\/(run|arg)\.ts"/g)) {
        const names = m[1]!.split(",").map((n) => n.trim()).filter((n) =>
          n && !n.startsWith("type ")
        );
        const bad = names.filter((n) =>
          /^(tmux|tmuxFailure|word|data|text|fmt|num|paneId|SEP)\b/.test(n)
        );
        assert.deepEqual(bad, [], `${path} imports ${bad.join(", ")} from lib/tmux internals`);
      }
    }
  }
});

Deno.test("scan: TmuxArg is only minted in lib/tmux/arg.ts; fmt is only used as a tag", async () => {
  for (const [path, src] of await libFiles()) {
    if (path !== "tmux/arg.ts") {
      assert.ok(!/as\s+TmuxArg/.test(src), `${path} casts to TmuxArg`);
      assert.ok(!/\bfmt\(/.test(src), `${path} calls fmt() directly (use it as a template tag)`);
    }
  }
});
