/**
 * The narration scenario the Chat Completions and Gemini tables share: the model's answer quotes
 * the CLI's own prompt words (`text`, each CLI's NARRATION), and the screen must stay an idle one,
 * never a live or permission prompt.
 */
import type { Scenario } from "../types.ts";

export function narrationScenario(text: string): Scenario {
  return {
    name: "narration",
    script: [{ kind: "text", text }],
    steps: [{ submit: "what does the confirmation look like?" }],
    until: { requests: 1, shows: ["Nothing is waiting"], stableMs: 800 },
    timeoutMs: 60_000,
    expect: {
      state: "idle",
      verdicts: { live_prompt: false, permission_prompt: false },
    },
  };
}
