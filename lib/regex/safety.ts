/**
 * One safety rule for every engine a profile pattern runs on: drover's own matcher (linear, with a
 * step budget), V8-style backtracking engines, and glibc's POSIX regex behind sweep.sh's
 * `[[ =~ ]]` and `grep -E` (which expands counted repetitions and slows down with every
 * simultaneously active position). A pattern is rejected when
 *
 * - a repetition (`*`, `+`, `?`, `{n,m}`) applies to something that can match the empty string
 *   (`(a*)*`, `(.*){17}`, `(a?)+`): the classic catastrophic shape, and one where engines disagree
 *   on the captures;
 * - inside a repeated group (`{n,m}` with m ≥ 2, `+`, `*`) a variable-length repetition is not
 *   closed by a character it cannot itself consume (`(a+)+`, `(?:.*){1,50}`, `(a{1,2})+` — but
 *   `(\d{1,3}\.){3}` is fine), or alternatives can start with the same character (`(a|a)*`,
 *   `(a|ab)*c`): a backtracking engine tries every way to split the text between them;
 * - it is too big for the engines: longer than MAX_PATTERN_LENGTH, a count above MAX_REPEAT, more
 *   than MAX_EXPANDED characters once counted repetitions are written out, more than MAX_GROUPS
 *   groups, more than MAX_UNBOUNDED unbounded repetitions, or more than MAX_VARIABLE open
 *   positions (a match may or may not take them: `*`, `+`, `?` count 1, `{n,m}` counts m − n),
 *   which is what makes glibc slow;
 * - it matches almost any line (`[^x]`, `[[:print:]]`, `.`, `\S|\s`): see `breadth`.
 */
import { CharSet } from "./charset.ts";
import { PatternError } from "./error.ts";
import { firstSet, type Node, nullable, type Tree } from "./ir.ts";

/** Longest pattern accepted, in UTF-16 code units (what a TOML string length is in JS). */
export const MAX_PATTERN_LENGTH = 1000;
/** Largest count in `{n}`, `{n,}`, `{n,m}` (portable POSIX ERE allows 255). */
export const MAX_REPEAT = 255;
/** Most characters a pattern may hold once its counted repetitions are written out. */
export const MAX_EXPANDED = 1000;
/** Most groups (capturing or not: each is a group in the ERE form). */
export const MAX_GROUPS = 16;
/** Most unbounded repetitions (`*`, `+`, `{n,}`). */
export const MAX_UNBOUNDED = 8;
/**
 * Most open positions: each unbounded repetition counts 1, `?` counts 1, `{n,m}` counts m − n,
 * times what they repeat. glibc (bash `[[ =~ ]]`) slows down with every one of them that a line
 * can keep open at once, most when capture groups border on them.
 */
export const MAX_VARIABLE = 16;
/** A pattern whose average line position matches with this probability or more is match-all. */
export const MAX_BREADTH = 0.5;

/** A part of the pattern a rule points at, for the message. */
export type Describe = (n: Node) => string;

function fail(reason: string): never {
  throw new PatternError(reason);
}

/** Counted-out size of a node (characters after writing out `{n,m}`). */
export function expandedSize(n: Node): number {
  switch (n.kind) {
    case "set":
      return 1;
    case "cat":
    case "alt": {
      let s = 0;
      for (const it of n.items) s += expandedSize(it);
      return s;
    }
    case "rep":
      return expandedSize(n.body) * (n.max === Infinity ? Math.max(n.min, 1) : n.max);
    case "group":
      return expandedSize(n.body);
    default:
      return 0;
  }
}

function unionOrNull(a: CharSet | null, b: CharSet | null): CharSet | null {
  return a && b ? a.union(b) : (a ?? b);
}

/**
 * Inside the body of a repeated group: every variable-length repetition must be followed (still
 * inside the body) by a character it cannot consume, and alternatives must start differently.
 * `follow` = what can come next inside the body; null = the body may end here.
 */
function checkLoopBody(n: Node, follow: CharSet | null, show: Describe): void {
  switch (n.kind) {
    case "cat": {
      // follows[k] = what may come right after items[k] inside the body.
      const follows: Array<CharSet | null> = new Array(n.items.length);
      let next: CharSet | null = follow;
      let open = follow === null; // the body can end after this point
      for (let k = n.items.length - 1; k >= 0; k--) {
        follows[k] = open ? null : next;
        const it = n.items[k];
        const f = firstSet(it);
        if (nullable(it)) {
          next = unionOrNull(f, next);
        } else {
          next = f;
          open = false;
        }
      }
      n.items.forEach((it, k) => checkLoopBody(it, follows[k], show));
      return;
    }
    case "alt": {
      const firsts = n.items.map(firstSet);
      for (let a = 0; a < firsts.length; a++) {
        for (let b = a + 1; b < firsts.length; b++) {
          const fa = firsts[a], fb = firsts[b];
          if (fa && fb && fa.intersects(fb)) {
            fail(
              `alternatives in a repeated group start with the same character (at ` +
                `"${show(n)}"): a backtracking engine tries every way to split the text ` +
                `between them; make them start differently or move the common part out`,
            );
          }
        }
      }
      for (const it of n.items) checkLoopBody(it, follow, show);
      return;
    }
    case "group":
      checkLoopBody(n.body, follow, show);
      return;
    case "rep": {
      if (n.max === 0) return;
      if (n.min !== n.max) {
        const mine = firstSet(n.body);
        if (follow === null || (mine !== null && mine.intersects(follow))) {
          fail(
            `a variable-length repetition nested in a repeated group with nothing in the ` +
              `group to close it (at "${show(n)}"): like (a+)+ this backtracks ` +
              `catastrophically; follow it with a character it cannot match, or flatten the ` +
              `nesting`,
          );
        }
      }
      // Inside: after one iteration comes another one or whatever follows the repetition.
      const again = n.max > 1 ? unionOrNull(firstSet(n.body), follow) : follow;
      checkLoopBody(n.body, follow === null ? null : again, show);
      return;
    }
    default:
      return;
  }
}

interface Tally {
  groups: number;
  unbounded: number;
  variable: number;
}

function walk(n: Node, mult: number, t: Tally, show: Describe): void {
  switch (n.kind) {
    case "cat":
    case "alt":
      for (const it of n.items) walk(it, mult, t, show);
      return;
    case "group":
      t.groups++;
      walk(n.body, mult, t, show);
      return;
    case "rep": {
      if (n.min > MAX_REPEAT || (n.max !== Infinity && n.max > MAX_REPEAT)) {
        fail(`a repetition count above ${MAX_REPEAT} (at "${show(n)}")`);
      }
      if (n.max >= 1 && nullable(n.body)) {
        fail(
          `repeats something that can match the empty string (at "${show(n)}"): like ` +
            `(a*)* this backtracks catastrophically; make every repetition consume at least ` +
            `one character`,
        );
      }
      if (n.max >= 2 && (n.body.kind !== "set")) checkLoopBody(n.body, null, show);
      if (n.max === Infinity) {
        t.unbounded += mult;
        walk(n.body, mult * Math.max(n.min, 1), t, show);
      } else {
        t.variable += (n.max - n.min) * expandedSize(n.body) * mult;
        walk(n.body, mult * n.max, t, show);
      }
      return;
    }
    default:
      return;
  }
}

/**
 * How likely a pattern is to match at an ordinary line position: each character set counts the
 * share of printable ASCII it accepts, optional parts count as always matching, alternatives add
 * up. `[^x]`, `[[:print:]]`, `[ -~]`, `.`, `\S|\s` all come out near 1; `^[0-9][.)]` near 0.002.
 */
export function breadth(n: Node): number {
  switch (n.kind) {
    case "set":
      return n.set.printableAscii() / 95;
    case "cat": {
      let p = 1;
      for (const it of n.items) p *= breadth(it);
      return p;
    }
    case "alt": {
      if (nullable(n)) return 1;
      let p = 0;
      for (const it of n.items) p += breadth(it);
      return Math.min(1, p);
    }
    case "rep":
      return n.min === 0 ? 1 : Math.pow(breadth(n.body), n.min);
    case "group":
      return breadth(n.body);
    default:
      return 1;
  }
}

/** Length cap, checked before parsing (so a huge pattern costs nothing). */
export function checkLength(source: string): void {
  if (source.length > MAX_PATTERN_LENGTH) {
    fail(`too long: ${source.length} characters (at most ${MAX_PATTERN_LENGTH})`);
  }
}

/** Every structural rule above. Throws PatternError naming the rule. */
export function checkTree(tree: Tree, show: Describe): void {
  const t: Tally = { groups: 0, unbounded: 0, variable: 0 };
  walk(tree.root, 1, t, show);
  const size = expandedSize(tree.root);
  if (size > MAX_EXPANDED) {
    fail(
      `too large: ${size} characters once counted repetitions are written out ` +
        `(at most ${MAX_EXPANDED})`,
    );
  }
  if (t.groups > MAX_GROUPS) fail(`too many groups: ${t.groups} (at most ${MAX_GROUPS})`);
  if (t.unbounded > MAX_UNBOUNDED) {
    fail(`too many unbounded repetitions (*, +, {n,}): ${t.unbounded} (at most ${MAX_UNBOUNDED})`);
  }
  const open = t.variable + t.unbounded;
  if (open > MAX_VARIABLE) {
    fail(
      `too many open positions: ${open} (at most ${MAX_VARIABLE}; *, + and ? count 1, {n,m} ` +
        `counts m − n, times what they repeat): POSIX engines slow down with each one`,
    );
  }
  // A branch that matches the empty string is judged by the empty-match rule (validate.ts), not
  // here: `^$|^x` needs x or an empty line.
  const root = tree.root;
  const branches = root.kind === "alt" ? root.items : [root];
  const broad = branches.filter((b) => !nullable(b)).reduce((p, b) => p + breadth(b), 0);
  if (broad >= MAX_BREADTH) {
    fail(
      "matches almost any line: it needs no specific text ([^x], [[:print:]], . or \\S match " +
        "nearly every character); anchor it on the words the screen shows",
    );
  }
}
