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
