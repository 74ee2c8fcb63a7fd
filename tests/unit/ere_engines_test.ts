/**
 * The safety rule protects sweep.sh's engines too: the largest patterns the rule accepts, exported
 * as ERE, finish in bash `[[ =~ ]]` (glibc regexec with capture groups, the slow one) and
 * `grep -E` on a long line, in a UTF-8 locale. Before the rule, `(.*){1,100}[bc]` took bash over a
 * second on a 120-column line of box-drawing characters and `([a-z─]{1,100}){1,10}z` about 20 s.
 *
 * Not a speed test (the machine is shared): each run gets a generous `timeout`, and only a run
 * that hits it fails. The times are printed for the record.
 */
import assert from "node:assert/strict";
import { compilePattern } from "../../lib/regex/mod.ts";

const WORDS = Array.from({ length: 90 }, (_, i) => `phrase ${i.toString(36)}x`).join("|");

/** Accepted patterns at the caps: open positions, unbounded repetitions, groups, size. */
const LARGEST = [
  "(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.{0,8})z",
  "(.*)(.{0,15})z",
  "x" + "(.?)".repeat(15) + "z",
  "(?:abcd){250}",
  `(?:${WORDS})`,
  "([a-w─]{1,4}x){4}z",
  "(?i)(?:make this edit to|do you want to create)\\s+(.+?)\\s*\\??\\s*$",
];

const LONG = 1024;
const LINES = ["─a".repeat(LONG / 2), "a".repeat(LONG), "❯ 1. Yes ".repeat(LONG / 9)];
const ENV = { LC_ALL: "C.UTF-8", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
const LIMIT_S = 60;

async function timed(cmd: string, args: string[], stdin?: string): Promise<[number, number]> {
  const t0 = performance.now();
  const child = new Deno.Command("timeout", {
    args: [String(LIMIT_S), cmd, ...args],
    env: ENV,
    clearEnv: true,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  return [out.code, (performance.now() - t0) / 1000];
}

Deno.test("the largest accepted patterns finish in bash [[ =~ ]] and grep -E on a long line", async () => {
  const report: string[] = [];
  for (const src of LARGEST) {
    const ere = compilePattern(src).ere; // throws if the rule refused it
    for (const line of LINES) {
      const script = `[[ $2 =~ $1 ]]; r=$?; [ $r -eq 2 ] && exit 3; exit 0`;
      const [bash, tb] = await timed("bash", ["-c", script, "bash", ere, line]);
      assert.notEqual(
        bash,
        124,
        `bash [[ =~ ]] ran past ${LIMIT_S} s: ${src} on ${line.slice(0, 9)}…`,
      );
      assert.equal(bash, 0, `bash rejected the ERE of ${src}`);
      const [grep, tg] = await timed("grep", ["-E", "-c", "-e", ere], line + "\n");
      assert.notEqual(grep, 124, `grep -E ran past ${LIMIT_S} s: ${src}`);
      assert.ok(grep === 0 || grep === 1, `grep rejected the ERE of ${src}`);
      report.push(
        `${tb.toFixed(2)} s bash, ${tg.toFixed(2)} s grep: ${src.slice(0, 40)} on ${
          JSON.stringify(line.slice(0, 4))
        }…`,
      );
    }
  }
  console.log(report.map((r) => "  " + r).join("\n"));
});
