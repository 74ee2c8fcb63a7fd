/**
 * `drover profile test --cli NAME DIR`: judge a folder of a user's own captured screens, each named
 * by the state it really shows (`prompt-*.txt`, `busy-*.txt`, …, optional `*.ansi.txt` styled
 * companions), with the profile NAME resolves to (configuration included), and report every screen
 * whose detected state differs, with the profile fields involved and the lines that matched them.
 * Also the saving half of `drover capture TARGET --save DIR --as STATE`, which collects such screens.
 */
import { MAX_CAPTURE_BYTES, readFileCapped, TooLarge, tooLargeError } from "../io/capped.ts";
import { writeAtomic } from "../io/safe_file.ts";
import { DroverError, invalidArgument } from "../errors.ts";
import { detect, type PaneState, type Verdicts } from "../detect/mod.ts";
import type { FieldName } from "../profile/fields.ts";
import {
  checkCliFlag,
  effectiveCli,
  type ResolvedProfile,
  resolveProfile,
} from "../profile/resolve.ts";
import { type Evidence, evidenceFor, STATE_FIELDS } from "../profile/evidence.ts";
import { configFor } from "./cli_common.ts";
import type { Invocation } from "./invocation.ts";
import type { PROFILE_TEST } from "./command_specs.ts";
import { type CommandResult, printable } from "./output.ts";
import type { ProfileTestData } from "../contracts/profile.ts";

/** The states a screen file may be named after (DESIGN §5). */
export const SCREEN_STATES = [
  "prompt",
  "dialog",
  "busy",
  "idle",
  "shell",
  "unavailable",
  "unknown",
] as const satisfies readonly PaneState[];

export type ScreenState = typeof SCREEN_STATES[number];

export { type Evidence, evidenceFor, STATE_FIELDS };

/** Exit code when at least one screen is judged differently from its name. */
export const EXIT_PROFILE_MISMATCH = 1;

export interface ScreenResult {
  file: string;
  styled: string | null;
  expected: ScreenState;
  actual: PaneState;
  ok: boolean;
  /** Fields involved in the mismatch (expected state's fields, then the actual state's). */
  fields: FieldName[];
  /** Lines of the screen that match those fields. */
  evidence: Evidence[];
  verdicts: Verdicts;
}

export interface ProfileTestReport {
  cli: string;
  shipped: string | null;
  dir: string;
  screens: ScreenResult[];
  mismatches: number;
  skipped: string[];
}

const NAME_RE = /^([a-z]+)-.+\.txt$/;

/** Which files of DIR are screens: `<state>-<anything>.txt`, minus the `.ansi.txt` companions. */
export function screenFiles(
  names: readonly string[],
): { screens: { file: string; state: ScreenState; styled: string | null }[]; skipped: string[] } {
  const set = new Set(names);
  const screens: { file: string; state: ScreenState; styled: string | null }[] = [];
  const skipped: string[] = [];
  for (const n of [...names].sort()) {
    if (!n.endsWith(".txt") || n.endsWith(".ansi.txt")) continue;
    const m = NAME_RE.exec(n);
    const state = m?.[1];
    if (!state || !(SCREEN_STATES as readonly string[]).includes(state)) {
      skipped.push(n);
      continue;
    }
    const styled = n.replace(/\.txt$/, ".ansi.txt");
    screens.push({ file: n, state: state as ScreenState, styled: set.has(styled) ? styled : null });
  }
  return { screens, skipped };
}

/** Judge one screen against the state its name claims. */
export function judgeScreen(
  p: ResolvedProfile,
  screen: { file: string; state: ScreenState; styled: string | null },
  plain: string,
  styled: string | undefined,
): ScreenResult {
  const verdicts = detect({ plain, styled }, p);
  const ok = verdicts.state === screen.state;
  const fields = ok ? [] : [
    ...new Set([
      ...STATE_FIELDS[screen.state],
      ...STATE_FIELDS[verdicts.state as ScreenState] ?? [],
    ]),
  ];
  return {
    file: screen.file,
    styled: screen.styled,
    expected: screen.state,
    actual: verdicts.state,
    ok,
    fields,
    evidence: ok ? [] : evidenceFor(plain, p, fields),
    verdicts,
  };
}

async function readText(path: string): Promise<string> {
  try {
    const bytes = await readFileCapped(path, MAX_CAPTURE_BYTES, `screen ${path}`);
    return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  } catch (e) {
    if (e instanceof TooLarge) throw tooLargeError(e, "a screen is one capture-pane -p -J");
    throw e;
  }
}

/** Run a profile over a folder of named screens. */
export async function profileTest(p: ResolvedProfile, dir: string): Promise<ProfileTestReport> {
  let names: string[];
  try {
    names = [];
    for await (const e of Deno.readDir(dir)) if (e.isFile) names.push(e.name);
  } catch (e) {
    throw new DroverError(
      "INVALID_ARGUMENT",
      `cannot read screen folder ${dir}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const { screens, skipped } = screenFiles(names);
  if (screens.length === 0) {
    throw invalidArgument(
      `no screens in ${dir}: name each capture after the state it shows, e.g. prompt-1.txt, ` +
        `busy-1.txt (states: ${SCREEN_STATES.join(", ")}); \`drover capture TARGET --save ${dir} ` +
        "--as STATE` saves one",
    );
  }
  const results: ScreenResult[] = [];
  for (const s of screens) {
    const plain = await readText(`${dir}/${s.file}`);
    const styled = s.styled ? await readText(`${dir}/${s.styled}`) : undefined;
    results.push(judgeScreen(p, s, plain, styled));
  }
  return {
    cli: p.cli,
    shipped: p.shipped,
    dir,
    screens: results,
    mismatches: results.filter((r) => !r.ok).length,
    skipped,
  };
}

function sourceOf(p: ResolvedProfile, f: FieldName): string {
  const s = p.sources[f] as { layer: string; file?: string; line?: number; profile?: string };
  if (s.layer === "config") return `config ${s.file}:${s.line}`;
  if (s.file) return `${s.layer} ${s.profile ?? ""} ${s.file}:${s.line}`.replace(/\s+/g, " ");
  return s.layer;
}

export function humanReport(d: ProfileTestReport, p: ResolvedProfile): string[] {
  const out: string[] = [];
  out.push(
    `profile test: ${d.cli}${
      d.shipped ? ` (shipped profile: ${d.shipped})` : ""
    } on ${d.screens.length} ` +
      `screen(s) in ${d.dir}`,
  );
  for (const r of d.screens) {
    if (r.ok) {
      out.push(`  ok        ${r.file}: ${r.actual}`);
      continue;
    }
    out.push(`  MISMATCH  ${r.file}: expected ${r.expected}, detected ${r.actual}`);
    out.push(`    fields involved:`);
    for (const f of r.fields) {
      out.push(`      ${f} = ${printable(JSON.stringify(p.values[f]))}  (${sourceOf(p, f)})`);
    }
    if (r.evidence.length === 0) out.push(`    no line of the screen matches any of them`);
    else {
      out.push(`    matching lines:`);
      for (const e of r.evidence.slice(0, 12)) {
        out.push(
          `      line ${e.line}: ${e.field} ${printable(JSON.stringify(e.match))} in ${
            printable(JSON.stringify(e.text.slice(0, 100)))
          }`,
        );
      }
      if (r.evidence.length > 12) out.push(`      … ${r.evidence.length - 12} more`);
    }
  }
  for (const s of d.skipped) out.push(`  skipped   ${s}: not named <state>-*.txt`);
  out.push(
    d.mismatches === 0
      ? `all ${d.screens.length} screen(s) match`
      : `${d.mismatches} of ${d.screens.length} screen(s) do not match`,
  );
  return out;
}

/** `drover profile test --cli NAME DIR`. */
export async function action(
  { args, opts, g }: Invocation<typeof PROFILE_TEST>,
): Promise<CommandResult<ProfileTestData>> {
  const dir = args.dir;
  const config = await configFor(g);
  checkCliFlag(opts.cli, config);
  const p = resolveProfile(effectiveCli(opts.cli, config), config);
  const data = await profileTest(p, dir.replace(/\/+$/, "") || dir);
  return {
    data,
    human: humanReport(data, p),
    exitCode: data.mismatches > 0 ? EXIT_PROFILE_MISMATCH : 0,
    warnings: data.skipped.length
      ? [`skipped ${data.skipped.length} file(s) not named <state>-*.txt`]
      : [],
  };
}

/** Validate a `--as` state for `capture --save`. */
export function parseScreenState(v: string | undefined): ScreenState {
  if (v === undefined) {
    throw invalidArgument("--save needs --as STATE (the state the screen shows)");
  }
  if (!(SCREEN_STATES as readonly string[]).includes(v)) {
    throw invalidArgument(`--as must be one of ${SCREEN_STATES.join(", ")} (got "${v}")`);
  }
  return v as ScreenState;
}

/**
 * Save a capture for `profile test`: `<dir>/<state>-<n>.txt` (plain) and `<state>-<n>.ansi.txt`
 * (styled), with the next free `n`. Returns the plain file's path.
 */
export async function saveScreen(
  dir: string,
  state: ScreenState,
  plain: string,
  styled: string,
): Promise<{ plain: string; styled: string }> {
  try {
    await Deno.mkdir(dir, { recursive: true });
    let max = 0;
    for await (const e of Deno.readDir(dir)) {
      const m = new RegExp(`^${state}-([0-9]+)\\.txt$`).exec(e.name);
      if (m) max = Math.max(max, Number(m[1]));
    }
    for (let n = max + 1;; n++) {
      const base = `${dir}/${state}-${n}`;
      try {
        // createNew: never overwrite a screen someone saved concurrently.
        await Deno.writeTextFile(`${base}.txt`, plain, { createNew: true });
      } catch (e) {
        if (e instanceof Deno.errors.AlreadyExists) continue;
        throw e;
      }
      // Never through a symlink planted at the styled name.
      await writeAtomic(`${base}.ansi.txt`, new TextEncoder().encode(styled), 0o644);
      return { plain: `${base}.txt`, styled: `${base}.ansi.txt` };
    }
  } catch (e) {
    throw new DroverError(
      "IO_FAILED",
      `cannot save the screen in ${dir}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
