/** `drover sweep-script`: print the bundled sweep.sh (embedded in the binary). */
import type { Command } from "../deps/cli.ts";
import sweepScript from "../../sweep/sweep.sh" with { type: "text" };
import { writeOut } from "./output.ts";
import { run } from "./context.ts";

export const SWEEP_SCRIPT: string = sweepScript;

export function register(program: Command): void {
  program
    .command("sweep-script")
    .description("print the bundled sweep.sh helper (save it, chmod +x, run it)")
    .action(async (_o: unknown, cmd: Command) => {
      await run(cmd, "drover.sweep-script.v1", (g) => {
        const data = { bytes: new TextEncoder().encode(SWEEP_SCRIPT).length, script: SWEEP_SCRIPT };
        if (g.json) return { data };
        // Byte-exact: the script is printed as is, not through the line-oriented human output.
        writeOut(SWEEP_SCRIPT);
        return { data, human: [] };
      });
    });
}
