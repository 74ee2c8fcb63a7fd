/**
 * The wordings the approve gate judges option 1 by (DESIGN §6: an affirmative one-time choice,
 * never a rejection, a mode switch or a broad grant).
 *
 * A profile is configuration an agent's own worktree may influence, so it may only move the gate
 * towards refusing: the shipped profiles' wordings (embedded in the binary) always count, a pane's
 * resolved profile can ADD rejection, mode-switch and broad-grant wordings, and can only NARROW the
 * affirmative ones (option 1 must begin with a wording some shipped profile calls affirmative AND
 * with one of the pane's own). No wording lives here; it all comes from profiles/*.toml.
 */
import { shippedProfiles } from "./shipped.ts";
import type { ProfileValues } from "./fields.ts";
import type { ResolvedProfile } from "./resolve.ts";

export interface GateWords {
  /** Option 1 must begin with one of these (every shipped profile's affirmative wordings) … */
  readonly affirmative: readonly string[];
  /** … and with one of these (the pane's own profile; equal to `affirmative` when none). */
  readonly affirmativeOwn: readonly string[];
  /** Option 1 must not begin with one of these. */
  readonly rejection: readonly string[];
  /** Option 1 must not contain one of these (a permission-mode switch, either direction). */
  readonly modeSwitch: readonly string[];
  /** Option 1 must not contain one of these (a durable grant or a more permissive mode). */
  readonly broadGrant: readonly string[];
  /** A live modal showing one of these is a dialog, whatever else it shows (`dialog_markers`). */
  readonly dialog: readonly string[];
}

type Values = Partial<ProfileValues>;

const lower = (list: readonly string[] | undefined) => (list ?? []).map((m) => m.toLowerCase());

/** Both apostrophes: screens draw U+2019 where a profile may write ASCII ' (and back). */
function apostrophes(list: readonly string[]): string[] {
  return list.flatMap((m) => [m, m.replaceAll("'", "\u2019"), m.replaceAll("\u2019", "'")]);
}

function unique(list: readonly string[]): string[] {
  return list.filter((m, i) => m !== "" && list.indexOf(m) === i);
}

function broadOf(v: Values): string[] {
  return [
    ...(v.broad_grant_marker ? [v.broad_grant_marker] : []),
    ...(v.broad_grant_markers ?? []),
  ];
}

let shipped: GateWords | null = null;

/** The gate's wordings from the shipped profiles alone (what no configuration can take away). */
export function shippedGateWords(): GateWords {
  if (shipped) return shipped;
  const all = shippedProfiles().map((p) => p.values as Values);
  const affirmative = unique(all.flatMap((v) => lower(v.affirmative_option_markers)));
  shipped = Object.freeze({
    affirmative,
    affirmativeOwn: affirmative,
    rejection: unique(all.flatMap((v) => lower(v.rejection_option_markers))),
    modeSwitch: unique(apostrophes(all.flatMap((v) => lower(v.mode_switch_option_markers)))),
    broadGrant: unique(apostrophes(all.flatMap((v) => lower(broadOf(v))))),
    dialog: unique(all.flatMap((v) => lower(v.dialog_markers))),
  });
  return shipped;
}

/** The gate's wordings for a pane: the shipped ones, plus what its resolved profile adds. */
export function gateWordsFor(p: ResolvedProfile): GateWords {
  const base = shippedGateWords();
  const v = p.values as Values;
  const own = lower(v.affirmative_option_markers);
  return Object.freeze({
    affirmative: base.affirmative,
    affirmativeOwn: own.length > 0 ? own : base.affirmative,
    rejection: unique([...base.rejection, ...lower(v.rejection_option_markers)]),
    modeSwitch: unique([...base.modeSwitch, ...apostrophes(lower(v.mode_switch_option_markers))]),
    broadGrant: unique([...base.broadGrant, ...apostrophes(lower(broadOf(v)))]),
    dialog: unique([...base.dialog, ...lower(v.dialog_markers)]),
  });
}
