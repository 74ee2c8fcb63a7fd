/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1 (DESIGN §11), on the machinery
 * of the other stand-ins (scripted_standin.ts); this module holds only the Messages API's wire
 * shapes.
 *
 * ```ts
 * await using api = await startAnthropicStandin([
 *   { kind: "tool_use", name: "Bash", input: { command: "ls", description: "List files" } },
 *   { kind: "text", text: "Done." },
 * ]);
 * // ANTHROPIC_BASE_URL = api.url
 * api.requests        // every request received, in order (method, path, body, role)
 * api.mainRequests()  // only the turns that consumed (or would consume) a script step
 * api.push(step)      // append steps while a scenario runs
 * api.pending         // steps not consumed yet
 * ```
 *
 * Which reply a request gets never depends on its prompt text (except a `computed` step, which a
 * scenario writes to read the turn it answers):
 * - a **main turn** is a `POST /v1/messages` that offers `tools`; it consumes the next script step;
 * - a **side request** (no tools: session title, topic detection, …) gets a short canned reply (or an
 *   error, with `sideErrors`) and never consumes the script;
 * - a main turn that finds the script empty gets {@link EXHAUSTED_TEXT} (visible on screen, so a
 *   scenario that ran out of script shows up as a readable failure).
 *
 * Step kinds: `text` (optionally slow: `chunkDelayMs` between chunks), `tool_use` (any tool; Bash, Write,
 * Edit raise Claude Code's permission prompts), `error` (HTTP status with an Anthropic-shaped body,
 * served `times` times in a row — `Infinity` for "forever" — so the CLI's retries each consume one), and
 * `hang` (headers sent, then nothing until the client goes away: an ever-busy turn), and `computed` (one of
 * those, chosen from the turn's body when it arrives). Every step may set
 * `inputTokens` (reported in `message_start.usage`, which drives the context indicator).
 */
import { sleep } from "../../base/sleep.ts";
import { type ApiAdapter, ScriptedStandin } from "./scripted_standin.ts";
import type { ComputedStep } from "./step_script.ts";
import { chunks, json, streamBody, type StreamContext } from "./wire.ts";

/** What one main turn is served. */
export type AnthropicReply =
  | {
    kind: "text";
    text: string;
    /** Delay between streamed chunks (ms); 0 = all at once. */
    chunkDelayMs?: number;
    /** Characters per chunk (default 24). */
    chunkSize?: number;
    inputTokens?: number;
    outputTokens?: number;
  }
  | {
    kind: "tool_use";
    name: string;
    input: Record<string, unknown>;
    /** Optional text block streamed before the tool call. */
    text?: string;
    /** Delay between the text's chunks (ms; default 0); a turn that stays busy a while. */
    chunkDelayMs?: number;
    inputTokens?: number;
  }
  | {
    kind: "error";
    status: 400 | 401 | 403 | 404 | 413 | 429 | 500 | 529 | number;
    /** Anthropic error type; defaults by status (429 → rate_limit_error, 529 → overloaded_error, …). */
    errorType?: string;
    message?: string;
    /** How many consecutive main turns get this error (default 1; Infinity = every one). */
    times?: number;
    headers?: Record<string, string>;
  }
  | { kind: "hang"; text?: string; inputTokens?: number };

/** A step of a script: a reply, or one chosen from the main turn that consumes it. */
export type AnthropicStep = AnthropicReply | ComputedStep<AnthropicReply>;

export type AnthropicStandin = ScriptedStandin<AnthropicReply>;

export interface AnthropicStandinOptions {
  /** Model name reported in replies (default: the requested one). */
  model?: string;
  /** Answer side requests with this error instead of a canned text (e.g. an auth failure everywhere). */
  sideErrors?: { status: number; errorType?: string; message?: string };
  /** Text for side requests (default {@link SIDE_TEXT}). */
  sideText?: string;
}

export const EXHAUSTED_TEXT = "(lab stand-in: the scenario script has no more steps)";
export const SIDE_TEXT = "Lab session";

const DEFAULT_ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

const DEFAULT_ERROR_MESSAGES: Record<number, string> = {
  400:
    "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
  401: "invalid x-api-key",
  403: "Your API key does not have permission to use the specified resource.",
  404: "The requested resource could not be found.",
  413: "Request exceeds the maximum allowed number of bytes.",
  429: "This request would exceed your organization's rate limit. Please try again later.",
  500: "Internal server error",
  529: "Overloaded",
};

/** Anthropic-shaped error body for a status. */
export function errorBody(
  status: number,
  errorType?: string,
  message?: string,
  requestId = "req_lab_0",
): Record<string, unknown> {
  return {
    type: "error",
    error: {
      type: errorType ?? DEFAULT_ERROR_TYPES[status] ?? "api_error",
      message: message ?? DEFAULT_ERROR_MESSAGES[status] ?? `HTTP ${status}`,
    },
    request_id: requestId,
  };
}

/** One SSE frame, as the Messages API writes it. */
function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

const blockStart = (index: number, block: Record<string, unknown>) =>
  sseFrame("content_block_start", { type: "content_block_start", index, content_block: block });
const blockDelta = (index: number, delta: Record<string, unknown>) =>
  sseFrame("content_block_delta", { type: "content_block_delta", index, delta });
const blockStop = (index: number) =>
  sseFrame("content_block_stop", { type: "content_block_stop", index });

interface MessagesBody {
  model?: unknown;
  stream?: unknown;
  tools?: unknown;
}

function isMainTurn(body: MessagesBody | null): boolean {
  return Array.isArray(body?.tools) && body.tools.length > 0;
}

function usage(inputTokens: number, outputTokens: number) {
  return {
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

type Streamed = Exclude<AnthropicReply, { kind: "error" }>;

/** Where a streamed message is: the next content block's index and the output tokens so far. */
interface Progress {
  index: number;
  outputTokens: number;
}

/** One text content block, `size` characters a delta, `delayMs` after each. */
async function* textBlock(
  at: Progress,
  text: string,
  delayMs: number,
  size: number,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const index = at.index;
  yield blockStart(index, { type: "text", text: "" });
  const pieces = chunks(text, size);
  // An empty text still streams one (empty) delta.
  for (const piece of pieces.length ? pieces : [""]) {
    yield blockDelta(index, { type: "text_delta", text: piece });
    at.outputTokens += Math.max(1, Math.ceil(piece.length / 4));
    if (delayMs > 0) await sleep(delayMs, signal);
    if (signal.aborted) return;
  }
  yield blockStop(index);
  at.index++;
}

/** One tool_use content block, its input streamed as JSON 40 characters a delta. */
async function* toolBlock(
  at: Progress,
  step: Extract<AnthropicReply, { kind: "tool_use" }>,
  id: string,
): AsyncGenerator<string> {
  const index = at.index;
  yield blockStart(index, { type: "tool_use", id, name: step.name, input: {} });
  const input = JSON.stringify(step.input);
  for (const piece of chunks(input, 40)) {
    yield blockDelta(index, { type: "input_json_delta", partial_json: piece });
  }
  yield blockStop(index);
  at.outputTokens += Math.ceil(input.length / 4);
  at.index++;
}

/**
 * The SSE events of one streamed message. `toolId` names the tool_use block when it starts. A
 * hang sends its optional text unfinished, then nothing until released or the client leaves.
 */
async function* messageEvents(
  model: string,
  id: string,
  step: Streamed,
  ctx: StreamContext,
  toolId: () => string,
): AsyncGenerator<string> {
  yield sseFrame("message_start", {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(step.inputTokens ?? 1200, 1),
    },
  });
  yield sseFrame("ping", { type: "ping" });
  const at: Progress = { index: 0, outputTokens: 0 };
  let stopReason = "end_turn";
  if (step.kind === "text") {
    yield* textBlock(at, step.text, step.chunkDelayMs ?? 0, step.chunkSize ?? 24, ctx.signal);
    if (step.outputTokens) at.outputTokens = step.outputTokens;
  } else if (step.kind === "tool_use") {
    if (step.text) {
      const delay = step.chunkDelayMs ?? 0;
      yield* textBlock(at, step.text, delay, step.chunkDelayMs ? 8 : 64, ctx.signal);
    }
    if (ctx.signal.aborted) return;
    yield* toolBlock(at, step, toolId());
    stopReason = "tool_use";
  } else {
    if (step.text) {
      yield blockStart(0, { type: "text", text: "" });
      yield blockDelta(0, { type: "text_delta", text: step.text });
    }
    await ctx.held;
    return;
  }
  if (ctx.signal.aborted) return;
  yield sseFrame("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: Math.max(1, at.outputTokens) },
  });
  yield sseFrame("message_stop", { type: "message_stop" });
}

let serial = 0;

function makeAdapter(opts: AnthropicStandinOptions): ApiAdapter<AnthropicReply> {
  const tag = `${Deno.pid.toString(36)}${(serial++).toString(36)}`;
  let ids = 0;
  const nextId = (prefix: string) => `${prefix}_lab${tag}_${(ids++).toString(36).padStart(4, "0")}`;
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    json(body, status, { "request-id": nextId("req"), ...headers });
  const message = (model: string, text: string, inputTokens = 40) => ({
    id: nextId("msg"),
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: usage(inputTokens, Math.max(1, Math.ceil(text.length / 4))),
  });
  const streamed = (model: string, step: Streamed, ctx: StreamContext): Response => {
    const id = nextId("msg");
    // The ids keep the order they have always been taken in: a tool call with no text before it
    // takes its id before the reply's request id, one after a text when its block starts.
    let toolId = step.kind === "tool_use" && !step.text ? nextId("toolu") : undefined;
    const headers = {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "request-id": nextId("req"),
    };
    const events = () => messageEvents(model, id, step, ctx, () => toolId ??= nextId("toolu"));
    return new Response(streamBody(events, ctx.signal), { status: 200, headers });
  };
  const modelOf = (body: MessagesBody | null) =>
    opts.model ?? String(body?.model ?? "claude-sonnet-4-5");
  let sideSeq = 0;

  return {
    route(req, url, body) {
      if (req.method === "POST" && url.pathname === "/v1/messages/count_tokens") return "aux";
      if (req.method === "HEAD" || (req.method === "GET" && url.pathname === "/")) return "aux";
      if (req.method !== "POST" || url.pathname !== "/v1/messages") return null;
      return isMainTurn(body as MessagesBody | null) ? "main" : "aux";
    },
    aux(body, url, req) {
      if (req.method === "POST" && url.pathname === "/v1/messages/count_tokens") {
        return reply(200, { input_tokens: 1200 });
      }
      if (req.method !== "POST") return new Response(null, { status: 200 });
      // A side request: never the script's.
      if (opts.sideErrors) {
        const e = opts.sideErrors;
        return reply(e.status, errorBody(e.status, e.errorType, e.message));
      }
      const b = body as MessagesBody | null;
      const text = opts.sideText ?? SIDE_TEXT;
      if (b?.stream !== true) return reply(200, message(modelOf(b), text));
      const ctx = { held: Promise.resolve(), signal: new AbortController().signal, seq: ++sideSeq };
      return streamed(modelOf(b), { kind: "text", text }, ctx);
    },
    main(step, body, _url, ctx) {
      const b = body as MessagesBody | null;
      if (step.kind === "error") {
        const payload = errorBody(step.status, step.errorType, step.message, nextId("req"));
        return reply(step.status, payload, step.headers ?? {});
      }
      if (b?.stream === true) return streamed(modelOf(b), step, ctx);
      if (step.kind !== "text") {
        return reply(400, errorBody(400, undefined, `stand-in: ${step.kind} needs stream: true`));
      }
      return reply(200, message(modelOf(b), step.text, step.inputTokens));
    },
    notFound(req, url) {
      return reply(404, errorBody(404, undefined, `no route for ${req.method} ${url.pathname}`));
    },
    fallback: { kind: "text", text: EXHAUSTED_TEXT },
  };
}

/** Start the stand-in on a random free port of 127.0.0.1. */
export function startAnthropicStandin(
  script: AnthropicStep[] = [],
  opts: AnthropicStandinOptions = {},
): Promise<AnthropicStandin> {
  return Promise.resolve(new ScriptedStandin(makeAdapter(opts), { steps: script }));
}
