/**
 * A scripted stand-in for the OpenAI Chat Completions API (Qwen Code through OPENAI_BASE_URL;
 * OpenCode through an `@ai-sdk/openai-compatible` provider). `POST /v1/chat/completions`: a request
 * that offers tools is a main turn and consumes the next step; one without tools (session titles,
 * JSON side questions) is auxiliary and gets `auxText`. Qwen Code's own side requests that do offer
 * tools are auxiliary too: its auto-mode classifier (answered per `classifier`) and, from 0.24.4, its
 * follow-up suggestion after each finished turn (answered with nothing: no suggestion) and its
 * background managed-memory agents (extraction after a turn, dream consolidation; answered with
 * nothing: no memory written). Streams `chat.completion.chunk` lines ending
 * in `data: [DONE]`, tool calls as `delta.tool_calls`, and a usage chunk when asked for.
 */
import { sleep } from "../../base/sleep.ts";
import { openAiError, openAiModels } from "./openai_responses.ts";
import { type ApiAdapter, ScriptedStandin, type StandinOptions } from "./scripted_standin.ts";
import { DONE, type Step } from "./step_script.ts";
import { chunks, json, sseResponse, type StreamContext } from "./wire.ts";

export interface ChatStandinOptions extends StandinOptions {
  /** Reply to auxiliary (tool-less) requests. */
  auxText?: string;
  /**
   * How Qwen Code's auto-mode safety classifier is answered (its requests offer the single
   * structured-output tool `respond_in_schema`): `unavailable` (default: a reply without the tool
   * call, as a gateway that cannot classify gives), `allow` (`shouldBlock: false`) or `block`
   * (`shouldBlock: true`, with a reason when the schema asks for one). Never consumes the script.
   */
  classifier?: ClassifierVerdict;
}

export type ClassifierVerdict = "unavailable" | "allow" | "block";

/** The structured-output tool Qwen Code's auto-mode classifier forces (`tool_choice: "required"`). */
const CLASSIFIER_TOOL = "respond_in_schema";

/**
 * How Qwen Code (0.24.4) opens the request for a follow-up suggestion, sent with every tool of the
 * conversation (for its prompt cache) once a turn ends after two model turns.
 */
const SUGGESTION_PROMPT = "[SUGGESTION MODE:";

/**
 * How Qwen Code (0.24.4) opens the system prompts of its background managed-memory agents: the
 * extractor runs after a finished turn, with six tools, at a moment of its own choosing (it took the
 * next scenario's scripted `hang` in the lab, leaving the real prompt the fallback reply).
 */
const MEMORY_AGENT_PROMPTS = [
  "You are now acting as the managed memory extraction subagent",
  "You are performing a managed memory dream",
];
/** How the extractor's task prompt opens (its last user message), should the system prompt move. */
const MEMORY_TASK_PROMPT = "Managed memory has TWO directories.";

interface ChatBody {
  model?: string;
  messages?: { role?: string; content?: unknown }[];
  stream?: boolean;
  tools?: { function?: { name?: string; parameters?: { required?: string[] } } }[];
  stream_options?: { include_usage?: boolean };
}

function chunk(id: string, model: string, choice: Record<string, unknown> | null, extra = {}) {
  return `data: ${
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: choice ? [{ index: 0, logprobs: null, ...choice }] : [],
      ...extra,
    })
  }\n\n`;
}

function usage(inputTokens = 1200) {
  return { prompt_tokens: inputTokens, completion_tokens: 40, total_tokens: inputTokens + 40 };
}

async function* stream(
  step: Step,
  body: ChatBody,
  ctx: StreamContext,
): AsyncGenerator<string> {
  const id = `chatcmpl-${ctx.seq}`;
  const model = body.model ?? "standin-model";
  yield chunk(id, model, { delta: { role: "assistant", content: "" }, finish_reason: null });
  if (step.kind === "hang") {
    await ctx.held;
    return;
  }
  if (step.kind === "error") return;
  const text = step.kind === "text" ? step.text : step.text;
  if (text) {
    const delay = step.kind === "text" ? step.chunkDelayMs ?? 0 : 0;
    for (const d of chunks(text, step.kind === "text" ? step.chunkChars : undefined)) {
      yield chunk(id, model, { delta: { content: d }, finish_reason: null });
      await sleep(delay, ctx.signal);
      if (ctx.signal.aborted) return;
    }
  }
  if (step.kind === "text" && step.hold) {
    await ctx.held;
    if (ctx.signal.aborted) return;
  }
  let finish = "stop";
  if (step.kind === "tool") {
    finish = "tool_calls";
    const args = JSON.stringify(step.args);
    yield chunk(id, model, {
      delta: {
        tool_calls: [{
          index: 0,
          id: `call_${ctx.seq}`,
          type: "function",
          function: { name: step.name, arguments: "" },
        }],
      },
      finish_reason: null,
    });
    yield chunk(id, model, {
      delta: { tool_calls: [{ index: 0, function: { arguments: args } }] },
      finish_reason: null,
    });
  }
  yield chunk(id, model, { delta: {}, finish_reason: finish });
  if (body.stream_options?.include_usage !== false) {
    yield chunk(id, model, null, { usage: usage(step.inputTokens) });
  }
  yield "data: [DONE]\n\n";
}

function whole(step: Step, body: ChatBody, seq: number): Response {
  const model = body.model ?? "standin-model";
  const message: Record<string, unknown> = { role: "assistant", content: null };
  let finish = "stop";
  if (step.kind === "text") message.content = step.text;
  if (step.kind === "tool") {
    finish = "tool_calls";
    message.content = step.text ?? null;
    message.tool_calls = [{
      id: `call_${seq}`,
      type: "function",
      function: { name: step.name, arguments: JSON.stringify(step.args) },
    }];
  }
  return json({
    id: `chatcmpl-${seq}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    usage: usage(step.kind === "hang" || step.kind === "error" ? undefined : step.inputTokens),
  });
}

function isClassifier(body: ChatBody | null): boolean {
  const tools = body?.tools;
  return Array.isArray(tools) && tools.length === 1 &&
    tools[0]?.function?.name === CLASSIFIER_TOOL;
}

/** A message's text, whether plain or in parts. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p) => typeof p?.text === "string" ? p.text : "").join("");
}

/** The text of the last message. */
function lastText(body: ChatBody | null): string {
  return textOf(body?.messages?.at(-1)?.content);
}

/**
 * Qwen Code's follow-up suggestion request ("predict what the user types next"). Counting it as a
 * main turn would hand it the next scripted step, which the next prompt then never gets.
 */
function isSuggestion(body: ChatBody | null): boolean {
  return lastText(body).trimStart().startsWith(SUGGESTION_PROMPT);
}

/** The text of every system message. */
function systemText(body: ChatBody | null): string {
  return (body?.messages ?? []).filter((m) => m?.role === "system").map((m) => textOf(m.content))
    .join("\n");
}

/**
 * A turn of Qwen Code's background managed-memory agents. Counting it as a main turn would hand it
 * the next scripted step (a `hang` meant for the user's prompt, say).
 */
function isMemoryAgent(body: ChatBody | null): boolean {
  const system = systemText(body);
  return MEMORY_AGENT_PROMPTS.some((p) => system.includes(p)) ||
    lastText(body).trimStart().startsWith(MEMORY_TASK_PROMPT);
}

/** The classifier's answer: a forced tool call with the verdict, or none at all (unavailable). */
function classifierStep(body: ChatBody, verdict: ClassifierVerdict): Step {
  if (verdict === "unavailable") return { kind: "text", text: "Lab stand-in: no verdict." };
  const required = body.tools?.[0]?.function?.parameters?.required ?? [];
  const args: Record<string, unknown> = { shouldBlock: verdict === "block" };
  if (required.includes("thinking")) args.thinking = "Lab stand-in verdict.";
  if (required.includes("reason")) {
    args.reason = verdict === "block" ? "The lab stand-in blocks this action." : "";
  }
  return { kind: "tool", name: CLASSIFIER_TOOL, args };
}

function makeAdapter(auxText: string, classifier: ClassifierVerdict): ApiAdapter {
  let auxSeq = 0;
  return {
    route(req, url, body) {
      if (req.method === "GET" && url.pathname.endsWith("/models")) return "aux";
      if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) return null;
      const b = body as ChatBody | null;
      if (isClassifier(b) || isSuggestion(b) || isMemoryAgent(b)) return "aux";
      return Array.isArray(b?.tools) && b.tools.length > 0 ? "main" : "aux";
    },
    aux(body, url) {
      if (url.pathname.endsWith("/models")) return openAiModels();
      const b = (body ?? {}) as ChatBody;
      // No suggestion (an empty reply): a suggestion would show as placeholder text in the input box.
      // No memory either: the agent ends without writing.
      const step: Step = isClassifier(b)
        ? classifierStep(b, classifier)
        : isSuggestion(b) || isMemoryAgent(b)
        ? { kind: "text", text: "" }
        : { kind: "text", text: auxText };
      const seq = 100_000 + ++auxSeq;
      if (!b.stream) return whole(step, b, seq);
      const ctl = new AbortController();
      const ctx = { held: Promise.resolve(), signal: ctl.signal, seq };
      return sseResponse(() => stream(step, b, ctx), ctl.signal);
    },
    main(step, body, _url, ctx) {
      if (step.kind === "error") return openAiError(step);
      const b = (body ?? {}) as ChatBody;
      if (b.stream === false) return whole(step, b, ctx.seq);
      return sseResponse(() => stream(step, b, ctx), ctx.signal);
    },
    fallback: DONE,
  };
}

/** Start a Chat Completions stand-in on 127.0.0.1 (random port). Base URL: `${url}/v1`. */
export function startChatStandin(opts: ChatStandinOptions = {}): ScriptedStandin {
  return new ScriptedStandin(
    makeAdapter(opts.auxText ?? "Lab session", opts.classifier ?? "unavailable"),
    opts,
  );
}
