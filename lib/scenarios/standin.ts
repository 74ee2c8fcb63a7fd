/**
 * One face for the four model stand-ins, so a scenario runner does not care which API a CLI
 * speaks: start the right one on 127.0.0.1, queue a scenario's replies, count main-turn requests.
 */
import { type AnthropicStep, startAnthropicStandin } from "./standins/anthropic.ts";
import { startChatStandin } from "./standins/chat_completions.ts";
import { startGeminiStandin } from "./standins/gemini.ts";
import { startResponsesStandin } from "./standins/openai_responses.ts";
import type { Step } from "./standins/step_script.ts";
import type { ApiKind, ScriptStep } from "./types.ts";

export interface Standin {
  /** Base URL without a trailing slash (http://127.0.0.1:<port>). */
  url: string;
  /** Main-turn requests received so far (side requests such as titles do not count). */
  mainCount(): number;
  /** Queue replies for the next main turns. */
  push(steps: ScriptStep[]): void;
  close(): Promise<void>;
}

/** Start the stand-in an API needs, on a free port of 127.0.0.1. */
export async function startStandin(api: ApiKind): Promise<Standin> {
  if (api === "anthropic") {
    const s = await startAnthropicStandin([]);
    return {
      url: s.url,
      mainCount: () => s.mainRequests.length,
      push: (steps) => s.push(...steps as AnthropicStep[]),
      close: () => s.close(),
    };
  }
  const s = api === "responses"
    ? startResponsesStandin()
    : api === "gemini"
    ? startGeminiStandin()
    : startChatStandin();
  return {
    url: s.url,
    mainCount: () => s.mainRequests().length,
    push: (steps) => s.push(...steps as Step[]),
    close: () => s.close(),
  };
}

/** Replace `{project}` in every string of a script (paths the CLI must see as its own). */
export function fillScript(steps: readonly ScriptStep[], vars: { project: string }): ScriptStep[] {
  const fill = (v: unknown): unknown => {
    if (typeof v === "string") return v.replaceAll("{project}", vars.project);
    if (Array.isArray(v)) return v.map(fill);
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
    }
    return v;
  };
  return steps.map((s) => fill(s) as ScriptStep);
}
