/**
 * The bundled Agent Skill (skill/SKILL.md): valid front matter, short, teaches the reviewer recipe,
 * and every drover command line in it parses with the real argv parser against the real command
 * table — a renamed flag or command breaks this test, not an orchestrating agent.
 */
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { parseArgv } from "../../lib/deps/cli.ts";
import { ROOT } from "../../lib/cli/commands.ts";
import { SKILL_TEXT } from "../../lib/cli/skill.ts";

const SOURCE = new URL("../../skill/SKILL.md", import.meta.url);

/** Minimal POSIX word splitting for the skill's own lines: quotes, $VARS kept as placeholders. */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]);
  return out.map((w) => w.replace(/\$\{?TMUX_PANE\}?|\$\{?PANE\}?/g, "%1"));
}

/** Every `drover …` invocation: in code blocks (continuations joined) and in inline code spans. */
export function commandLines(md: string): string[] {
  const lines: string[] = [];
  const joined = md.replace(/\\\n\s*/g, " ");
  let inBlock = false;
  for (const raw of joined.split("\n")) {
    if (raw.startsWith("```")) {
      inBlock = !inBlock;
      continue;
    }
    const spans = inBlock ? [raw] : [...raw.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    for (const span of spans) {
      for (const m of span.matchAll(/(?:^|[|(]\s*)(drover\s[^|)]*)/g)) {
        const cmd = m[1].trim();
        // Prose mentions of a bare command ("`drover read`") are names, not command lines.
        if (!inBlock && cmd.split(/\s+/).length < 3 && !cmd.includes("--")) continue;
        lines.push(cmd);
      }
    }
  }
  return lines;
}

Deno.test("skill: the embedded text is the source file (one source, no generated copy)", async () => {
  assert.equal(SKILL_TEXT, await Deno.readTextFile(SOURCE));
});

Deno.test("skill: front matter has name and description; the skill is short", () => {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(SKILL_TEXT);
  assert.ok(m, "SKILL.md must start with YAML front matter");
  const fm = parseYaml(m[1]) as Record<string, unknown>;
  assert.equal(fm.name, "drover");
  assert.equal(typeof fm.description, "string");
  assert.ok((fm.description as string).length > 40);
  assert.ok(SKILL_TEXT.split("\n").length < 250, "the skill must stay under 250 lines");
});

Deno.test("skill: teaches the reviewer-beside-self recipe and the safety rules", () => {
  for (
    const needle of [
      'drover launch --cli claude --split right --anchor "$TMUX_PANE" --background --prompt - --json',
      ".data.target.pane.id",
      "$TMUX_PANE",
      "drover wait",
      "--until idle",
      "drover read",
      "--last",
      "drover panes --json",
      "drover send",
      "Never `send` to your own pane",
      "Prompts always go through stdin",
      "Read exit codes, not prose",
      "permission prompt",
    ]
  ) assert.ok(SKILL_TEXT.includes(needle), `the skill must teach ${needle}`);
});

Deno.test("skill: every drover command line in it parses, with only flags that exist", () => {
  const lines = commandLines(SKILL_TEXT);
  assert.ok(lines.length >= 15, `only ${lines.length} command lines found`);
  const seen = new Set<string>();
  for (const line of lines) {
    const argv = words(line).slice(1);
    const r = parseArgv(ROOT, argv);
    assert.equal(r.error, undefined, `${line}: ${r.error?.message}`);
    assert.equal(r.help, undefined, `${line}: names a group, not a command`);
    assert.ok(r.path.length > 1, `${line}: no command`);
    seen.add(r.path.slice(1).map((c) => c.name).join(" "));
  }
  for (const c of ["launch", "wait", "read", "send", "panes", "clis list"]) {
    assert.ok(seen.has(c), `the skill never runs drover ${c}`);
  }
});

Deno.test("skill: the extractor finds broken lines too (the test above can fail)", () => {
  const bad = "```sh\ndrover launch --cli claude --splitt right\ndrover wiat %1\n```\n";
  const lines = commandLines(bad);
  assert.equal(lines.length, 2);
  for (const l of lines) assert.ok(parseArgv(ROOT, words(l).slice(1)).error, l);
});
