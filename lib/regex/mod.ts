/**
 * The bounded regex engine used by profiles and detectors alike: Rust-subset patterns checked and
 * translated to linear-time JS (compile.ts), their POSIX ERE export for sweep.sh (ere.ts), and
 * matching that cannot stall (match.ts).
 */
export { type CompiledPattern, compilePattern } from "./compile.ts";
export { ereEscape, markersToEre } from "./ere.ts";
export { PatternError } from "./error.ts";
export { boundLine, execBounded, MAX_MATCH_LINE } from "./match.ts";
