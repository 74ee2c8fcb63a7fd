/**
 * A long command the CLI soft-wraps at a space (dropping the space) reads as the command itself,
 * not with a line break where the pane happened to end. Found on held-out real screens
 * (tests/fixtures/unseen/claude-code/<v>/bash-wrap@100x30: 2.1.332 even wraps inside a quoted
 * string, `+ '` / `ok')`), checked here on the recorded fixtures and on hand-made shapes.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const claude = resolveProfile("claude", EMPTY_CONFIG);
const FIX = new URL("../fixtures/", import.meta.url).pathname;
const LONG_CMD =
  "find . -name '*.ts' -not -path './node_modules/*' -newer package.json -exec grep -l 'TODO(release)' {} + | sort | tee todo-files.txt";
const WRAP_CMD =
  `node -e "for (const f of ['alpha', 'beta', 'gamma', 'delta']) console.log(f.padEnd(12, '.') + ' ok')" ` +
  "&& npm run lint -- --max-warnings=0 --format=compact --output-file=reports/lint-report.txt";

async function judge(rel: string) {
  const plain = await Deno.readTextFile(`${FIX}${rel}`);
  const styled = await Deno.readTextFile(`${FIX}${rel.replace(/\.txt$/, ".ansi.txt")}`);
  return detect({ plain, styled }, claude);
}

Deno.test("command: a soft-wrapped command on real screens reads whole (boxed 2.1.332, unboxed 2.1.197)", async () => {
  for (const v of ["2.1.197", "2.1.332"]) {
    const long = await judge(`claude-code/${v}/bash-prompt-long@80x24.txt`);
    assert.equal(long.command, LONG_CMD, `${v} bash-prompt-long@80x24`);
    const wide = await judge(`claude-code/${v}/bash-prompt-long@120x40.txt`);
    assert.equal(wide.command, LONG_CMD, `${v} bash-prompt-long@120x40`);
    const wrap = await judge(`unseen/claude-code/${v}/bash-wrap@100x30.txt`);
    assert.equal(wrap.command, WRAP_CMD, `${v} bash-wrap@100x30`);
  }
});

const RULE = "─".repeat(60);
const DASH = "╌".repeat(60);
const box = (...rows: string[]) =>
  [
    RULE,
    " Bash command",
    " Run it",
    DASH,
    ...rows.map((r) => ` │ ${r}`),
    DASH,
    " Do you want to proceed?",
    " ❯ 1. Yes",
    "   2. No",
    " Esc to cancel",
  ].join("\n") + "\n";

Deno.test("command: a line break of the command's own stays a line break (hand-made, 60 columns)", () => {
  // Short first line: the next word would have fitted, so the break is the command's.
  assert.equal(
    detect({ plain: box("npm test", "node evil.js") }, claude).command,
    "npm test\nnode evil.js",
  );
  // A first line that ends 15 columns short of the edge: "node" would have fitted.
  const mid = "npm test -- --reporter=dot --bail=1 --x=12";
  assert.equal(mid.length + 3, 45);
  assert.equal(detect({ plain: box(mid, "node evil.js") }, claude).command, `${mid}\nnode evil.js`);
  // Ending at the edge with a next word that cannot fit: the CLI's soft wrap.
  const full = "npm test -- --reporter=dot --bail=1 --grep=login-flow-a";
  assert.equal(full.length + 3, 58);
  assert.equal(
    detect({ plain: box(full, "--timeout=2000") }, claude).command,
    `${full} --timeout=2000`,
  );
  // No rule spans the screen: its width is unknown, every break stays.
  const narrow = [
    "────",
    " Bash command",
    "   npm test -- --reporter=dot --bail=1 --grep=login-flow-a",
    "   --timeout=2000",
    " Do you want to proceed?",
    " ❯ 1. Yes",
    " Esc to cancel",
  ].join("\n") + "\n";
  assert.equal(
    detect({ plain: narrow }, claude).command,
    "npm test -- --reporter=dot --bail=1 --grep=login-flow-a\n--timeout=2000",
  );
});

const qwen = resolveProfile("qwen", EMPTY_CONFIG);
const QWEN_WRAP =
  "git log --since='2 weeks ago' --pretty=format:'%h %an %s' --no-merges -- src/auth src/session " +
  "| grep -v 'chore(deps)' | head -n 40 > reports/auth-changes.txt";

Deno.test("command: a wrapped tool line keeps its right-aligned trailer on its first row (Qwen Code 0.24.4)", async () => {
  const rel = "unseen/qwen/0.24.4/shell-wrap@100x30.txt";
  const plain = await Deno.readTextFile(`${FIX}${rel}`);
  assert.equal(detect({ plain }, qwen).command, QWEN_WRAP);
  // Hand-made from that shape: the arrow ends the first row, the description the last.
  const screen = (...tool: string[]) =>
    [
      "  > run it",
      ...tool,
      "     npm run lint",
      "   Allow execution of: 'npm'?",
      "   › 1. Yes, allow once",
      "     2. No, suggest changes (esc)",
      "  ⠏ Waiting for user confirmation...",
    ].join("\n") + "\n";
  assert.equal(
    detect(
      { plain: screen("  ? Shell npm run lint -- --fix      ←", "    --quiet (Fix lint)") },
      qwen,
    )
      .command,
    "npm run lint -- --fix --quiet",
  );
  // One row: as before.
  assert.equal(
    detect({ plain: screen("  ? Shell npm run lint (Fix lint) ←") }, qwen).command,
    "npm run lint",
  );
  // A row below that is not indented deeper is no continuation: nothing is read.
  assert.equal(
    detect(
      { plain: screen("  ? Shell npm run lint -- --fix      ←", "  --quiet (Fix lint)") },
      qwen,
    )
      .command,
    null,
  );
});
