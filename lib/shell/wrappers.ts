/**
 * Wrappers: programs that run the rest of their words as a command (`timeout 5 make`, `nice -n 5
 * make`). These are the ones both the danger rules (danger.ts) and the opaque-code checks
 * (opaque.ts) look through; each adds its own on top, and says why.
 */
export const COMMAND_WRAPPERS: readonly string[] = [
  "env",
  "nohup",
  "nice",
  "ionice",
  "timeout",
  "stdbuf",
  "setsid",
  "exec",
  "command",
  "builtin",
  "time",
  "unbuffer",
  "chrt",
  "taskset",
  "flock",
  "strace",
  "ltrace",
  "caffeinate",
  "chroot",
  "sg",
];
