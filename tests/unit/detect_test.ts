/**
 * Detector rules of DESIGN §5 on hand-labelled snippets (the real screens are in
 * detect_fixtures_test.ts). Every snippet is judged by a resolved profile, as in production.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG, parseConfig } from "../../lib/config/load.ts";
import { detect, livePromptOf, stripDecoration } from "../../lib/detect/mod.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const claude = resolveProfile("claude", EMPTY_CONFIG);
const v = (plain: string, opts: { styled?: string; title?: string } = {}) =>
  detect({ plain, styled: opts.styled }, claude, { title: opts.title });
const lines = (...ls: string[]) => ls.join("\n") + "\n";

Deno.test("strip_decoration drops leading space and glyphs, never a bare >", () => {
  assert.equal(stripDecoration("  │ ❯ 1. Yes   │  "), "1. Yes   │");
  assert.equal(stripDecoration("⎿  ● • * · › text"), "text");
  assert.equal(stripDecoration("> /dev/sda"), "> /dev/sda");
  assert.equal(stripDecoration("\u00a0 ─╭╮╰╯├┤┐└┘┌x"), "x");
});

Deno.test("live prompt, window 1: a marker in the last 4 non-blank lines", () => {
  assert.equal(v(lines("Do you want to proceed?", "", "", "")).live_prompt, true);
  assert.equal(v(lines("Do You Want To Proceed?")).live_prompt, true);
  assert.equal(v("").live_prompt, false);
  const stale = lines(
    "Do you want to proceed?",
    "  Esc to cancel",
    "out 1",
    "out 2",
    "out 3",
    "out 4",
    "out 5",
  );
  assert.equal(v(stale).live_prompt, false);
});

Deno.test("live prompt, window 1: an option line at the end with a marker within 15", () => {
  const ls = ["Do you want to proceed?"];
  for (let i = 0; i < 11; i++) ls.push(`detail ${i}`);
  ls.push("❯ 1. Yes", "  2. No");
  assert.equal(v(lines(...ls)).live_prompt, true);
  ls.splice(1, 0, "x", "y", "z"); // marker now 17 non-blank lines up
  assert.equal(v(lines(...ls)).live_prompt, false);
  // A prose numbered list without markers is not a prompt.
  assert.equal(v(lines("Plan:", "1. run the tests", "2. fix", "3. commit")).live_prompt, false);
});

Deno.test("live prompt, window 2: footer starting a line with an option line among the 6 above", () => {
  const modal = ["Do you want to proceed?", "❯ 1. Yes", "  2. No", "", "Esc to cancel"];
  const below = Array.from({ length: 13 }, (_, i) => `☐ task ${i}`);
  assert.equal(v(lines(...modal, ...below)).live_prompt, true);
  // 14 lines below: past the compiled bound.
  assert.equal(v(lines(...modal, ...below, "one more")).live_prompt, false);
  // The footer mentioned mid-sentence never counts in the shifted region.
  const narr = ["❯ 1. Yes", "  2. No", "The footer reads Esc to cancel", ...below];
  assert.equal(v(lines(...narr)).live_prompt, false);
  // A bare question shifted up is not live either.
  assert.equal(v(lines("Do you want to proceed?", ...below)).live_prompt, false);
  // No option line near the footer.
  const far = ["❯ 1. Yes", "a", "b", "c", "d", "e", "f", "Esc to cancel", ...below.slice(0, 5)];
  assert.equal(v(lines(...far)).live_prompt, false);
  const s = livePromptOf(lines(...modal, ...below), claude);
  assert.equal(s.live, true);
});

Deno.test("live prompt, layout rule: what the CLI draws only when no modal is up, below the modal, kills it", () => {
  const modal = [
    "────────",
    " Bash command",
    "   git status",
    " Do you want to proceed?",
    " ❯ 1. Yes",
    "   2. No",
    " Esc to cancel · Tab to amend",
  ];
  const box = ["────────", "❯\u00a0", "────────"];
  assert.equal(v(lines(...modal)).state, "prompt");
  // The idle input box below it (its own footer line or not).
  assert.equal(v(lines(...modal, ...box, "  ? for shortcuts")).live_prompt, false);
  assert.equal(v(lines(...modal, ...box)).live_prompt, false);
  // Typed prompt words in that box are not screen state: still no live prompt.
  const typed = ["────────", "❯ Do you want to proceed? yes", "────────"];
  assert.equal(v(lines(...modal, ...typed)).live_prompt, false);
  // A busy line, or the ready footer, below it.
  assert.equal(v(lines(...modal, "  esc to interrupt · ← for agents")).live_prompt, false);
  assert.equal(v(lines(...modal, "", "  ? for shortcuts")).live_prompt, false);
  // A bare shell prompt as the last line; a percentage is no shell prompt.
  assert.equal(v(lines(...modal, "me@box:~$ ")).live_prompt, false);
  assert.equal(v(lines(...modal, "host% ")).live_prompt, false);
  assert.equal(v(lines(...modal, "root@box:/# ")).live_prompt, false);
  assert.equal(v(lines(...modal, "  ☐ raise coverage to 90%")).live_prompt, true);
  // A task list or a status strip below the modal keeps it live (the shifted window).
  const tasks = Array.from({ length: 8 }, (_, i) => `  ☐ task ${i}`);
  assert.equal(v(lines(...modal, ...tasks)).state, "prompt");
  assert.equal(v(lines(...modal, "  main · 3 files changed · 12:04")).state, "prompt");
  // An input box ABOVE the modal (a copy in the transcript) does not kill it.
  assert.equal(v(lines(...box, "", ...modal)).state, "prompt");
});

Deno.test("permission prompt vs dialog", () => {
  const bash = lines(
    "────────────",
    " Bash command",
    "   git status",
    " Do you want to proceed?",
    " ❯ 1. Yes",
    "   2. Yes, and don’t ask again for: git status",
    "   3. No",
    " Esc to cancel",
  );
  const p = v(bash);
  assert.equal(p.permission_prompt, true);
  assert.equal(p.state, "prompt");
  assert.equal(p.command, "git status");
  assert.equal(p.broad_grant_option, 2);
  assert.deepEqual(p.options.map((o) => [o.number, o.selected]), [[1, true], [2, false], [
    3,
    false,
  ]]);
  const picker = lines("Which one?", "› 1. A", "  2. B", "Enter to select · Esc to cancel");
  const d = v(picker);
  assert.equal(d.live_prompt, true);
  assert.equal(d.permission_prompt, false);
  assert.equal(d.state, "dialog");
  assert.deepEqual(d.options.map((o) => [o.number, o.text, o.selected]), [[1, "A", true], [
    2,
    "B",
    false,
  ]]);
});

Deno.test("command: inline form keeps up to the last ), header form skips boundaries", () => {
  assert.equal(
    v(lines("● Bash(echo (nested) done)", "Do you want to proceed?")).command,
    "echo (nested) done",
  );
  assert.equal(v(lines("Bash command", "", "Do you want to proceed?", "❯ 1. Yes")).command, null);
  const twoHeaders = lines(
    "● Bash(old cmd)",
    "────",
    "Bash command",
    "  new cmd",
    "Do you want to proceed?",
  );
  assert.equal(v(twoHeaders).command, "new cmd");
  assert.equal(v(lines("rm -rf / was mentioned", "nothing else")).command, null);
});

Deno.test("file path: group 1 with quotes stripped", () => {
  assert.equal(
    v(lines("Do you want to create `notes/a b.md`?", "❯ 1. Yes", "Esc to cancel")).file_path,
    "notes/a b.md",
  );
  assert.equal(v(lines("Do you want to make this edit to 'x.ts'?", "❯ 1. Yes")).file_path, "x.ts");
});

Deno.test("input box: bordered and open forms, options and placeholders are no input", () => {
  const open = (t: string) => lines("────────", `❯ ${t}`, "────────", "  ? for shortcuts");
  assert.equal(v(open("fix the tests")).input_box, "fix the tests");
  assert.equal(v(open("")).input_box, null);
  assert.equal(v(open("")).input_line, true);
  assert.equal(v(lines("╭────╮", "│ > hello there      │", "╰────╯")).input_box, null); // ">" is not a Claude 2.1.197 sigil
  const bordered = resolveProfile(
    "old",
    parseConfig(`[clis.old.prompt_profile]\ninput_sigils = [">", "❯"]\n`, "/c.toml"),
  );
  assert.equal(
    detect({ plain: lines("╭────╮", "│ > hello there      │", "╰────╯") }, bordered).input_box,
    "hello there",
  );
  assert.equal(
    detect({ plain: lines("╭────╮", "│ ❯ 1. Yes │", "╰────╯") }, bordered).input_box,
    null,
  );
  // Not between rules: a quoted "❯ text" in the transcript is not an input line.
  assert.equal(v(lines("❯ earlier prompt", "● reply")).input_line, false);
  // A dim placeholder only the styled capture shows.
  const plain = open("Try something");
  const styled = lines(
    "────────",
    "\x1b[39m❯ \x1b[2mTry something\x1b[22m",
    "────────",
    "  ? for shortcuts",
  );
  assert.equal(detect({ plain, styled }, claude).input_box, null);
  assert.equal(detect({ plain }, claude).input_box, "Try something");
  const grey = lines(
    "────────",
    "❯ \x1b[7mT\x1b[27m\x1b[38;5;244mry something\x1b[39m",
    "────────",
  );
  assert.equal(detect({ plain: open("Try something"), styled: grey }, claude).input_box, null);
  const typed = lines("────────", "❯ typed text\x1b[7m \x1b[27m", "────────");
  assert.equal(
    detect({ plain: open("typed text"), styled: typed }, claude).input_box,
    "typed text",
  );
  // The placeholder markers of a profile work on the plain capture alone.
  const qwen = resolveProfile(
    "q",
    parseConfig(
      `[clis.q.prompt_profile]\ninput_placeholder_markers = ["Type your message"]\n`,
      "/c.toml",
    ),
  );
  assert.equal(detect({ plain: open("Type your message or @path") }, qwen).input_box, null);
});

Deno.test("mode reads the pane title and the capture", () => {
  assert.equal(v("", { title: "claude — ⏵⏵ accept edits on" }).mode, "accept_edits");
  assert.equal(v(lines("  ? for shortcuts")).mode, "interactive");
  assert.equal(v(lines("✻ Working… (esc to interrupt)")).mode, "unknown");
});

Deno.test("stuck shapes: stream error, bloat k, percent, paste buffer", () => {
  assert.equal(
    v(lines("● API Error: Connection refused")).stream_error,
    "API Error: Connection refused",
  );
  assert.equal(v(lines("Context low · /compact to save 250k tokens")).context_bloat_k, 250);
  assert.equal(v(lines("  ? for shortcuts        84% context used")).context_used_pct, 84);
  assert.equal(
    v(lines("────", "❯ [Pasted text #3 +240 lines]", "────")).paste_buffer,
    "Pasted text #3",
  );
});

Deno.test("cli unavailable: bottom region only, never inside the input box", () => {
  assert.equal(
    v(lines("  ⎿  Invalid API key · Fix external API key", "────", "❯ ", "────")).state,
    "unavailable",
  );
  const typed = lines("────", "❯ why do I see Invalid API key here?", "────", "  ? for shortcuts");
  assert.equal(v(typed).cli_unavailable, null);
  const scrolled = ["  ⎿  Invalid API key"];
  for (let i = 0; i < 16; i++) scrolled.push(`line ${i}`);
  assert.equal(v(lines(...scrolled)).cli_unavailable, null);
});

Deno.test("manual pattern: a command that parses, never boilerplate", () => {
  assert.equal(
    v(lines("Bash command", "  FOO=1 npm test", "Do you want to proceed?")).manual_pattern,
    "FOO=1 npm test",
  );
  assert.equal(
    v(lines("Bash command", "  Tab to amend it", "Do you want to proceed?")).manual_pattern,
    null,
  );
  assert.equal(
    v(lines("Bash command", "  $(curl x)", "Do you want to proceed?")).manual_pattern,
    null,
  );
});

Deno.test("readiness and state precedence", () => {
  assert.equal(v(lines("user@host:~/repo$ ")).readiness, "bare_shell");
  assert.equal(v(lines("host% ")).readiness, "bare_shell");
  assert.equal(v(lines("context left 84%")).readiness, "indeterminate");
  assert.equal(v(lines("user@host:~/repo$ ")).state, "shell");
  assert.equal(v(lines("", "  ", "")).readiness, "indeterminate");
  assert.equal(v(lines("", "  ", "")).state, "unknown");
  assert.equal(v(lines("  ? for shortcuts")).state, "idle");
  assert.equal(v(lines("* Working… (esc to interrupt)")).state, "busy");
  // unavailable beats a live prompt; a prompt beats busy. (The unavailable line as the CLI draws
  // it, a reply under the user's message: bare text is no CLI's own line.)
  assert.equal(
    v(lines("❯ hi", "  ⎿  Credit balance too low", "Do you want to proceed?")).state,
    "unavailable",
  );
  assert.equal(
    v(lines("esc to interrupt", "Bash command", "  ls", "Do you want to proceed?")).state,
    "prompt",
  );
  assert.equal(
    v(lines("WARNING: Bypass Permissions mode", "❯ 1. No, exit", "  2. Yes, I accept")).state,
    "dialog",
  );
});

Deno.test("every detector reads the pane's own CLI profile", () => {
  const config = parseConfig(
    `[clis.other.prompt_profile]
live_prompt_markers = ["confirm?"]
mid_response_markers = ["working hard"]
cli_unavailable_markers = ["quota gone"]
`,
    "/c.toml",
  );
  const other = resolveProfile("other", config);
  assert.equal(detect({ plain: "Do you want to proceed?\n" }, other).live_prompt, false);
  assert.equal(detect({ plain: "Confirm?\n" }, other).live_prompt, true);
  assert.equal(detect({ plain: "working hard\n" }, other).mid_response, true);
  assert.equal(detect({ plain: "esc to interrupt\n" }, other).mid_response, false);
  assert.equal(detect({ plain: "■ quota gone\n" }, other).state, "unavailable");
  assert.equal(detect({ plain: "■ quota gone\n" }, claude).state, "unknown");
  assert.equal(detect({ plain: "x\n" }, other).cli, "other");
});

Deno.test("command: a styled capture with no style at all reads like the plain one (NO_COLOR, CI)", () => {
  // Recorded: Claude Code 2.1.197 under CI=true, 80x24 (tests/fixtures/claude-code/2.1.197,
  // monochrome-ci-env-prompt): its styled capture holds no SGR sequence, so nothing is grey and
  // the description line would otherwise be read as a second line of the command.
  const dir = new URL("../fixtures/claude-code/2.1.197/", import.meta.url);
  const plain = Deno.readTextFileSync(new URL("monochrome-ci-env-prompt@80x24.txt", dir));
  const styled = Deno.readTextFileSync(new URL("monochrome-ci-env-prompt@80x24.ansi.txt", dir));
  assert.ok(!styled.includes("\x1b["), "the recording is monochrome");
  const mono = detect({ plain, styled }, claude);
  assert.equal(mono.command, "touch review-notes.md");
  assert.equal(mono.command, detect({ plain }, claude).command);
  // Hand-edited from that recording: a two-line command (the transcript's call draws both lines).
  // The plain reading keeps both; it never stops at the harmless first line.
  const two = (s: string) =>
    s.replace("● Bash(touch review-notes.md)", "● Bash(touch review-notes.md\n  rm -rf ~)")
      .replace("   touch review-notes.md\n", "   touch review-notes.md\n   rm -rf ~\n");
  const hostile = detect({ plain: two(plain), styled: two(styled) }, claude);
  assert.ok(hostile.command?.includes("rm -rf ~"), String(hostile.command));
});

Deno.test("command: a Bash(…) rule named mid-sentence is not a tool call", () => {
  const p = v(lines(
    "────────",
    " Bash command",
    "   find . -exec ls {} +",
    " find with '-exec' cannot be auto-allowed",
    " by a Bash(find:*) prefix rule",
    " Do you want to proceed?",
    " ❯ 1. Yes",
    " Esc to cancel",
  ));
  assert.notEqual(p.command, "find:*");
  assert.ok(p.command?.startsWith("find . -exec ls {} +"), String(p.command));
});

Deno.test("command: the styled capture separates a wrapped command from its grey description", () => {
  const plain = lines(
    "────────",
    " Bash command",
    "",
    "   npm run build &&",
    "   rm -rf dist",
    "   Build the project",
    "",
    " Do you want to proceed?",
    " ❯ 1. Yes",
    " Esc to cancel",
  );
  const styled = lines(
    "────────",
    " \x1b[1mBash command\x1b[0m",
    "",
    "   npm run build &&",
    "   rm -rf dist",
    "   \x1b[38;2;153;153;153mBuild\x1b[39m \x1b[38;2;153;153;153mthe project\x1b[39m",
    "",
    " Do you want to proceed?",
    " ❯ 1. Yes",
    " Esc to cancel",
  );
  assert.equal(detect({ plain, styled }, claude).command, "npm run build &&\nrm -rf dist");
  // Without styles the description stays in: more text, never a truncated command.
  assert.equal(
    detect({ plain }, claude).command,
    "npm run build &&\nrm -rf dist\nBuild the project",
  );
  // A wrapped inline call keeps every line up to the last ")".
  assert.equal(
    v(lines("● Bash(find . -name x |", "      tee out.txt)", "  ⎿  Waiting…")).command,
    "find . -name x |\ntee out.txt",
  );
});

Deno.test("choice row: when every choice is bright, the one on a background of its own is selected (Cline 3.0.65)", () => {
  // Recorded: Cline 3.0.65, 80x24 (tests/fixtures/cline/3.0.65): "[y] Approve" black on blue,
  // "[n] Deny" white on the modal's grey; after Right, the highlight on "[n] Deny".
  const cline = resolveProfile("cline", EMPTY_CONFIG);
  const dir = new URL("../fixtures/cline/3.0.65/", import.meta.url);
  const read = (name: string) => ({
    plain: Deno.readTextFileSync(new URL(`${name}@80x24.txt`, dir)),
    styled: Deno.readTextFileSync(new URL(`${name}@80x24.ansi.txt`, dir)),
  });
  const row = (v: ReturnType<typeof detect>) => v.choice_row?.map((c) => c.selected);
  assert.deepEqual(row(detect(read("shell-prompt"), cline)), [true, false]);
  // The highlight moved off the first choice: none reads as selected, so approve sends nothing.
  assert.deepEqual(row(detect(read("shell-prompt-deny-highlighted"), cline)), [false, false]);
  // Without the styled capture nothing says which one is highlighted.
  assert.deepEqual(row(detect({ plain: read("shell-prompt").plain }, cline)), [false, false]);
});
