/**
 * One face for the four model stand-ins, so a scenario runner does not care which API a CLI
 * speaks: start the right one on 127.0.0.1, queue a scenario's replies, count main-turn requests.
 */
import { type AnthropicReply, startAnthropicStandin } from "./standins/anthropic.ts";
import { startChatStandin } from "./standins/chat_completions.ts";
import { startGeminiStandin } from "./standins/gemini.ts";
import { startResponsesStandin } from "./standins/openai_responses.ts";
import type { ScriptedStandin } from "./standins/scripted_standin.ts";
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

/**
 * A table step the Anthropic stand-in speaks: no `tool` call (its tool calls are `tool_use`) and
 * no error named by kind (its errors are named by status).
 */
function isAnthropicReply(step: ScriptStep): step is AnthropicReply {
  return step.kind !== "tool" && !(step.kind === "error" && "error" in step);
}

/** A table step the other stand-ins speak: no `tool_use`, and every error named by its kind. */
function isSharedStep(step: ScriptStep): step is Step {
  return step.kind !== "tool_use" && !(step.kind === "error" && !("error" in step));
}

/** Start the stand-in an API needs, on a free port of 127.0.0.1. */
export async function startStandin(api: ApiKind): Promise<Standin> {
  if (api === "anthropic") return face(api, await startAnthropicStandin(), isAnthropicReply);
  const s = api === "responses"
    ? startResponsesStandin()
    : api === "gemini"
    ? startGeminiStandin()
    : startChatStandin();
  return face(api, s, isSharedStep);
}

function face<S extends ScriptStep>(
  api: ApiKind,
  s: ScriptedStandin<S>,
  speaks: (step: ScriptStep) => step is S,
): Standin {
  const checked = (step: ScriptStep): S => {
    if (!speaks(step)) {
      throw new Error(`the ${api} stand-in does not speak this step: ${JSON.stringify(step)}`);
    }
    return step;
  };
  return {
    url: s.url,
    mainCount: () => s.mainRequests().length,
    push: (steps) => s.push(...steps.map(checked)),
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
