/**
 * Issue 27: a usage-limit banner the agent only quotes is no limit. The CLI's own words for its
 * limit, written by the model into an answer — once with newer answer lines below it, once as the
 * answer's last line right above the input box — recorded from the real CLI of each screens suite
 * (no `suite` export: a helper module). detect() must read neither as a limit nor as a CLI that
 * cannot serve.
 */
import type { LabScenario } from "../harness/mod.ts";
import { type OtherCli, startOther, submit } from "./others_common.ts";

/**
 * `banner`: the limit line as this CLI's limit_reset_pattern reads it (its own banner, or Claude
 * Code's where the profile falls back to that pattern); `end`: a second wording for the
 * answer-ending variant.
 */
export function quotedLimitScenarios(cli: OtherCli, banner: string, end = banner): LabScenario[] {
  const cases = [
    {
      name: "limit-quoted-answer",
      text: `Here is the line the last run stopped on:\n\n${banner}\n\n` +
        "That limit is over: the run went on after it.\nNothing is waiting now.",
      shows: "Nothing is waiting now.",
      notes: "an answer quotes the limit banner, with newer answer lines below it: no limit",
    },
    {
      name: "limit-quoted-answer-end",
      text: `The last run stopped on this line:\n\n${end}`,
      shows: end.split(" ").slice(-2).join(" "),
      notes: "an answer ends with a quoted limit banner, right above the input box: no limit",
    },
  ];
  return cases.map((c): LabScenario => ({
    name: c.name,
    async run(ctx) {
      await using s = await startOther(ctx, cli, { script: [{ kind: "text", text: c.text }] });
      await submit(ctx, s, "what stopped the last run?");
      await ctx.screen(s.pane, c.name, {
        state: "idle",
        defining: [c.shows],
        // The reply drawn and the screen still: some CLIs keep their start-up notice in view.
        until: (p) => p.includes(c.shows),
        stableMs: 1500,
        // OpenCode on a loaded machine took over 30 s to draw a short reply.
        timeoutMs: 120_000,
        expect: { limit: null, cli_unavailable: null },
        notes: c.notes,
      });
    },
  }));
}
