/**
 * The types a command's options and arguments get from its spec (lib/deps/argv_types.ts) are what
 * parseArgv hands over for that spec: checked at compile time on one spec with every kind of
 * option and argument, and at run time on what the parser returns for it.
 */
import type { Equal } from "../../lib/base/type_equal.ts";
import assert from "node:assert/strict";
import { type ArgsOf, type OptionsOf, parseArgv } from "../../lib/deps/cli.ts";

const CMD = {
  name: "cmd",
  help: "",
  args: [
    { arg: "<target>", help: "" },
    { arg: "[file]", help: "" },
    { arg: "[rest...]", help: "" },
  ],
  options: [
    { flags: "--dry-run", help: "" },
    { flags: "--no-probe", help: "" },
    { flags: "--cli <name>", help: "", required: true },
    { flags: "-L, --socket-name <name>", help: "" },
    { flags: "--format <format>", help: "", choices: ["human", "tsv"], default: "human" },
    { flags: "--allow <prefix>", help: "", repeatable: true },
    { flags: "--format-version <n>", help: "" },
  ],
} as const;
const ROOT = { name: "root", help: "", commands: [CMD] } as const;

type Opts = OptionsOf<typeof CMD>;
type Args = ArgsOf<typeof CMD>;
const OPTS_TYPE: Equal<Opts, {
  cli: string;
  format: "human" | "tsv";
  dryRun?: true;
  probe?: false;
  socketName?: string;
  allow?: string[];
  formatVersion?: string;
}> = true;
const ARGS_TYPE: Equal<Args, { target: string; rest: string[]; file?: string }> = true;
const NONE: Equal<OptionsOf<{ name: "x"; help: "" }>, Record<never, never>> = true;

Deno.test("argv types: a spec's options and arguments are typed as parseArgv returns them", () => {
  assert.ok(OPTS_TYPE && ARGS_TYPE && NONE);
  const r = parseArgv(ROOT, [
    "cmd",
    "%1",
    "--dry-run",
    "--no-probe",
    "--cli",
    "x",
    "-Lsock",
    "--allow",
    "a",
    "--allow",
    "b",
    "--format-version",
    "1",
  ]);
  assert.equal(r.error, undefined);
  const opts: Opts = {
    cli: "x",
    format: "human",
    dryRun: true,
    probe: false,
    socketName: "sock",
    allow: ["a", "b"],
    formatVersion: "1",
  };
  assert.deepEqual({ ...r.opts, ...r.globals }, opts);
  const args: Args = { target: "%1", rest: [] };
  assert.deepEqual(r.args, args);
});
