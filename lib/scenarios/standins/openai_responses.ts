/**
 * A scripted stand-in for the OpenAI Responses API (what Codex CLI speaks with
 * `wire_api = "responses"`): `POST /v1/responses` with `stream: true` answered by Responses SSE
 * events; a `tool` step becomes a `function_call` output item (Codex's shell tool is
 * `exec_command`). Errors use OpenAI's `{error:{message,type,param,code}}` shape.
 */
import { sleep } from "../../base/sleep.ts";
import { type ApiAdapter, ScriptedStandin, type StandinOptions } from "./scripted_standin.ts";
import { defaultMessage, DONE, type ErrorKind, type Step } from "./step_script.ts";
import { chunks, json, sseResponse, type StreamContext } from "./wire.ts";

/** OpenAI's error body for one error kind. */
function openAiErrorBody(kind: ErrorKind, message?: string): Record<string, unknown> {
  const msg = message ?? defaultMessage(kind);
  const [type, code] = ({
    rate_limit: ["requests", "rate_limit_exceeded"],
    quota: ["insufficient_quota", "insufficient_quota"],
    auth: ["invalid_request_error", "invalid_api_key"],
    server: ["server_error", null],
    overloaded: ["server_error", "server_is_overloaded"],
    bad_request: ["invalid_request_error", null],
  } as Record<ErrorKind, [string, string | null]>)[kind];
  return { error: { message: msg, type, param: null, code } };
}

export function openAiError(step: Extract<Step, { kind: "error" }>): Response {
  const after = step.retryAfterS === undefined ? 1 : step.retryAfterS;
  const extra: Record<string, string> = step.status === 429 && after !== null
    ? { "retry-after": String(after) }
    : {};
  return json(step.body ?? openAiErrorBody(step.error, step.message), step.status, extra);
}

/** The model list of an OpenAI-style `GET /models` (shared with the Chat Completions stand-in). */
export function openAiModels(): Response {
  return json({
    object: "list",
    data: [{ id: "standin-model", object: "model", created: 0, owned_by: "drover-lab" }],
  });
}

function sse(event: Record<string, unknown>): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

function usage(inputTokens = 1200) {
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 40,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + 40,
  };
}

function responseObject(id: string, model: string, status: string, extra = {}) {
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output: [],
    ...extra,
  };
}

export interface ResponsesStandinOptions extends StandinOptions {
  /**
   * Text streamed to auxiliary requests (no tools offered: Codex's thread-title request asks for
   * a JSON object with a `title`).
   */
  auxText?: string;
}

function makeAdapter(auxText: string): ApiAdapter {
  let auxSeq = 0;
  return {
    route(req, url, body) {
      if (req.method === "GET" && url.pathname.endsWith("/models")) return "aux";
      if (req.method !== "POST" || !url.pathname.endsWith("/responses")) return null;
      const tools = (body as { tools?: unknown } | null)?.tools;
      return Array.isArray(tools) && tools.length > 0 ? "main" : "aux";
    },
    aux(body, url) {
      if (url.pathname.endsWith("/models")) return openAiModels();
      const model = String((body as { model?: unknown } | null)?.model ?? "standin-model");
      const ctl = new AbortController();
      const ctx = { held: Promise.resolve(), signal: ctl.signal, seq: 100_000 + ++auxSeq };
      return sseResponse(() => events({ kind: "text", text: auxText }, model, ctx), ctl.signal);
    },
    main(step, body, _url, ctx) {
      if (step.kind === "error") return openAiError(step);
      const model = String((body as { model?: unknown } | null)?.model ?? "standin-model");
      return sseResponse(() => events(step, model, ctx), ctx.signal);
    },
    fallback: DONE,
  };
}

/** The SSE events of one response, numbered in the order they are written. */
class ResponseEvents {
  private seqNo = 0;
  next(e: Record<string, unknown>): string {
    return sse({ ...e, sequence_number: this.seqNo++ });
  }
}

type TextStep = Extract<Step, { kind: "text" }>;
type ToolStep = Extract<Step, { kind: "tool" }>;

async function* events(step: Step, model: string, ctx: StreamContext): AsyncGenerator<string> {
  const rid = `resp_${ctx.seq}`;
  const ev = new ResponseEvents();
  yield ev.next({ type: "response.created", response: responseObject(rid, model, "in_progress") });
  yield ev.next({
    type: "response.in_progress",
    response: responseObject(rid, model, "in_progress"),
  });
  if (step.kind === "hang") {
    await ctx.held;
    return;
  }
  if (step.kind === "error") return;
  const output: Record<string, unknown>[] = [];
  if (step.text) {
    const item = yield* messageEvents(step, step.text, ctx, ev);
    // Undefined: the client hung up mid-text.
    if (item === undefined) return;
    output.push(item);
  }
  if (step.kind === "text" && step.hold) {
    await ctx.held;
    if (ctx.signal.aborted) return;
  }
  if (step.kind === "tool") output.push(yield* functionCallEvents(step, output.length, ctx, ev));
  yield ev.next({
    type: "response.completed",
    response: responseObject(rid, model, "completed", {
      output,
      usage: usage(step.inputTokens),
    }),
  });
}

/**
 * The assistant message item (always the first output, index 0): added, its text streamed in
 * deltas (a text step's chunking and pace), done. Returns the finished item, or undefined when
 * the stream was aborted between deltas.
 */
async function* messageEvents(
  step: TextStep | ToolStep,
  text: string,
  ctx: StreamContext,
  ev: ResponseEvents,
): AsyncGenerator<string, Record<string, unknown> | undefined> {
  const itemId = `msg_${ctx.seq}`;
  const index = 0;
  yield ev.next({
    type: "response.output_item.added",
    output_index: index,
    item: { type: "message", id: itemId, role: "assistant", status: "in_progress", content: [] },
  });
  yield ev.next({
    type: "response.content_part.added",
    item_id: itemId,
    output_index: index,
    content_index: 0,
    part: { type: "output_text", text: "", annotations: [] },
  });
  const delay = step.kind === "text" ? step.chunkDelayMs ?? 0 : 0;
  for (const delta of chunks(text, step.kind === "text" ? step.chunkChars : undefined)) {
    yield ev.next({
      type: "response.output_text.delta",
      item_id: itemId,
      output_index: index,
      content_index: 0,
      delta,
    });
    await sleep(delay, ctx.signal);
    if (ctx.signal.aborted) return undefined;
  }
  yield ev.next({
    type: "response.output_text.done",
    item_id: itemId,
    output_index: index,
    content_index: 0,
    text,
  });
  const item = {
    type: "message",
    id: itemId,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
  yield ev.next({ type: "response.output_item.done", output_index: index, item });
  return item;
}

/** A tool step's `function_call` item at `index`: added, its arguments in one delta, done. */
async function* functionCallEvents(
  step: ToolStep,
  index: number,
  ctx: StreamContext,
  ev: ResponseEvents,
): AsyncGenerator<string, Record<string, unknown>> {
  const item = {
    type: "function_call",
    id: `fc_${ctx.seq}`,
    call_id: `call_${ctx.seq}`,
    name: step.name,
    arguments: JSON.stringify(step.args),
    status: "completed",
  };
  yield ev.next({
    type: "response.output_item.added",
    output_index: index,
    item: { ...item, arguments: "", status: "in_progress" },
  });
  yield ev.next({
    type: "response.function_call_arguments.delta",
    item_id: item.id,
    output_index: index,
    delta: item.arguments,
  });
  yield ev.next({
    type: "response.function_call_arguments.done",
    item_id: item.id,
    output_index: index,
    arguments: item.arguments,
  });
  yield ev.next({ type: "response.output_item.done", output_index: index, item });
  return item;
}

/** Start a Responses stand-in on 127.0.0.1 (random port). Base URL for clients: `${url}/v1`. */
export function startResponsesStandin(opts: ResponsesStandinOptions = {}): ScriptedStandin {
  return new ScriptedStandin(makeAdapter(opts.auxText ?? '{"title":"Lab session"}'), opts);
}
