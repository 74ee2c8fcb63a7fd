/**
 * Recorded real screens on disk (TEAM.md layout) and how a fresh screen is compared with one.
 *
 * ```
 * tests/fixtures/<cli-id>/<cli-version>/<scenario>@<cols>x<rows>.txt       capture-pane -p -J
 * tests/fixtures/<cli-id>/<cli-version>/<scenario>@<cols>x<rows>.ansi.txt  capture-pane -p -e -J
 * tests/fixtures/<cli-id>/<cli-version>/manifest.json, PROVENANCE.md
 * ```
 *
 * ```ts
 * const dir = fixtureDir("claude-code", "2.1.197");
 * const m = await readManifest(dir);                       // undefined when none yet
 * const fx = await readFixture(dir, "bash-prompt@120x40.txt");
 * const cmp = compareDefining(fx, fresh.plain, ["Do you want to proceed?"]);
 * if (!cmp.ok) console.log(cmp.diff);                      // readable, normalised
 * await writeFixtures(dir, header, [{ entry, screen }], { merge: true });
 * ```
 *
 * "State-defining lines" are the lines that contain one of a screen's `defining` substrings. Comparison
 * normalises volatile parts ({@link normalise}: temp paths, timers, token counts, spinner verbs, retry
 * countdowns, trailing blanks) so that a new CLI version shows as a short diff, not noise.
 */
import { REPO_ROOT } from "./clis.ts";
import type { Screen } from "./tmux.ts";

export type LabState = "prompt" | "dialog" | "busy" | "idle" | "shell" | "unavailable" | "unknown";

export interface ManifestScreen {
  file: string;
  styled: string;
  scenario: string;
  size: string;
  state: LabState;
  defining: string[];
  steps: string[];
  expect?: Record<string, unknown>;
  /** The pane title at capture time (`#{pane_title}`), for detect(…, { title }). */
  title?: string;
  /** Free-form remarks shown in PROVENANCE.md (e.g. "CLAUDE_CODE_MAX_RETRIES=2"). */
  notes?: string;
}

export interface Manifest {
  cli: string;
  version: string;
  tmux: string;
  recorded: string;
  capture: { plain: string; styled: string };
  /** Environment/launch facts common to all screens (shown in PROVENANCE.md). */
  setup?: string[];
  screens: ManifestScreen[];
}

export const CAPTURE_PLAIN = "tmux capture-pane -p -J -t <pane>";
export const CAPTURE_STYLED = "tmux capture-pane -p -e -J -t <pane>";

export function fixtureDir(cli: string, version: string): string {
  return `${REPO_ROOT}/tests/fixtures/${cli}/${version}`;
}

export function screenFile(scenario: string, cols: number, rows: number): string {
  return `${scenario}@${cols}x${rows}.txt`;
}

export function styledFile(scenario: string, cols: number, rows: number): string {
  return `${scenario}@${cols}x${rows}.ansi.txt`;
}

export async function readManifest(dir: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

export async function readFixture(dir: string, file: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(`${dir}/${file}`);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

let tmuxVersion: string | undefined;
export async function getTmuxVersion(): Promise<string> {
  if (tmuxVersion) return tmuxVersion;
  const out = await new Deno.Command("tmux", { args: ["-V"], stdout: "piped", stderr: "null" })
    .output();
  tmuxVersion = new TextDecoder().decode(out.stdout).trim().replace(/^tmux\s+/, "");
  return tmuxVersion;
}

/**
 * Write screens + manifest + PROVENANCE.md. With `merge`, entries of other screens already in the
 * manifest are kept (a filtered re-record); without it the manifest lists exactly `screens`.
 */
export async function writeFixtures(
  dir: string,
  header: Omit<Manifest, "screens" | "tmux" | "recorded" | "capture">,
  screens: Array<{ entry: ManifestScreen; screen: Screen }>,
  opts: { merge?: boolean } = {},
): Promise<Manifest> {
  await Deno.mkdir(dir, { recursive: true });
  for (const { entry, screen } of screens) {
    await Deno.writeTextFile(`${dir}/${entry.file}`, screen.plain);
    await Deno.writeTextFile(`${dir}/${entry.styled}`, screen.styled);
  }
  const old = opts.merge ? await readManifest(dir) : undefined;
  const fresh = new Set(screens.map((s) => s.entry.file));
  const entries = [
    ...(old?.screens ?? []).filter((e) => !fresh.has(e.file)),
    ...screens.map((s) => s.entry),
  ].sort((a, b) => a.scenario.localeCompare(b.scenario) || b.size.localeCompare(a.size));
  if (!opts.merge) {
    // Drop stale captures no manifest entry points to any more.
    const keep = new Set(entries.flatMap((e) => [e.file, e.styled]));
    for await (const f of Deno.readDir(dir)) {
      if (f.isFile && f.name.endsWith(".txt") && !keep.has(f.name)) {
        await Deno.remove(`${dir}/${f.name}`);
      }
    }
  }
  const manifest: Manifest = {
    cli: header.cli,
    version: header.version,
    tmux: await getTmuxVersion(),
    recorded: new Date().toISOString().slice(0, 10),
    capture: { plain: CAPTURE_PLAIN, styled: CAPTURE_STYLED },
    ...(header.setup ? { setup: header.setup } : old?.setup ? { setup: old.setup } : {}),
    screens: entries,
  };
  await Deno.writeTextFile(`${dir}/manifest.json`, JSON.stringify(manifest, null, 2) + "\n");
  await Deno.writeTextFile(`${dir}/PROVENANCE.md`, provenance(manifest));
  return manifest;
}

/** PROVENANCE.md for a manifest: what was run, how it was captured, every screen's steps. */
export function provenance(m: Manifest): string {
  const out: string[] = [];
  out.push(`# Provenance: ${m.cli} ${m.version}`, "");
  out.push(
    "Real screens of the real CLI, recorded by the lab (`deno task lab --record`, tests/lab/main.ts).",
    "Nothing here is hand-written or edited; re-record instead.",
    "",
  );
  out.push(`- CLI: ${m.cli} ${m.version} (pinned in tests/lab/clis/package.json)`);
  out.push(`- tmux: ${m.tmux} (private server: \`tmux -L drover-lab-<unique> -f /dev/null\`)`);
  out.push(`- recorded: ${m.recorded}`);
  out.push(`- plain capture: \`${m.capture.plain}\` → \`<scenario>@<cols>x<rows>.txt\``);
  out.push(`- styled capture: \`${m.capture.styled}\` → \`<scenario>@<cols>x<rows>.ansi.txt\``);
  for (const s of m.setup ?? []) out.push(`- ${s}`);
  out.push("", "## Screens", "");
  const byScenario = new Map<string, ManifestScreen[]>();
  for (const s of m.screens) {
    byScenario.set(s.scenario, [...(byScenario.get(s.scenario) ?? []), s]);
  }
  for (const [name, list] of byScenario) {
    const first = list[0];
    out.push(`### ${name} — state \`${first.state}\``, "");
    out.push(`- sizes: ${list.map((s) => s.size).join(", ")}`);
    out.push(`- state-defining: ${first.defining.map((d) => `\`${d}\``).join(", ")}`);
    if (first.notes) out.push(`- notes: ${first.notes}`);
    out.push("- steps:");
    for (const [i, step] of first.steps.entries()) out.push(`  ${i + 1}. ${step}`);
    out.push("");
  }
  return out.join("\n");
}

/** Spinner glyphs Claude-style CLIs animate in their busy line. */
const SPINNER = /^([\s]*)[✻✶✳✢·✽*⏺●◐◓◑◒⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏](\s+)\S+…/u;
/**
 * The same glyphs before a fixed activity of several words ("✽ Compacting conversation…"): only
 * the glyph animates, so the words stay to be compared.
 */
const SPINNER_ACTIVITY = /^(\s*)[✻✶✳✢·✽*◐◓◑◒⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏](\s+)(?=\S+ [^…]*…)/u;

/**
 * Normalise one line for comparison: volatile parts become placeholders so that only meaningful
 * changes remain. Applied to fixture and fresh screen alike.
 */
export function normalise(line: string): string {
  return line
    .replace(/\s+$/u, "")
    // Throwaway dirs of the lab (random suffixes).
    .replace(/\/tmp\/drover-[A-Za-z0-9_-]*?-[0-9a-f]{6,}/g, "<tmp>")
    .replace(/drover-[a-z]+-[0-9a-f]{8,}/g, "<tmp>")
    // Spinner glyph + random verb ("✻ Pondering…").
    .replace(SPINNER, "$1<spin>$2<verb>…")
    .replace(SPINNER_ACTIVITY, "$1<spin>$2")
    // "✻ Churned for 3s" / "✻ Sautéed for 1s": random past-tense verb after a turn.
    .replace(/^(\s*)✻ \S+ for /u, "$1<spin> <verb> for ")
    // The effort hint at the footer's right end comes and goes between frames ("● high · /effort",
    // 2.1.332's "◐ medium · /effort"), and so does 2.1.332's "← for agents" hint before it.
    .replace(/\s+\S [a-z]+ · \/effort$/u, "")
    .replace(/ · ← for agents$/u, "")
    // 2.1.332's "(shift+tab to cycle)" after the bypass footer is drawn in some frames only.
    .replace(/^(\s*⏵⏵ bypass permissions on) \(shift\+tab to cycle\)$/u, "$1")
    // Qwen Code 0.24.4's scrollbar in the last column, drawn once the transcript overflows: its
    // thumb (█) or its track (│), depending on where the view is; Copilot CLI 1.0.102's (┃) comes
    // and goes with the transcript's height.
    .replace(/\s{2,}[█│┃]$/u, "")
    // A running tool's bullet blinks (drawn in one frame, blank in the next).
    .replace(/^[●⏺] /u, "  ")
    // "Cogitated for 3s", "(12s · ↓ 40 tokens", "Retrying in 6s", "1m 3s".
    .replace(/\b\d+h \d+m \d+s\b|\b\d+m \d+s\b/g, "<dur>")
    // Copilot CLI's "(total retry wait time: 5.18 seconds)": the waits are jittered.
    .replace(/\b\d+(\.\d+)? seconds?\b/g, "<dur>")
    .replace(/\b\d+(\.\d+)?(ms|s|m|h)\b/g, "<dur>")
    .replace(/[↑↓]\s*\d+(\.\d+)?k?\s+tokens?/g, "<tokens>")
    .replace(/\b\d+(\.\d+)?k?\s+tokens\b/g, "<n> tokens")
    .replace(/\battempt \d+\/\d+/g, "attempt <n>/<m>")
    // OpenCode's retry counter ("[retrying in 13s attempt #5]").
    .replace(/\battempt #\d+/g, "attempt #<n>")
    .replace(/\[retrying in <dur> /g, "[retrying ")
    // What follows the counter is the footer's hint, cut at the right edge wherever the countdown's
    // width leaves it ("] e", "] esc").
    .replace(/(\[retrying attempt #<n>\]).*$/u, "$1")
    // Clock times ("resets 6:29pm (UTC)").
    .replace(/\b\d{1,2}(:\d{2})?\s?(am|pm)\b/gi, "<clock>")
    // Calendar dates ("resets Dec 4, 5:12am", "try again at Dec 4th, 2026 4:38 AM"): a reset some
    // days from the run's own clock prints another date on every day the lab runs.
    .replace(
      /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}(?:st|nd|rd|th)?(?:, \d{4})?\b/g,
      "<date>",
    )
    // ISO timestamps, npm log names and request ids.
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}[_:]\d{2}[_:]\d{2}(?:[_.:]\d+)?Z?/g, "<time>")
    .replace(/\breq_[A-Za-z0-9_]+/g, "req_<id>")
    .replace(/\b127\.0\.0\.1:\d+/g, "127.0.0.1:<port>")
    // (lab-others) Braille spinner frames (Gemini, Qwen, Codex) and Qwen's random busy phrase
    // ("⠋ Optimizing for ludicrous speed (3s · esc to cancel)").
    .replace(/[\u2800-\u28FF]/gu, "<spin>")
    .replace(/^[•◦] (?=Working|Reconnecting)/u, "<spin> ")
    // Copilot CLI 1.0.102's busy spinner cycles circles in front of "Working" (○ ◎ ●).
    .replace(/^(\s*)[○◎◉●◐◑◒◓] (?=Working\b)/u, "$1<spin> ")
    // OpenCode's busy progress bar ("■■■■⬝⬝⬝⬝  esc interrupt").
    .replace(/[■⬝]{4,}/gu, "<progress>")
    // Qwen Code 0.24.4's busy line adds the token count once a count is in ("(3s · ↑ 1.2k tokens ·
    // esc to cancel)"): whether a capture has it is timing, not state.
    .replace(/\(<dur> · <tokens> · esc to cancel\)/u, "(<dur> · esc to cancel)")
    // A phrase too long for the pane loses the gap after the spinner ("⠋Why don't programmers…"
    // at 80 columns, Qwen Code 0.15.10): the gap is layout, the phrase is random.
    .replace(/^(\s*)(<spin>|\.+)\s*\S.*?(\s\(<dur>[^)]*esc to cancel\))$/u, "$1$2 <verb>$3")
    // OpenCode's input placeholder quotes a random example task ("Ask anything… \"Fix broken tests\"").
    .replace(/(Ask anything… )"[^"]*"/u, '$1"<example>"')
    // Claude Code 2.1.332's mode footer gains optional right-hand hints once its session settles
    // ("· ← for agents", "◐ medium · /effort"); whether a capture has them is timing, not state.
    .replace(/ · ← for agents(?=\s|$).*$/u, "")
    .replace(/\s+[◐◑◒◓○●] \S+ · \/effort\s*$/u, "")
    // Right-aligned footers pad with a number of spaces that depends on the random temp path's
    // length: a run of blanks is one column break, whatever its width.
    .replace(/ {2,}/g, "  ");
}

/**
 * The lines of `plain` that carry one of `defining`, normalised, in screen order, a repeat of the
 * line before it dropped: a CLI that prints the same line once per retry (Copilot CLI's "Request
 * failed due to a transient API error. Retrying...") is in the same state whether the capture
 * came after one retry or two.
 */
export function definingLines(plain: string, defining: string[]): string[] {
  const lines = plain.split("\n").filter((l) => defining.some((d) => l.includes(d))).map(
    normalise,
  );
  return lines.filter((l, i) => i === 0 || l !== lines[i - 1]);
}

export interface Comparison {
  ok: boolean;
  /** Human-readable diff of the state-defining lines ("" when ok). */
  diff: string;
  /** How many lines of the whole normalised screen differ (informational). */
  screenDelta: number;
}

/** Compare the state-defining lines of a fixture and a fresh capture. */
export function compareDefining(fixture: string, fresh: string, defining: string[]): Comparison {
  const a = definingLines(fixture, defining);
  const b = definingLines(fresh, defining);
  const missing = defining.filter((d) => !fresh.includes(d));
  const ok = missing.length === 0 && a.length === b.length && a.every((l, i) => l === b[i]);
  const screenDelta = lineDelta(fixture, fresh);
  if (ok) return { ok, diff: "", screenDelta };
  const out: string[] = [];
  if (missing.length) {
    out.push(
      `    missing on the fresh screen: ${missing.map((m) => JSON.stringify(m)).join(", ")}`,
    );
  }
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) out.push(`      ${a[i]}`);
    else {
      if (a[i] !== undefined) out.push(`    - ${a[i]}`);
      if (b[i] !== undefined) out.push(`    + ${b[i]}`);
    }
  }
  return { ok, diff: out.join("\n"), screenDelta };
}

function lineDelta(a: string, b: string): number {
  const la = a.split("\n").map(normalise);
  const lb = b.split("\n").map(normalise);
  let d = 0;
  for (let i = 0; i < Math.max(la.length, lb.length); i++) if (la[i] !== lb[i]) d++;
  return d;
}
