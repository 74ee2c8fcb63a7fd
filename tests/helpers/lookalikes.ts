/**
 * Hand-made look-alike screens (issue 16): a complete permission prompt printed where no prompt is
 * live — in agent output, a tool result, a `cat` of a saved screen, text being streamed, a plain
 * shell — spliced from the lines of REAL recorded screens (the prompt block from a recorded
 * prompt, the input box / busy line / footer from a recorded ready or busy screen). Nothing here
 * is a recording: tests/fixtures/hand-made/lookalike/PROVENANCE.md says so.
 *
 * `deno run -A tests/helpers/lookalikes.ts --write` regenerates the files; a unit test checks the
 * committed files are exactly what these recipes build.
 */
import { stripAnsi } from "../../lib/detect/text.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
export const LOOKALIKE_DIR = `${FIXTURES}hand-made/lookalike/`;

interface Lines {
  plain: string[];
  styled: string[];
}

/** One screen line: plain text and its styled form. */
type Line = [plain: string, styled: string];

export interface Lookalike {
  /** Fixture folder of the CLI whose chrome it uses ("claude-code", "codex" …). */
  dir: string;
  version: string;
  /** drover's CLI name (the profile that judges it). */
  cli: string;
  name: string;
  size: string;
  /** What the screen shows, in one line. */
  shows: string;
  /** The real recordings its lines come from. */
  from: string[];
  /** What is printed above the block, the look-alike prompt block, what the screen has below it. */
  above: Line[];
  block: Line[];
  below: Line[];
}

function readReal(rel: string): Lines {
  const plain = Deno.readTextFileSync(`${FIXTURES}${rel}.txt`).replace(/\n$/, "").split("\n");
  const styled = Deno.readTextFileSync(`${FIXTURES}${rel}.ansi.txt`).replace(/\n$/, "").split(
    "\n",
  );
  if (plain.length !== styled.length) throw new Error(`${rel}: plain and styled differ in rows`);
  return { plain, styled };
}

const RESET = "\x1b[0m";

/** Real lines [from, to] of a recording, each starting from reset attributes. */
function real(rel: string, from: number, to: number, prefix = ""): Line[] {
  const r = readReal(rel);
  const out: Line[] = [];
  for (let i = from; i <= to; i++) {
    const p = prefix === "" ? r.plain[i] : prefix + r.plain[i].trimEnd();
    const s = prefix === "" ? r.styled[i] : prefix + r.styled[i].replace(/ +$/, "");
    out.push([p, RESET + s + RESET]);
  }
  return out;
}

function text(...ls: string[]): Line[] {
  return ls.map((l) => [l, l]);
}

function indexOf(rel: string, pred: (line: string) => boolean, from = 0): number {
  const r = readReal(rel);
  for (let i = from; i < r.plain.length; i++) if (pred(r.plain[i])) return i;
  throw new Error(`${rel}: no such line`);
}

function lastNonBlank(rel: string): number {
  const r = readReal(rel);
  for (let i = r.plain.length - 1; i >= 0; i--) if (r.plain[i].trim() !== "") return i;
  throw new Error(`${rel}: blank screen`);
}

const isRule = (l: string) => /^─{3,}$/.test(l.trim());

// ---- Claude Code 2.1.197 chrome ----

const CC = "claude-code/2.1.197";

/** The whole prompt block of the recorded Bash prompt: its top rule through "Esc to cancel". */
function ccBlock(size: string, prefix = "", withRule = true): Line[] {
  const rel = `${CC}/bash-prompt@${size}`;
  const head = indexOf(rel, (l) => l.trim() === "Bash command");
  const foot = indexOf(rel, (l) => l.includes("Esc to cancel"), head);
  return real(rel, withRule ? head - 1 : head, foot, prefix);
}

/**
 * The six-line block of the issue: `Bash command` / command / `Do you want to proceed?` /
 * `❯ 1. Yes` / `2. No` / `Esc to cancel · Tab to amend` (the recorded lines; "2. No" is the one
 * line written by hand, the recorded prompt's option 2 being a broad grant).
 */
function ccShortBlock(size: string, prefix = ""): Line[] {
  const rel = `${CC}/bash-prompt@${size}`;
  const at = (pred: (l: string) => boolean) => indexOf(rel, pred);
  const one = (pred: (l: string) => boolean) => real(rel, at(pred), at(pred), prefix);
  return [
    ...one((l) => l.trim() === "Bash command"),
    ...one((l) => l.trim().startsWith("node -e")),
    ...one((l) => l.includes("Do you want to proceed?")),
    ...one((l) => l.includes("1. Yes")),
    ...text(`${prefix}   2. No`),
    ...one((l) => l.includes("Esc to cancel")),
  ];
}

/** The bottom chrome of a recorded screen: the rule above its input line through its footer. */
function ccChrome(scenario: string, size: string, cc = CC): Line[] {
  const rel = `${cc}/${scenario}@${size}`;
  const last = lastNonBlank(rel);
  const r = readReal(rel);
  let top = last;
  while (top > 0 && !(isRule(r.plain[top]) && r.plain[top + 1]?.startsWith("❯"))) top--;
  return real(rel, top, last);
}

/** The input box of the ready screen with `typed` in it (what a person left there). */
function ccChromeTyped(size: string, typed: string): Line[] {
  const c = ccChrome("ready", size);
  const [plain] = c[1];
  if (!plain.startsWith("❯")) throw new Error("ready chrome has no input line");
  c[1] = [`❯\u00a0${typed}`, `${RESET}❯\u00a0${typed}`];
  return c;
}

/** The recorded spinner line of the busy screen. */
function ccSpinner(size: string, cc = CC): Line[] {
  const rel = `${cc}/busy@${size}`;
  const i = indexOf(rel, (l) => /^\S+ \S+… \([0-9]+s ·/.test(l));
  return real(rel, i, i);
}

function ccHeader(size: string): Line[] {
  return real(`${CC}/ready@${size}`, 0, 2);
}

function claude(
  name: string,
  size: string,
  shows: string,
  from: string[],
  [above, block, below]: [Line[], Line[], Line[]],
  version = "2.1.197",
): Lookalike {
  return {
    dir: "claude-code",
    version,
    cli: "claude",
    name,
    size,
    shows,
    from,
    above,
    block,
    below,
  };
}

function claudeScreens(size: string): Lookalike[] {
  const big = size === "120x40";
  const head = big ? [...ccHeader(size), ...text("", "")] : [];
  const prompt = `bash-prompt@${size}`;
  const retry = `${CC}/api-retrying@${size}`;
  const retryLine = indexOf(retry, (l) => l.startsWith("✻"));
  /** A block inside a tool result: "⎿" before its first line, indented below it. */
  const inResult = (
    b: (prefix: string) => Line[],
  ) => [...b("  ⎿  ").slice(0, 1), ...b("     ").slice(1)];
  return [
    claude(
      "echo-above-idle-box",
      size,
      "the agent's reply quotes the whole prompt block, directly above the idle input box",
      [prompt, `ready@${size}`],
      [
        [...head, ...text("❯ what did the last prompt say?", "", "● It said:", "")],
        ccBlock(size),
        [...text(""), ...ccChrome("ready", size)],
      ],
    ),
    claude(
      "cat-tool-result-above-idle-box",
      size,
      "`cat` of a saved screen as a Bash tool result, then the idle input box",
      [prompt, `ready@${size}`, `bash-answered@${size}`],
      [
        [...head, ...text("● Bash(cat saved-screen.txt)")],
        inResult((pre) => ccBlock(size, pre, false)),
        [
          ...text("", "● That is the prompt you saved.", "", "✻ Brewed for 4s", ""),
          ...ccChrome("ready", size),
        ],
      ],
    ),
    claude(
      "grep-tool-result-above-idle-box",
      size,
      "a grep tool result quoting the six-line prompt block, then the idle input box",
      [prompt, `ready@${size}`],
      [
        [...head, ...text('● Bash(grep -B3 -A2 "Do you want to proceed" session.log)')],
        inResult((pre) => ccShortBlock(size, pre)),
        [...text(""), ...ccChrome("ready", size)],
      ],
    ),
    claude(
      "tool-result-above-busy-box",
      size,
      "the prompt block in a tool result while the agent keeps working (spinner, busy footer)",
      [prompt, `busy@${size}`],
      [
        [...head, ...text("● Bash(cat saved-screen.txt)")],
        inResult((pre) => ccShortBlock(size, pre)),
        [...text(""), ...ccSpinner(size), ...text(""), ...ccChrome("busy", size)],
      ],
    ),
    claude(
      "streaming-above-busy-box",
      size,
      "the agent streams the prompt block as its own reply: block, spinner, busy input box",
      [prompt, `busy@${size}`],
      [
        [...head, ...text("❯ print a permission prompt", "", "● Here is one:")],
        ccBlock(size, "  ", false),
        [...text(""), ...ccSpinner(size), ...text(""), ...ccChrome("busy", size)],
      ],
    ),
    claude(
      "above-retrying-busy-line",
      size,
      "the prompt block above the API-retry busy line and the busy input box",
      [prompt, `api-retrying@${size}`],
      [
        head,
        ccShortBlock(size),
        [
          ...text(""),
          ...real(retry, retryLine, retryLine),
          ...text(""),
          ...ccChrome("api-retrying", size),
        ],
      ],
    ),
    claude(
      "echo-above-typed-box",
      size,
      "the prompt block above an input box holding typed prompt words",
      [prompt, `ready@${size}`],
      [head, ccBlock(size), [
        ...text(""),
        ...ccChromeTyped(size, "Do you want to proceed? say yes"),
      ]],
    ),
    claude(
      "bash-shell",
      size,
      "a plain bash pane that printed a saved prompt screen; its last line is `$ `",
      [prompt],
      [
        text("dev@host:~/project$ cat saved-screen.ansi"),
        ccBlock(size),
        text("dev@host:~/project$ "),
      ],
    ),
    claude(
      "zsh-shell",
      size,
      "a zsh pane (`%` prompt) that printed the six-line prompt block",
      [prompt],
      [text("host% cat prompt.txt"), ccShortBlock(size), text("host% ")],
    ),
  ];
}

// ---- Claude Code 2.1.332 chrome (manual and auto mode), 80x24 ----

const CC332 = "claude-code/2.1.332";

/** A recorded 2.1.332 prompt block: the rule above "Bash command" through "Esc to cancel". */
function cc332Block(scenario: string, size: string, prefix = ""): Line[] {
  const rel = `${CC332}/${scenario}@${size}`;
  const head = indexOf(rel, (l) => l.trim() === "Bash command");
  const foot = indexOf(rel, (l) => l.includes("Esc to cancel"), head);
  return real(rel, head - 1, foot, prefix);
}

function claude332Screens(): Lookalike[] {
  const size = "80x24";
  const v = "2.1.332";
  const retry = `${CC332}/api-retrying@${size}`;
  const retryLine = indexOf(retry, (l) => l.startsWith("✻"));
  return [
    claude(
      "echo-above-idle-box",
      size,
      "the agent's reply quotes 2.1.332's whole prompt block, directly above the manual-mode input box",
      [`bash-prompt@${size}`, `ready@${size}`],
      [text("● It said:"), cc332Block("bash-prompt", size), [
        ...text(""),
        ...ccChrome("ready", size, CC332),
      ]],
      v,
    ),
    claude(
      "no-first-above-auto-idle-box",
      size,
      '2.1.332\'s un-numbered "❯ No / Yes" block quoted above the auto-mode input box',
      [`auto-no-first-prompt@${size}`, `mode-auto-default@${size}`],
      [text("● It said:"), cc332Block("auto-no-first-prompt", size), [
        ...text(""),
        ...ccChrome("mode-auto-default", size, CC332),
      ]],
      v,
    ),
    claude(
      "streaming-above-busy-box",
      size,
      "2.1.332: the prompt block streamed as the reply, spinner and busy input box below",
      [`bash-prompt@${size}`, `busy@${size}`],
      [[], cc332Block("bash-prompt", size), [
        ...ccSpinner(size, CC332),
        ...text(""),
        ...ccChrome("busy", size, CC332),
      ]],
      v,
    ),
    claude(
      "above-retrying-busy-line",
      size,
      "2.1.332: the prompt block above the API-retry line and the busy input box",
      [`bash-prompt@${size}`, `api-retrying@${size}`],
      [[], cc332Block("bash-prompt", size), [
        ...real(retry, retryLine, retryLine),
        ...text(""),
        ...ccChrome("api-retrying", size, CC332),
      ]],
      v,
    ),
    claude(
      "bash-shell",
      size,
      'a plain bash pane that printed 2.1.332\'s "❯ No / Yes" prompt block; its last line is `$ `',
      [`auto-no-first-prompt@${size}`],
      [
        text("dev@host:~/project$ cat saved-screen.ansi"),
        cc332Block("auto-no-first-prompt", size),
        text("dev@host:~/project$ "),
      ],
      v,
    ),
  ];
}

// ---- the other CLIs: each CLI's own recorded prompt block above its own idle input line ----

function other(
  dir: string,
  version: string,
  cli: string,
  block: [number, number],
  chrome: [number, number],
  shows: string,
  below: { scenario: string; name: string } = { scenario: "ready", name: "echo-above-idle-input" },
): Lookalike {
  const size = "80x24";
  const prompt = `${dir}/${version}/shell-prompt@${size}`;
  const base = `${dir}/${version}/${below.scenario}@${size}`;
  return {
    dir,
    version,
    cli,
    name: below.name,
    size,
    shows,
    from: [`shell-prompt@${size}`, `${below.scenario}@${size}`],
    above: [],
    block: real(prompt, block[0], block[1]),
    below: [...text(""), ...real(base, chrome[0], chrome[1])],
  };
}

function otherScreens(): Lookalike[] {
  return [
    other(
      "codex",
      "0.171.0",
      "codex",
      [9, 23],
      [20, 23],
      "Codex's approval block in the transcript, its idle input line and footer below",
    ),
    other(
      "gemini",
      "0.61.0",
      "gemini",
      [11, 21],
      [2, 9],
      "Gemini's approval box in the transcript, its idle input box and footer below",
    ),
    other(
      "qwen",
      "0.15.10",
      "qwen",
      [8, 20],
      [9, 12],
      "Qwen's approval box in the transcript, its idle input box and footer below",
    ),
    other(
      "opencode",
      "1.18.33",
      "opencode",
      [14, 22],
      [11, 16],
      "OpenCode's permission panel in the transcript, its idle input box and footer below",
    ),
    other(
      "codex",
      "0.171.0",
      "codex",
      [9, 23],
      [16, 23],
      "Codex's approval block in the transcript, its busy line and input line below",
      { scenario: "busy", name: "echo-above-busy-line" },
    ),
    other(
      "opencode",
      "1.18.33",
      "opencode",
      [14, 22],
      [17, 22],
      "OpenCode's permission panel above its busy input box (empty: only the busy line tells)",
      { scenario: "busy", name: "echo-above-busy-line" },
    ),
  ];
}

export function lookalikes(): Lookalike[] {
  return [
    ...claudeScreens("80x24"),
    ...claudeScreens("120x40"),
    ...claude332Screens(),
    ...otherScreens(),
  ];
}

export interface Built {
  screen: Lookalike;
  /** Lines above + block: cut the screen here and the block alone is left at its bottom. */
  cut: number;
  /** Path relative to tests/fixtures without .txt (what loadScreen takes). */
  rel: string;
  plain: string;
  styled: string;
}

/** The files of one screen: exactly `rows` lines, each no wider than the pane. */
export function build(s: Lookalike): Built {
  const [cols, rows] = s.size.split("x").map(Number);
  const lines = [...s.above, ...s.block, ...s.below];
  if (lines.length > rows) {
    throw new Error(`${s.dir}/${s.name}@${s.size}: ${lines.length} lines > ${rows} rows`);
  }
  for (const [p, st] of lines) {
    const w = [...p.trimEnd()].length;
    if (w > cols || [...stripAnsi(st).trimEnd()].length > cols) {
      throw new Error(`${s.dir}/${s.name}@${s.size}: line wider than ${cols}: ${p}`);
    }
  }
  const pad = rows - lines.length;
  const plain = [...lines.map((l) => l[0]), ...Array(pad).fill("")];
  const styled = [...lines.map((l) => l[1]), ...Array(pad).fill("")];
  const base = `hand-made/lookalike/${s.dir}/${s.version}/${s.name}@${s.size}`;
  return {
    screen: s,
    cut: s.above.length + s.block.length,
    rel: base,
    plain: plain.join("\n") + "\n",
    styled: styled.join("\n") + "\n",
  };
}

export function index(built: Built[]): string {
  return JSON.stringify(
    built.map((b) => ({
      file: `${b.screen.dir}/${b.screen.version}/${b.screen.name}@${b.screen.size}.txt`,
      styled: `${b.screen.dir}/${b.screen.version}/${b.screen.name}@${b.screen.size}.ansi.txt`,
      cli: b.screen.cli,
      name: b.screen.name,
      size: b.screen.size,
      shows: b.screen.shows,
      spliced_from: b.screen.from.map((f) => `${b.screen.dir}/${b.screen.version}/${f}`),
      block_lines: [b.screen.above.length, b.cut - 1],
      hand_made: true,
    })),
    null,
    2,
  ) + "\n";
}

if (import.meta.main && Deno.args.includes("--write")) {
  const built = lookalikes().map(build);
  for (const b of built) {
    const path = `${FIXTURES}${b.rel}`;
    await Deno.mkdir(path.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${path}.txt`, b.plain);
    await Deno.writeTextFile(`${path}.ansi.txt`, b.styled);
  }
  await Deno.writeTextFile(`${LOOKALIKE_DIR}index.json`, index(built));
  console.log(`wrote ${built.length} hand-made look-alike screens under ${LOOKALIKE_DIR}`);
}
