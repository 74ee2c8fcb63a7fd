/**
 * Where a limit counts (issue 27, lib/detect/blocks.ts): a limit line is live only where the CLI
 * draws it — the last block above the input box, a limit menu, a dialog in place of both — never
 * inside an answer, a tool's output or the user's own message, and never above newer work. The
 * recorded screens of every CLI are held by detect_fixtures_test / detect_other_clis_test /
 * detect_limit_test; this file holds the rule on shapes the lab did not record, each a
 * HAND-MADE screen built from the layout of a named recorded one (labelled where it is built),
 * and the reset window of detect() on the hand-made reset variants.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { glyphOf, isBorder } from "../../lib/detect/blocks.ts";
import { TRUSTED_RESET_AHEAD_MS } from "../../lib/detect/limit.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const claude = resolveProfile("claude", EMPTY_CONFIG);
const codex = resolveProfile("codex", EMPTY_CONFIG);
const gemini = resolveProfile("gemini", EMPTY_CONFIG);
const NOW = Date.parse("2026-12-01T03:00:00Z");
const HAND = new URL("../fixtures/hand-made/claude-code/", import.meta.url).pathname;

const RULE = "─".repeat(60);
const BANNER = "You've hit your 5-hour limit · resets 6:34am (UTC)";
/** Claude Code 2.1.332's input box and footer (session-limit@80x24). */
const BOX = [RULE, "❯ ", RULE, "  ⏸ manual mode on · ? for shortcuts · ← for agents"];
const claudeScreen = (...transcript: string[]) => [...transcript, "", ...BOX].join("\n") + "\n";
const judge = (plain: string, p = claude) => detect({ plain }, p, { now: NOW });

Deno.test("placement: glyph lines and borders", () => {
  assert.equal(glyphOf("  ⎿  text"), "⎿");
  assert.equal(glyphOf("  ⎿ \u00a0text"), "⎿");
  assert.equal(glyphOf("◆︎ The marker file"), "◆");
  assert.equal(glyphOf("ℹ This request failed."), "ℹ");
  assert.equal(glyphOf("> echo"), ">");
  assert.equal(glyphOf("  - a list item"), null);
  assert.equal(glyphOf("  “Quoted” text"), null);
  assert.equal(glyphOf("visit https://chatgpt.com"), null);
  assert.ok(isBorder(RULE));
  assert.ok(isBorder("▄▄▄▄▄▄"));
  assert.ok(isBorder("  ┃        "));
  assert.ok(isBorder("╰──────╯"));
  assert.ok(!isBorder("│ Usage limit reached │"));
});

Deno.test("placement: Claude Code's real shapes stay live (hand-made from session-limit, limit-after-tool)", () => {
  // The reply under the user's message, with the turn summary below (2.1.197's session-limit).
  const first = judge(claudeScreen("❯ say hello", `  ⎿  ${BANNER}`, "", "✻ Cogitated for 2s"));
  assert.equal(first.limit, BANNER);
  assert.equal(first.state, "unavailable");
  // Mid-turn, under the output of a tool whose header wrapped (hand-made: a longer command).
  const mid = judge(claudeScreen(
    "❯ run the build",
    "",
    "● Bash(npm run build -- --filter packages/core --filter packages/cli --reporter",
    "      json)",
    "  ⎿  built 2 packages",
    `  ⎿  ${BANNER}`,
  ));
  assert.equal(mid.limit, BANNER);
  // 2.1.332's own "continue automatically" note below the banner is the CLI's words.
  const auto = judge(claudeScreen(
    "❯ say hello",
    `  ⎿  ${BANNER}`,
    "● Usage limit reached · set to continue automatically at 6:34am",
  ));
  assert.equal(auto.limit, BANNER);
});

Deno.test("placement: quoted or superseded banners are history (hand-made from the limit-quoted-* layouts)", () => {
  const cases: Record<string, string> = {
    // the tool's output quotes it, and the tool was interrupted (a reply of the CLI's below it)
    "tool output, interrupted": claudeScreen(
      "● Bash(sh show-log.sh)",
      `  ⎿  ${BANNER}`,
      "  ⎿  Interrupted · What should Claude do instead?",
    ),
    // the banner on the answer's own first line
    "answer head line": claudeScreen("❯ what stopped it?", "", `● ${BANNER}`),
    // the user's own message carries it
    "typed message": claudeScreen(`❯ ${BANNER} — what does this mean?`),
    // a multi-line message, the banner on its second line
    "typed message, second line": claudeScreen("❯ what does this mean:", `  ${BANNER}`),
    // the CLI is working again below it
    "busy below": claudeScreen(
      "❯ say hello",
      `  ⎿  ${BANNER}`,
      "",
      "❯ continue",
      "",
      "✻ Sketching… (8s · ↓ 23 tokens)",
    ),
    // the CLI went on by itself (its own auto-continue): a newer answer, no typed echo
    "newer answer": claudeScreen(
      "❯ say hello",
      `  ⎿  ${BANNER}`,
      "● Usage limit reached · set to continue automatically at 6:34am",
      "",
      "● Resumed after the limit: carrying on with the task.",
    ),
  };
  for (const [name, plain] of Object.entries(cases)) {
    const v = judge(plain);
    assert.equal(v.limit, null, `${name}: limit`);
    assert.equal(v.cli_unavailable, null, `${name}: cli_unavailable`);
    assert.notEqual(v.state, "unavailable", name);
  }
});

Deno.test("placement: Codex and Gemini CLI shapes (hand-made from usage-limit, shell-approved, usage-limit-stopped)", () => {
  const codexBox = [
    "› Ask Codex to do anything",
    "",
    "  standin-model default · /tmp/p · Lab session",
    "  ← for agents · ? for shortcuts",
  ];
  const codexScreen = (...t: string[]) => [...t, "", ...codexBox].join("\n") + "\n";
  const banner = "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro),";
  // the real banner, wrapped in column 0, the match starting on its second line (hand-made wrap)
  const real = judge(
    codexScreen(
      "› summarise the notes",
      "",
      "■ Something went wrong on this turn.",
      banner.slice(2),
      "or try again at 6:08 AM.",
    ),
    codex,
  );
  assert.match(real.limit ?? "", /try again at 6:08 AM\./);
  // a command's output quotes it
  const tool = judge(
    codexScreen(
      "› show the log",
      "",
      "• Ran cat old.log",
      `  └ ${banner.slice(2)} or try again at 6:08 AM.`,
      "",
      "• The log holds an old banner.",
    ),
    codex,
  );
  assert.equal(tool.limit, null);
  assert.equal(tool.cli_unavailable, null);
  // the real banner, then a typed "continue" and a newer answer below it
  const then = judge(
    codexScreen(
      "› summarise the notes",
      "",
      banner,
      "or try again at 6:08 AM.",
      "",
      "› continue",
      "",
      "• Carrying on.",
    ),
    codex,
  );
  assert.equal(then.limit, null);
  // Gemini CLI: a tool box quoting its transcript's words, an answer below it
  const geminiScreen = [
    "╭────────────────────────────────────────────╮",
    "│ ✓  Shell cat old.log                       │",
    "│ Suggested retry after 5400s.               │",
    "╰────────────────────────────────────────────╯",
    "✦ The log holds an old quota error.",
    "                                ? for shortcuts",
    RULE,
    " Shift+Tab to accept edits",
    "▄".repeat(60),
    " >   Type your message or @path/to/file",
    "▀".repeat(60),
  ].join("\n") + "\n";
  assert.equal(judge(geminiScreen, gemini).limit, null);
});

Deno.test("placement: a shell pane shows no limit and no unavailable CLI, whatever it printed", () => {
  const shell = [
    "$ cat saved-screen.txt",
    "❯ say hello",
    `  ⎿  ${BANNER}`,
    "",
    RULE,
    "❯ ",
    RULE,
    "  ⏸ manual mode on · ? for shortcuts · ← for agents",
    "$ ",
  ].join("\n") + "\n";
  const v = judge(shell);
  assert.equal(v.limit, null);
  assert.equal(v.cli_unavailable, null);
});

Deno.test("placement: a reset is trusted from the capture time to 8 days ahead (hand-made reset variants)", () => {
  const read = (file: string, now = NOW) =>
    detect({ plain: Deno.readTextFileSync(HAND + file) }, claude, { now, timeZone: "UTC" });
  for (const f of ["limit-past-reset", "limit-far-reset", "limit-blank-zone"]) {
    const v = read(`${f}@120x40.txt`);
    assert.match(v.limit ?? "", /You've hit your 5-hour limit · resets /, f);
    assert.equal(v.state, "unavailable", f);
    assert.equal(v.limit_resets_at, null, `${f}: unreadable`);
  }
  // A weekly limit days ahead is read (2.1.332's weekly-limit-date: "Dec 4, 11:55am"), and the
  // same words read more than 8 days before are not.
  const weekly = new URL(
    "../fixtures/claude-code/2.1.332/weekly-limit-date@120x40.txt",
    import.meta.url,
  );
  const plain = Deno.readTextFileSync(weekly);
  const at = (now: number) => detect({ plain }, claude, { now }).limit_resets_at;
  const reset = Date.parse(at(NOW)!);
  assert.ok(reset - NOW < TRUSTED_RESET_AHEAD_MS);
  assert.equal(at(reset - TRUSTED_RESET_AHEAD_MS - 60_000), null);
  assert.equal(at(reset - TRUSTED_RESET_AHEAD_MS + 60_000), new Date(reset).toISOString());
});
