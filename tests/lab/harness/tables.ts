/**
 * The lab side of the shared scenario tables (lib/scenarios): each session of a CLI's table becomes
 * one lab scenario, run by the same runner `drover verify` uses (lib/verify/run.ts) on the job's
 * private tmux server, at the job's size, against the pinned CLI. Every screen it reaches is handed
 * to the lab runner like any other (recorded as a fixture under the table's fixture name, or
 * compared with it and judged by detect() with the suite's profile). What only the lab needs —
 * first-run dialogs, modes, pasted text, final retry screens — stays in the suites.
 *
 * ```ts
 * export const suite: LabSuite = {
 *   name: "codex", profile: "codex", fixtures: { cli: "codex", version: … },
 *   scenarios: [...tableScenarios("codex"), ...labOnly],
 * };
 * ```
 */
import { loadConfig } from "../../../lib/config/discover.ts";
import { resolveProfile } from "../../../lib/profile/resolve.ts";
import { tableFor } from "../../../lib/scenarios/mod.ts";
import type { Action, Scenario, ScenarioTable, ScriptStep } from "../../../lib/scenarios/types.ts";
import { runTable } from "../../../lib/verify/run.ts";
import { resolveCli } from "./clis.ts";
import type { LabScenario } from "./scenario.ts";

/** Up to this long for a reached screen's own wording (verify: lib/verify/scenario.ts WORDING_GRACE_MS). */
const LAB_WORDING_GRACE_MS = 20_000;

function describeStep(s: ScriptStep): string {
  switch (s.kind) {
    case "text":
      return "text";
    case "tool":
      return `tool ${s.name}(${
        JSON.stringify(
          s.args.cmd ?? s.args.command ?? s.args.commands ?? s.args.file_path ?? s.args.filePath ??
            s.args.path ?? "",
        )
      })`;
    case "tool_use":
      return `tool_use ${s.name}(${
        JSON.stringify(s.input.command ?? String(s.input.file_path ?? "").split("/").pop())
      })`;
    case "error":
      return `HTTP ${s.status}${"error" in s && s.error ? ` ${s.error}` : ""} on every request`;
    case "hang":
      return "hang (no reply)";
  }
}

function describeAction(a: Action): string {
  if ("type" in a) return `type ${JSON.stringify(a.type)} (no Enter)`;
  if ("submit" in a) return `type ${JSON.stringify(a.submit)}, Enter`;
  if ("keys" in a) return `press ${a.keys.join(", ")}`;
  if ("approve" in a) return "drover approve (the §6 gate, in process)";
  if ("pause" in a) return `wait ${a.pause} ms`;
  return "wait for the screen on the way";
}

/** One provenance line for a scenario: the stand-in's replies and the keys. */
export function describeScenario(s: Scenario): string {
  const parts: string[] = [];
  if (s.script?.length) parts.push(`stand-in script: ${s.script.map(describeStep).join(" → ")}`);
  const keys = (s.steps ?? []).filter((a) => !("pause" in a)).map(describeAction);
  if (keys.length) parts.push(keys.join("; "));
  return `${s.name}: ${parts.join("; ") || "wait"}`;
}

/** The profile detect() judges with in the lab: the embedded defaults only, no user config. */
async function labConfig() {
  const dir = await Deno.makeTempDir({ prefix: "drover-lab-cfg-" });
  try {
    await Deno.writeTextFile(`${dir}/config.toml`, "");
    return await loadConfig({ path: `${dir}/config.toml`, cwd: dir });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The lab scenarios of one CLI's table: one per session, named `table-<session>`. */
export function tableScenarios(cli: string, opts: { timeoutMs?: number } = {}): LabScenario[] {
  const table: ScenarioTable = tableFor(cli)!;
  return table.sessions.map((session): LabScenario => ({
    name: `table-${session.name}`,
    timeoutMs: opts.timeoutMs ?? 300_000,
    ...(session.since ? { since: session.since.version } : {}),
    async run(ctx) {
      // A suite pinned at several versions runs the table against each (ctx.version).
      const resolved = await resolveCli(table.lab, ctx.version || undefined);
      const config = await labConfig();
      ctx.step(
        `start ${
          [table.lab, ...(ctx.version ? [ctx.version] : []), ...table.args].join(" ")
        } in a ${ctx.size.cols}x${ctx.size.rows} pane ` +
          `(throwaway HOME: lib/scenarios/homes.ts "${table.home}"` +
          (session.env
            ? `; ${Object.entries(session.env).map(([k, v]) => `${k}=${v}`).join(" ")}`
            : "") +
          (session.settings ? `; its settings file gets ${JSON.stringify(session.settings)}` : "") +
          ")",
      );
      // The same fixed-length root the lab's own launches use (<tmp>/drover-<2 letters>-<hex>): the
      // project path shows on screen, and the fixtures were recorded with that shape.
      const tmpRoot = await ctx.lab.tmpDir(table.lab.slice(0, 2));
      const results = await runTable({
        table,
        exec: resolved.argv[resolved.argv.length - 1],
        profile: resolveProfile(table.cli, config),
        config,
        path: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        version: ctx.version || resolved.version,
      }, {
        keepGoing: true,
        // The lab runs CLIs side by side on a 2-core machine, against the versions whose wording
        // the fixtures hold: a screen's own lines get longer to show than verify's default grace.
        wordingGraceMs: LAB_WORDING_GRACE_MS,
        signal: ctx.signal,
        tmpRoot,
        size: ctx.size,
        sessions: [session.name],
        flatRoot: true,
        server: { socketName: ctx.lab.name },
      });
      const problems: string[] = [];
      for (const s of session.scenarios) {
        const r = results.find((x) => x.scenario === s.name);
        ctx.step(describeScenario(s));
        if (r?.screen && r.reason === null && s.expect.state) {
          ctx.record(s.fixture ?? s.name, r.screen, {
            state: s.expect.state,
            // The CLI's wording plus the text the scenario put there: the lines that define it.
            defining: [...(s.defining ?? []), ...(s.until.shows ?? [])],
            ...(s.expect.verdicts ? { expect: s.expect.verdicts } : {}),
          });
        }
        if (r && r.status !== "hold") {
          problems.push(`${s.name}: ${r.problems.join("; ") || r.reason || r.status}`);
        }
      }
      if (problems.length) ctx.fail(problems.join("\n"));
    },
  }));
}
