/** `drover clis list`: every launchable CLI (built-in recipes and [clis.<name>]), enabled or not. */
import { cachedAvailability, probeAvailability } from "../launch/availability.ts";
import { loadLaunchConfig } from "../launch/config.ts";
import { allRecipes, formatPromptForm } from "../launch/recipes.ts";
import type { Invocation } from "./invocation.ts";
import type { CLIS_LIST } from "./command_specs.ts";
import type { CommandResult } from "./output.ts";
import type { ClisData } from "../contracts/clis.ts";

export async function action(
  { opts: o, g }: Invocation<typeof CLIS_LIST>,
): Promise<CommandResult<ClisData>> {
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
}
