/** `drover read TARGET [--last N] [--wait-stable …]`: a pane's text, optionally once it settled. */
import type { Command } from "../deps/cli.ts";
import { DroverError } from "../errors.ts";
import { lastLines, readSettings, waitStable } from "../launch/read.ts";
import { capturePane } from "../tmux/capture.ts";
import { resolveTarget } from "../tmux/panes.ts";
import { selectServer } from "../tmux/server.ts";
import { run } from "./context.ts";
import { printable } from "./output.ts";

export interface ReadData {
  pane_id: string;
  target: string;
  mode: "snapshot" | "last";
  last: number | null;
  line_count: number;
  text: string;
  stabilized: boolean | null;
  waited_ms: number | null;
  samples: number | null;
}

export function register(program: Command): void {
  program
    .command("read")
    .description("print a pane's text (wrapped lines joined), optionally once it stops changing")
    .argument("<target>", "pane: %id or session:window.pane")
    .option("--last <n>", "only the last N lines (scrollback included)")
    .option("--wait-stable", "wait until the text is unchanged for --stable-period")
    .option("--stable-interval <ms>", "sampling interval, 50-5000 ms (default 200)")
    .option(
      "--stable-period <ms>",
      "unchanged this long counts as stable, 100-60000 ms (default 800)",
    )
    .option("--wait-timeout <s>", "give up after this many seconds, 1-300 (default 10)")
    .action(async (target: string, _o: unknown, cmd: Command) => {
      const o = cmd.opts() as Record<string, string | boolean | undefined>;
      await run(cmd, "drover.read.v1", async (g) => {
        const s = readSettings({
          last: o.last as string | undefined,
          waitStable: o.waitStable === true,
          stableInterval: o.stableInterval as string | undefined,
          stablePeriod: o.stablePeriod as string | undefined,
          waitTimeout: o.waitTimeout as string | undefined,
        });
        const server = selectServer(g);
        const pane = await resolveTarget(server, target);
        const history = s.last === null ? 0 : s.last;
        const grab = async (): Promise<string | null> => {
          try {
            return (await capturePane(server, pane.id, { history })).plain;
          } catch (e) {
            if (e instanceof DroverError && e.code === "TARGET_NOT_FOUND") return null;
            throw e;
          }
        };
        let text: string;
        let stable: { stabilized: boolean; waited_ms: number; samples: number } | null = null;
        if (s.waitStable) {
          const r = await waitStable(grab, s);
          text = r.text;
          stable = r;
        } else {
          const t = await grab();
          if (t === null) {
            throw new DroverError("TARGET_NOT_FOUND", `pane ${target} vanished before it was read`);
          }
          text = t;
        }
        const lines = lastLines(text, s.last);
        const data: ReadData = {
          pane_id: pane.id,
          target: pane.target,
          mode: s.last === null ? "snapshot" : "last",
          last: s.last,
          line_count: lines.length,
          text: lines.length > 0 ? lines.join("\n") + "\n" : "",
          stabilized: stable?.stabilized ?? null,
          waited_ms: stable?.waited_ms ?? null,
          samples: stable?.samples ?? null,
        };
        const warnings = stable && !stable.stabilized
          ? [`${target} was still changing after ${s.timeoutS}s; this is the latest text`]
          : [];
        return { data, human: printable(lines.join("\n")), warnings };
      });
    });
}
