/**
 * The profile as sweep.sh reads it (`drover __prompt-profile`): every field as one POSIX ERE, plus
 * the compiled live-gate constants, so the script keeps no copy of any marker or window.
 *
 * TSV contract (format version 3), read with `IFS=$'\t' read -r name ere`, never `eval`:
 *   #drover-prompt-profile<TAB>3          first line; a reader refuses any other version
 *   <field><TAB><ere>                     one row per profile field
 *   _<constant><TAB><value>               compiled constants (decoration class, windows, the
 *                                         input-line window, the shell-prompt ending, the
 *                                         glyphs that mark a selected option)
 *   _gate_<list><TAB><ere>                the approve gate's option-1 wordings (gate_words.ts:
 *                                         shipped ones + the CLI's additions), marker lists
 * Rows whose name ends in `_pattern` carry their case rule inside the ERE: match them as given.
 * Every other field row is a marker list: match it case-insensitively (`grep -Ei`, nocasematch).
 * An empty ERE means the (extension) field is unset for this CLI: skip it, it never matches.
 * Run the EREs in a UTF-8 locale (e.g. LC_ALL=C.UTF-8) so glyphs are characters, not bytes.
 */
import { DECORATION } from "../detect/text.ts";
import { SELECT_GLYPHS } from "../detect/line_kinds.ts";
import {
  BOTTOM_REGION,
  INPUT_LINE_WINDOW,
  LIVE_BLOCK,
  LIVE_TAIL,
  SHELL_SIGILS,
  SHIFTED_MAX_BELOW,
  SHIFTED_OPTION_ABOVE,
} from "../detect/mod.ts";
import { type FieldKind, type FieldName, FIELDS } from "../profile/fields.ts";
import { ereEscape, markersToEre } from "../regex/ere.ts";
import type { ResolvedProfile } from "../profile/resolve.ts";
import { gateWordsFor } from "../profile/gate_words.ts";

/**
 * 2: the layout rule of the live gate (issue 16) needs `_input_line_window` and
 * `_shell_prompt_end`; a format-1 reader would judge look-alike prompts live, so it must refuse.
 * 3: busy by shape (issue 21) adds `activity_line_pattern` and `background_pattern`; a format-2
 * reader would not know the activity line is busy (detect-stuck would report a paste left in
 * the box of a CLI that is compacting, monitoring or running a hook), so it must refuse.
 */
export const PROMPT_PROFILE_FORMAT = 3;
export const PROMPT_PROFILE_HEADER = `#drover-prompt-profile\t${PROMPT_PROFILE_FORMAT}`;

export interface ExportRow {
  name: string;
  kind: FieldKind | "constant";
  /** true: consumers match this ERE case-insensitively. */
  case_insensitive: boolean;
  ere: string;
}

/** ERE bracket expression for the strip_decoration prefix (whitespace + glyphs, never `>`). */
export function decorationClass(): string {
  const glyphs = [...DECORATION].map((g) => g === "-" ? "" : g).join("");
  return `[[:space:]${glyphs}]`;
}

/** ERE for one field of a resolved profile. */
export function fieldEre(p: ResolvedProfile, name: FieldName): string {
  const spec = FIELDS.find((f) => f.name === name)!;
  if (spec.kind === "markers") return markersToEre(p.values[name] as readonly string[]);
  if (spec.kind === "pattern") return (p.matchers.ere as Record<string, string>)[name];
  // The broad-grant row carries every durable-grant wording (broad_grant_marker and the
  // broad_grant_markers extension), with ' and ’ alike, so the option-1 guard sees them all.
  const all = [p.values.broad_grant_marker, ...p.values.broad_grant_markers];
  const variants = [
    ...new Set(all.flatMap((m) => [m, m.replaceAll("'", "\u2019"), m.replaceAll("\u2019", "'")])),
  ];
  return variants.map(ereEscape).join("|");
}

/** The live gate's option-line ERE: decoration prefix + option_line_pattern. */
export function liveOptionEre(p: ResolvedProfile): string {
  const alts = p.matchers.ereAlternatives.option_line_pattern;
  const deco = decorationClass();
  return alts.map((a) => a.startsWith("^") ? `^${deco}*${a.slice(1)}` : a).join("|");
}

export function exportRows(p: ResolvedProfile): ExportRow[] {
  const rows: ExportRow[] = FIELDS.map((f) => ({
    name: f.name,
    kind: f.kind,
    case_insensitive: f.kind !== "pattern",
    ere: fieldEre(p, f.name),
  }));
  const constants: Array<[string, string]> = [
    ["_decoration_class", decorationClass()],
    ["_live_option_line", liveOptionEre(p)],
    ["_live_tail", String(LIVE_TAIL)],
    ["_live_block", String(LIVE_BLOCK)],
    ["_shifted_max_below", String(SHIFTED_MAX_BELOW)],
    ["_shifted_option_above", String(SHIFTED_OPTION_ABOVE)],
    ["_bottom_region", String(BOTTOM_REGION)],
    ["_input_line_window", String(INPUT_LINE_WINDOW)],
    ["_shell_prompt_end", `(${SHELL_SIGILS.map(ereEscape).join("|")})$`],
    ["_select_glyphs", SELECT_GLYPHS.join("")],
  ];
  for (const [name, ere] of constants) {
    rows.push({ name, kind: "constant", case_insensitive: false, ere });
  }
  // The gate's wordings (lowercase marker lists, matched case-insensitively like the fields).
  const w = gateWordsFor(p);
  const lists: Array<[string, readonly string[]]> = [
    ["_gate_affirmative", w.affirmative],
    ["_gate_affirmative_own", w.affirmativeOwn],
    ["_gate_rejection", w.rejection],
    ["_gate_mode_switch", w.modeSwitch],
    ["_gate_broad_grant", w.broadGrant],
  ];
  for (const [name, list] of lists) {
    rows.push({ name, kind: "constant", case_insensitive: true, ere: markersToEre(list) });
  }
  return rows;
}

export function toTsv(rows: readonly ExportRow[]): string {
  return [PROMPT_PROFILE_HEADER, ...rows.map((r) => `${r.name}\t${r.ere}`)].join("\n") + "\n";
}
