/**
 * Boundaries of the compiled detector windows and of the choice-row selection, pinned directly
 * (not only incidentally through fixtures). Each test names the mutation it catches; each was
 * checked to fail against it.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect, SHIFTED_OPTION_ABOVE } from "../../lib/detect/mod.ts";
import { gate } from "../../lib/approve/gate.ts";
import { toJudged } from "../../lib/approve/judge.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { styledChars } from "../../lib/detect/text.ts";

const claude = resolveProfile("claude", EMPTY_CONFIG);
const opencode = resolveProfile("opencode", EMPTY_CONFIG);
const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

/**
 * A shifted prompt (hand-made, Claude Code wording): option 1, `gap` non-blank lines, the footer
 * starting its line, then 10 lines below it (a task list drawn under the modal). No marker and no
 * option line sits in the last 4 lines, so only the shifted window can make it live.
 */
function shifted(gap: number): string {
  const lines = ["❯ 1. Yes"];
  for (let i = 0; i < gap; i++) lines.push(`  detail line ${i}`);
  lines.push("Esc to cancel");
  for (let i = 0; i < 10; i++) lines.push(`☐ task ${i}`);
  return lines.join("\n") + "\n";
}

// Mutations caught: SHIFTED_OPTION_ABOVE = 5 or 7 (in lib/detect), and an off-by-one in the slice
// of "the non-blank lines above the footer" (`k - SHIFTED_OPTION_ABOVE + 1`, or `<= k`).
Deno.test("shifted live window: option 1 exactly SHIFTED_OPTION_ABOVE non-blank lines above the footer is live, one more is not", () => {
  const at = (gap: number) => detect({ plain: shifted(gap) }, claude).live_prompt;
  // gap = lines between option and footer; the option is then gap + 1 lines above the footer.
  // Literal numbers on purpose (DESIGN §5 says 6): a test relative to the constant would follow it.
  assert.equal(at(5), true, "option 6 non-blank lines above the footer");
  assert.equal(at(6), false, "option 7 non-blank lines above the footer");
  assert.equal(SHIFTED_OPTION_ABOVE, 6, "the exported constant sweep.sh receives");
  // Blank lines do not count: the window is measured in non-blank lines.
  const withBlanks = shifted(5).replace(/\n {2}detail/g, "\n\n\n  detail");
  assert.equal(detect({ plain: withBlanks }, claude).live_prompt, true);
});

/**
 * The real OpenCode permission prompt (tests/fixtures/opencode/1.18.33/shell-prompt@80x24) and a
 * hand-made variant of it: the same screen with the selection drawn on "Allow always" instead of
 * "Allow once" — the SGR of the two choices swapped, nothing else changed.
 */
async function opencodePrompt(): Promise<{ plain: string; styled: string; moved: string }> {
  const base = `${FIXTURES}opencode/1.18.33/shell-prompt@80x24`;
  const plain = await Deno.readTextFile(`${base}.txt`);
  const styled = await Deno.readTextFile(`${base}.ansi.txt`);
  const bright = "\x1b[38;2;10;10;10m";
  const grey = "\x1b[38;2;128;128;128m";
  const once = `${bright}Allow once`;
  const always = `${grey}Allow always`;
  assert.ok(styled.includes(once) && styled.includes(always), "fixture chrome changed");
  const moved = styled.replace(once, `${grey}Allow once`).replace(always, `${bright}Allow always`);
  return { plain, styled, moved };
}

// Mutation caught: marking the first choice-row entry selected whatever the styles say
// (`selected: n === 0`, or `selected: true`, in lib/detect's choice row) — the approve gate would
// then press Enter on "Allow always".
Deno.test("choice row: the first entry is selected only when it is the one drawn bright", async () => {
  const { plain, styled, moved } = await opencodePrompt();
  const real = detect({ plain, styled }, opencode);
  assert.deepEqual(real.choice_row?.map((c) => c.selected), [true, false, false]);
  assert.equal(gate(toJudged(real)).ok, true);

  const other = detect({ plain, styled: moved }, opencode);
  assert.deepEqual(other.choice_row?.map((c) => c.text), ["Allow once", "Allow always", "Reject"]);
  assert.deepEqual(other.choice_row?.map((c) => c.selected), [false, true, false]);
  const g = gate(toJudged(other));
  assert.equal(g.ok, false);
  assert.equal(!g.ok && g.reason, "no-option-1");

  // No styled capture: nothing can be shown selected, so nothing is.
  const bare = detect({ plain }, opencode);
  assert.deepEqual(bare.choice_row?.map((c) => c.selected), [false, false, false]);
  assert.equal(gate(toJudged(bare)).ok, false);
});

// Mutation caught: choosing the styled line for the live choice row by text alone, first match
// first (`styled.find(…)`, as before) — an older copy of the row higher up (a scrolled-away prompt
// with "Allow once" selected) would lend its styles to the live row, where "Allow always" is.
Deno.test("choice row: the selection is read from the live row, never from an older copy above it", async () => {
  const { plain, styled, moved } = await opencodePrompt();
  const pl = plain.split("\n");
  const st = styled.split("\n");
  const mv = moved.split("\n");
  const row = pl.findLastIndex((l) => l.includes("Allow once"));
  assert.ok(row > 2 && pl[1].trim() === "┃", "fixture layout changed");
  // Hand-made: line 1 (an empty box line) becomes a copy of the row with the first choice selected.
  pl[1] = pl[row];
  st[1] = st[row];
  mv[1] = st[row];
  const history = detect({ plain: pl.join("\n"), styled: mv.join("\n") }, opencode);
  assert.deepEqual(history.choice_row?.map((c) => c.selected), [false, true, false]);
  assert.equal(gate(toJudged(history)).ok, false);
  // Even when the two captures do not line up (a line more in the styled one), the lowest copy wins.
  const shifted = detect({ plain: pl.join("\n"), styled: ["", ...mv].join("\n") }, opencode);
  assert.deepEqual(shifted.choice_row?.map((c) => c.selected), [false, true, false]);
  const fine = detect({ plain: pl.join("\n"), styled: st.join("\n") }, opencode);
  assert.deepEqual(fine.choice_row?.map((c) => c.selected), [true, false, false]);
});

// Mutation caught: skipping every escape sequence within the next 256 characters when one
// non-SGR sequence is met (as before), which ate the visible text after it.
Deno.test("styled characters: a non-SGR escape is skipped alone, the text after it is kept", () => {
  const line = "\x1b]8;;http://x\x1b\\ab\x1b[2mcd\x1b[0mef";
  const chars = styledChars(line);
  assert.equal(chars.map((c) => c.ch).join(""), "abcdef");
  assert.deepEqual(chars.map((c) => c.dim), [false, false, true, true, false, false]);
});
