import { sleep } from "../../base/sleep.ts";
/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1, for the lab (DESIGN §11).
 *
 * ```ts
 * await using api = await startAnthropicStandin([
 *   { kind: "tool_use", name: "Bash", input: { command: "ls", description: "List files" } },
 *   { kind: "text", text: "Done." },
 * ]);
 * // ANTHROPIC_BASE_URL = api.url
 * api.requests      // every request received, in order (method, path, body, kind)
 * api.mainRequests  // only the turns that consumed (or would consume) a script step
 * api.push(step)    // append steps while a scenario runs
 * api.remaining     // steps not consumed yet
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
those, chosen from the turn's body when it arrives). Every step may set
 * `inputTokens` (reported in `message_start.usage`, which drives the context indicator).
 */

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

export type AnthropicStep =
  | AnthropicReply
  | {
    kind: "computed";
    /**
     * The step to serve, decided from the main turn that consumes it: a scripted model that must
     * quote what a tool printed (a pane id) in its next call. Returns any other step kind.
     */
    from: (body: Record<string, unknown> | undefined) => AnthropicReply;
  };

export interface RecordedRequest {
  at: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when there was none or it was not JSON). */
  body: Record<string, unknown> | undefined;
  /** "main" consumed a script step, "side" got a canned reply, "other" = HEAD /, count_tokens, … */
  kind: "main" | "side" | "other";
  /** What was served: the step kind, "side", "exhausted", … */
  served: string;
  status: number;
}

export interface AnthropicStandinOptions {
  /** Model name reported in replies (default: the requested one). */
  model?: string;
  /** Answer side requests with this error instead of a canned text (e.g. an auth failure everywhere). */
  sideErrors?: { status: number; errorType?: string; message?: string };
  /** Text for side requests (default {@link SIDE_TEXT}). */
  sideText?: string;
}

export interface AnthropicStandin extends AsyncDisposable {
  /** e.g. http://127.0.0.1:43121 — what ANTHROPIC_BASE_URL should be. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  readonly mainRequests: RecordedRequest[];
  /** Steps not consumed yet. */
  readonly remaining: AnthropicStep[];
  push(...steps: AnthropicStep[]): void;
  /** Resolves when at least `n` main turns have been received. */
  waitForMainRequests(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
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

/**
 * Headers of a subscription usage-limit rejection (HTTP 429): the unified rate-limit headers Claude
 * Code reads for claude.ai plans. `claim`: "five_hour" (session limit) or "seven_day" (weekly limit).
 */
export function usageLimitHeaders(
  claim: "five_hour" | "seven_day",
  resetEpochSeconds = Math.floor(Date.now() / 1000) + 3 * 3600,
): Record<string, string> {
  const reset = String(resetEpochSeconds);
  const short = claim === "five_hour" ? "5h" : "7d";
  return {
    "anthropic-ratelimit-unified-status": "rejected",
    "anthropic-ratelimit-unified-reset": reset,
    "anthropic-ratelimit-unified-representative-claim": claim,
    [`anthropic-ratelimit-unified-${short}-status`]: "rejected",
    [`anthropic-ratelimit-unified-${short}-reset`]: reset,
    [`anthropic-ratelimit-unified-${short}-utilization`]: "1.0",
  };
}

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
export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Every text of the user turn(s) after the last assistant message (text blocks and tool_result text). */
export function lastUserTexts(body: Record<string, unknown> | undefined): string[] {
  const messages = Array.isArray(body?.messages)
    ? body.messages as Array<Record<string, unknown>>
    : [];
  let start = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "assistant") {
      start = i + 1;
      break;
    }
  }
  const out: string[] = [];
  for (const m of messages.slice(start)) {
    if (m.role !== "user") continue;
    if (typeof m.content === "string") out.push(m.content);
    else if (Array.isArray(m.content)) {
      for (const block of m.content as Array<Record<string, unknown>>) {
        if (block.type === "text" && typeof block.text === "string") out.push(block.text);
        if (block.type === "tool_result") {
          const c = block.content;
          if (typeof c === "string") out.push(c);
          else if (Array.isArray(c)) {
            for (const b of c as Array<Record<string, unknown>>) {
              if (typeof b.text === "string") out.push(b.text);
            }
          }
        }
      }
    }
  }
  return out;
}

/** tool_result blocks of the last user turn(s): what the CLI reported back for a tool call. */
export function lastToolResults(
  body: Record<string, unknown> | undefined,
): Array<{ tool_use_id: string; is_error: boolean; text: string }> {
  const messages = Array.isArray(body?.messages)
    ? body.messages as Array<Record<string, unknown>>
    : [];
  const out: Array<{ tool_use_id: string; is_error: boolean; text: string }> = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role !== "assistant"; i--) {
    const content = messages[i].content;
    if (!Array.isArray(content)) continue;
    for (const block of content as Array<Record<string, unknown>>) {
      if (block.type !== "tool_result") continue;
      const c = block.content;
      const text = typeof c === "string"
        ? c
        : Array.isArray(c)
        ? (c as Array<Record<string, unknown>>).map((b) => String(b.text ?? "")).join("\n")
        : "";
      out.unshift({
        tool_use_id: String(block.tool_use_id ?? ""),
        is_error: block.is_error === true,
        text,
      });
    }
  }
  return out;
}

function isMainTurn(body: Record<string, unknown> | undefined): boolean {
  return Array.isArray(body?.tools) && (body.tools as unknown[]).length > 0;
}

function usage(inputTokens: number, outputTokens: number) {
  return {
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out.length ? out : [""];
}

let serial = 0;

/** Start the stand-in on a random free port of 127.0.0.1. */
export function startAnthropicStandin(
  script: AnthropicStep[] = [],
  opts: AnthropicStandinOptions = {},
): Promise<AnthropicStandin> {
  const queue: AnthropicStep[] = [...script];
  const requests: RecordedRequest[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let errorServed = 0; // how many times the step at the head of the queue (an error) was served
  const closing = new AbortController();
  const tag = `${Deno.pid.toString(36)}${(serial++).toString(36)}`;
  let ids = 0;
  const nextId = (prefix: string) => `${prefix}_lab${tag}_${(ids++).toString(36).padStart(4, "0")}`;

  const notify = () => {
    const mains = requests.filter((r) => r.kind === "main").length;
    for (const w of [...waiters]) {
      if (mains >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", "request-id": nextId("req"), ...headers },
    });

  const streamResponse = (
    model: string,
    step: Exclude<AnthropicReply, { kind: "error" }>,
  ): Response => {
    const enc = new TextEncoder();
    // Aborted when the client goes away (the stream is cancelled), e.g. the user pressed Esc.
    const cancelled = new AbortController();
    const signal = cancelled.signal;
    const msgId = nextId("msg");
    const inputTokens = step.inputTokens ?? 1200;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        let open = true;
        const send = (event: string, data: unknown) => {
          if (!open) return;
          try {
            controller.enqueue(enc.encode(sseFrame(event, data)));
          } catch {
            open = false;
          }
        };
        const gone = () => signal.aborted || closing.signal.aborted || !open;
        send("message_start", {
          type: "message_start",
          message: {
            id: msgId,
            type: "message",
            role: "assistant",
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: usage(inputTokens, 1),
          },
        });
        send("ping", { type: "ping" });
        let index = 0;
        let outputTokens = 0;
        const textBlock = async (text: string, delayMs: number, size: number) => {
          send("content_block_start", {
            type: "content_block_start",
            index,
            content_block: { type: "text", text: "" },
          });
          for (const piece of chunks(text, size)) {
            if (gone()) return;
            send("content_block_delta", {
              type: "content_block_delta",
              index,
              delta: { type: "text_delta", text: piece },
            });
            outputTokens += Math.max(1, Math.ceil(piece.length / 4));
            if (delayMs > 0) await sleep(delayMs, AbortSignal.any([signal, closing.signal]));
          }
          send("content_block_stop", { type: "content_block_stop", index });
          index++;
        };
        let stopReason = "end_turn";
        if (step.kind === "text") {
          await textBlock(step.text, step.chunkDelayMs ?? 0, step.chunkSize ?? 24);
          if (step.outputTokens) outputTokens = step.outputTokens;
        } else if (step.kind === "tool_use") {
          if (step.text) {
            await textBlock(step.text, step.chunkDelayMs ?? 0, step.chunkDelayMs ? 8 : 64);
          }
          send("content_block_start", {
            type: "content_block_start",
            index,
            content_block: { type: "tool_use", id: nextId("toolu"), name: step.name, input: {} },
          });
          const json = JSON.stringify(step.input);
          for (const piece of chunks(json, 40)) {
            send("content_block_delta", {
              type: "content_block_delta",
              index,
              delta: { type: "input_json_delta", partial_json: piece },
            });
          }
          send("content_block_stop", { type: "content_block_stop", index });
          outputTokens += Math.ceil(json.length / 4);
          stopReason = "tool_use";
        } else {
          // hang: optionally start a text block, then wait for the client (or the stand-in) to go away.
          if (step.text) {
            send("content_block_start", {
              type: "content_block_start",
              index,
              content_block: { type: "text", text: "" },
            });
            send("content_block_delta", {
              type: "content_block_delta",
              index,
              delta: { type: "text_delta", text: step.text },
            });
          }
          while (!gone()) await sleep(1000, AbortSignal.any([signal, closing.signal]));
        }
        if (!gone()) {
          send("message_delta", {
            type: "message_delta",
            delta: { stop_reason: stopReason, stop_sequence: null },
            usage: { output_tokens: Math.max(1, outputTokens) },
          });
          send("message_stop", { type: "message_stop" });
        }
        if (open) {
          open = false;
          try {
            controller.close();
          } catch { /* client already gone */ }
        }
      },
      cancel() {
        cancelled.abort();
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        "request-id": nextId("req"),
      },
    });
  };

  const jsonMessage = (model: string, text: string, inputTokens = 40) => ({
    id: nextId("msg"),
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: usage(inputTokens, Math.max(1, Math.ceil(text.length / 4))),
  });

  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => headers[k] = v);
    let body: Record<string, unknown> | undefined;
    if (req.method === "POST") {
      try {
        const raw = await req.text();
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
    }
    const rec: RecordedRequest = {
      at: Date.now(),
      method: req.method,
      path: url.pathname + url.search,
      headers,
      body,
      kind: "other",
      served: "",
      status: 200,
    };
    requests.push(rec);
    const done = (served: string, res: Response) => {
      rec.served = served;
      rec.status = res.status;
      notify();
      return res;
    };

    if (req.method === "POST" && url.pathname === "/v1/messages/count_tokens") {
      return done("count_tokens", jsonResponse(200, { input_tokens: 1200 }));
    }
    if (req.method !== "POST" || url.pathname !== "/v1/messages") {
      if (req.method === "HEAD" || (req.method === "GET" && url.pathname === "/")) {
        return done("ok", new Response(null, { status: 200 }));
      }
      return done(
        "not_found",
        jsonResponse(404, errorBody(404, undefined, `no route for ${req.method} ${url.pathname}`)),
      );
    }
    const model = opts.model ?? String(body?.model ?? "claude-sonnet-4-5");
    const stream = body?.stream === true;

    if (!isMainTurn(body)) {
      rec.kind = "side";
      if (opts.sideErrors) {
        const e = opts.sideErrors;
        return done(
          `side-error-${e.status}`,
          jsonResponse(e.status, errorBody(e.status, e.errorType, e.message)),
        );
      }
      const text = opts.sideText ?? SIDE_TEXT;
      if (stream) {
        return done("side", streamResponse(model, { kind: "text", text }));
      }
      return done("side", jsonResponse(200, jsonMessage(model, text)));
    }

    rec.kind = "main";
    const head = queue[0];
    const step = head?.kind === "computed" ? head.from(body) : head;
    if (!step) {
      const res = stream
        ? streamResponse(model, { kind: "text", text: EXHAUSTED_TEXT })
        : jsonResponse(200, jsonMessage(model, EXHAUSTED_TEXT));
      return done("exhausted", res);
    }
    if (step.kind === "error") {
      errorServed++;
      if (errorServed >= (step.times ?? 1)) {
        queue.shift();
        errorServed = 0;
      }
      return done(
        `error-${step.status}`,
        jsonResponse(
          step.status,
          errorBody(step.status, step.errorType, step.message, nextId("req")),
          step.headers ?? {},
        ),
      );
    }
    queue.shift();
    errorServed = 0;
    if (!stream) {
      if (step.kind !== "text") {
        return done(
          "unsupported",
          jsonResponse(400, errorBody(400, undefined, `stand-in: ${step.kind} needs stream: true`)),
        );
      }
      return done("text", jsonResponse(200, jsonMessage(model, step.text, step.inputTokens)));
    }
    return done(step.kind, streamResponse(model, step));
  };

  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
    signal: closing.signal,
  }, handler);
  const port = server.addr.port;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    closing.abort();
    await server.shutdown().catch(() => {});
    await server.finished.catch(() => {});
  };
  return Promise.resolve({
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get mainRequests() {
      return requests.filter((r) => r.kind === "main");
    },
    get remaining() {
      return [...queue];
    },
    push(...steps) {
      queue.push(...steps);
    },
    waitForMainRequests(n, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const w = { n, resolve: () => (clearTimeout(t), resolve()) };
        const t = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(
            new Error(
              `stand-in: waited ${timeoutMs} ms for ${n} main turn(s), got ${
                requests.filter((r) => r.kind === "main").length
              }`,
            ),
          );
        }, timeoutMs);
        waiters.push(w);
        notify();
      });
    },
    close,
    [Symbol.asyncDispose]: close,
  });
}
