/**
 * Judging a prompt's command for the drive loop: the compiled danger rules first (danger.ts), then
 * the opaque forms (opaque.ts), then the configured allowlist.
 *
 * The allowlist is stricter still: every simple command of the line must start with the words of
 * an allowlist entry, and the line must hold nothing whose effect is not literal (substitutions,
 * expansions, assignments in front of the command, output redirections, compound syntax). Code
 * that runs code (opaque.ts: `node -e`, `git -c`, `npx` …) is never approved by a prefix: only an
 * entry equal to the whole command approves it.
 */
import { type DangerRule, findDanger } from "./danger.ts";
import { findOpaque } from "./opaque.ts";
import { normalizePath } from "./paths.ts";
import { parseShell } from "./shell_words.ts";

export type CommandVerdict =
  | { decision: "allow"; matched: string[] }
  | { decision: "danger"; rule: DangerRule; detail: string }
  /** Code that runs code (opaque.ts): no prefix entry approves it, only one equal to the command. */
  | { decision: "opaque"; form: string; detail: string }
  | { decision: "unlisted"; reason: string };

/** Features a command may have and still be allowlisted. */
const TOLERATED = new Set(["glob"]);
const JOINS = new Set(["", ";", "\n", "&&", "||", "|"]);

function isHarmlessRedirect(op: string, target: string, dynamic: boolean): boolean {
  if (target === "" && /&[0-9]+$/.test(op)) return true; // 2>&1, >&2
  if (dynamic) return false;
  if (op.includes(">")) return normalizePath(target) === "/dev/null";
  return /^[0-9]*<$/.test(op); // reading a file
}

/** Normalise an allowlist entry into its words (entries are plain command prefixes). */
export function entryWords(entry: string): string[] {
  return entry.trim().split(/\s+/).filter((w) => w !== "");
}

/**
 * Judge a prompt's command: compiled danger rules first (no configuration overrides them), then
 * the opaque forms (no prefix approves them), then the allowlist of command prefixes. Only "allow"
 * may lead to an approval.
 */
export function classifyCommand(command: string, allow: readonly string[]): CommandVerdict {
  const text = command.trim();
  if (text === "") return { decision: "unlisted", reason: "the prompt shows no command" };
  const danger = findDanger(text);
  if (danger) return { decision: "danger", rule: danger.rule, detail: danger.detail };
  const opaque = findOpaque(text);
  // An entry written out as this very command is the operator's judgement of its program text.
  const whole = opaque ? allow.find((a) => a.trim() === text) : undefined;
  if (opaque && whole === undefined) {
    return { decision: "opaque", form: opaque.form, detail: opaque.detail };
  }
  const entries = allow.map(entryWords).filter((e) => e.length > 0);
  if (entries.length === 0) return { decision: "unlisted", reason: "the allowlist is empty" };
  const p = parseShell(text);
  if (p.error) return { decision: "unlisted", reason: `cannot read the command (${p.error})` };
  const blocking = [...p.features].filter((f) => !TOLERATED.has(f));
  if (blocking.length > 0) {
    return { decision: "unlisted", reason: `the command uses ${blocking.sort().join(", ")}` };
  }
  if (p.segments.length === 0) {
    return { decision: "unlisted", reason: "the prompt shows no command" };
  }
  const matched: string[] = [];
  for (const seg of p.segments) {
    if (!JOINS.has(seg.joinedBy)) {
      return { decision: "unlisted", reason: `the command is joined by "${seg.joinedBy}"` };
    }
    const bad = seg.redirects.find((r) => !isHarmlessRedirect(r.op, r.target, r.dynamic));
    if (bad) {
      return {
        decision: "unlisted",
        reason: `the command redirects ${bad.op} ${bad.target}`.trim(),
      };
    }
    if (whole !== undefined) continue;
    const hit = entries.find((e) =>
      e.length <= seg.words.length &&
      e.every((w, k) => seg.words[k] === w && !seg.dynamic[k] && !seg.glob[k])
    );
    if (!hit) {
      return {
        decision: "unlisted",
        reason: `"${seg.words.join(" ")}" matches no allowlist entry`,
      };
    }
    matched.push(hit.join(" "));
  }
  return { decision: "allow", matched: whole !== undefined ? [whole.trim()] : matched };
}
