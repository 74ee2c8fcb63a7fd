/**
 * Compile-time checks that two types are the same type, not merely assignable either way: what
 * holds the printed JSON to its contract (lib/cli/contract_checks.ts) and a spec's derived types to
 * what the parser returns.
 */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2)
  ? true
  : false;

/** Compiles only when `T` is `true`. */
export type Assert<T extends true> = T;
