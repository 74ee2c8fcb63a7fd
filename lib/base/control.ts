/**
 * The one definition of a control character drover keeps away from a terminal and a reader: C0
 * (U+0000–U+001F), DEL and C1 (U+0080–U+009F, which some terminals also act on).
 */

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// deno-lint-ignore no-control-regex
const CONTROL_RUNS = /[\u0000-\u001f\u007f-\u009f]+/g;

export function hasControl(s: string): boolean {
  return CONTROL.test(s);
}

/** Each control character replaced by what `by` returns for it. */
export function replaceControls(s: string, by: (c: string) => string): string {
  return s.replace(CONTROLS, by);
}

/** Each run of control characters replaced by `by`. */
export function replaceControlRuns(s: string, by: string): string {
  return s.replace(CONTROL_RUNS, by);
}
