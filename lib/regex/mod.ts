/**
 * The bounded regex engine used by profiles and detectors alike: Rust-subset patterns parsed and
 * checked against one safety rule for every engine (compile.ts, safety.ts), matched in bounded time
 * (match.ts, vm.ts), and exported as POSIX ERE for sweep.sh (ere.ts).
 */
export { type CompiledPattern, compilePattern, parsePattern } from "./compile.ts";
export { ereEscape, markersToEre } from "./ere.ts";
export { PatternError } from "./error.ts";
export {
  boundLine,
  execBounded,
  Matcher,
  MAX_MATCH_LINE,
  MAX_STEPS,
  type RegexMatch,
  withStepBudget,
} from "./match.ts";
export {
  MAX_EXPANDED,
  MAX_GROUPS,
  MAX_PATTERN_LENGTH,
  MAX_REPEAT,
  MAX_UNBOUNDED,
  MAX_VARIABLE,
} from "./safety.ts";
