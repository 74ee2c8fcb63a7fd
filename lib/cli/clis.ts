/** `drover clis list`: every launchable CLI (built-in recipes and [clis.<name>]), enabled or not. */
import type { Command } from "../deps/cli.ts";
import {
  type Availability,
  cachedAvailability,
  probeAvailability,
} from "../launch/availability.ts";
import { loadLaunchConfig } from "../launch/config.ts";
import { allRecipes, formatPromptForm } from "../launch/recipes.ts";
import { run } from "./context.ts";

export interface ClisData {
  count: number;
  config: string | null;
  clis: {
    name: string;
    command: string;
    args: string[];
    prompt: string;
    env: string[];
    enabled: boolean;
    source: string;
    checked: string | null;
    availability: { status: Availability; path: string | null; checked_at: string | null };
  }[];
}

export function register(program: Command): void {
  const clis = program.command("clis").description("the agent CLIs drover can launch");
  clis
    .command("list")
    .description(
      "every CLI profile, enabled or not, with availability from a login-shell probe (advisory)",
    )
    .option("--refresh", "ignore cached availability and probe again")
    .option("--no-probe", "only report cached availability (unknown where nothing is cached)")
    .action(async (_o: unknown, cmd: Command) => {
      const o = cmd.opts() as { refresh?: boolean; probe?: boolean };
      await run(cmd, "drover.clis.v1", async (g) => {
        const { config, clis } = await loadLaunchConfig(g);
        const recipes = allRecipes(clis);
        const commands = recipes.map((r) => r.command);
        const avail = o.probe === false
          ? await cachedAvailability(commands)
          : await probeAvailability(commands, { refresh: o.refresh === true });
        const data: ClisData = {
          count: recipes.length,
          config: config.path,
          clis: recipes.map((r) => {
            const a = avail.get(r.command) ?? { status: "unknown" as const };
            return {
              name: r.name,
              command: r.command,
              args: r.args,
              prompt: formatPromptForm(r.prompt),
              // Names only: values may be secrets.
              env: Object.keys(r.env),
              enabled: r.enabled,
              source: r.source,
              checked: r.checked ?? null,
              availability: {
                status: a.status,
                path: a.path ?? null,
                checked_at: a.checked_at ?? null,
              },
            };
          }),
        };
        const w = Math.max(...data.clis.map((c) => c.name.length), 4);
        const human = data.clis.map((c) =>
          `${c.name.padEnd(w)}  ${c.enabled ? "enabled " : "disabled"}  ${
            c.availability.status.padEnd(11)
          }  ${c.prompt.padEnd(26)}  ${[c.command, ...c.args].join(" ")}`
        );
        return { data, human };
      });
    });
}
