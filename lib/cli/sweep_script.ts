/** `drover sweep-script`: print the bundled sweep.sh (embedded in the binary). */
import sweepScript from "../../sweep/sweep.sh" with { type: "text" };
import type { Invocation } from "./invocation.ts";
import { type CommandResult, writeOut } from "./output.ts";
import type { SweepScriptData } from "../contracts/sweep_script.ts";

export const SWEEP_SCRIPT: string = sweepScript;

export function action({ g }: Invocation): CommandResult<SweepScriptData> {
  const data = { bytes: new TextEncoder().encode(SWEEP_SCRIPT).length, script: SWEEP_SCRIPT };
  if (g.json) return { data };
  // Byte-exact: the script is printed as is, not through the line-oriented human output.
  writeOut(SWEEP_SCRIPT);
  return { data, human: [] };
}
