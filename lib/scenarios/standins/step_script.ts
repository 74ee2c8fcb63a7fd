/**
 * Shared machinery of the OpenAI Responses, Chat Completions and Gemini stand-ins: a loopback HTTP
 * server whose main-turn replies come from a queue of steps the scenario chose up front (never
 * guessed from the prompt text), a record of every request, and a way to hold a stream open so a
 * CLI can be captured mid-response.
 */

/** One scripted reply to one main-turn request. */
export type Step =
  | {
    kind: "text";
    text: string;
    /** Split into this many characters per delta (default: whole words). */
    chunkChars?: number;
    /** Pause between deltas, ms (default 0). */
    chunkDelayMs?: number;
    /** Reported prompt/input token usage (drives context indicators). */
    inputTokens?: number;
    /** Hold the stream open after the text until `release()` or the client hangs up. */
    hold?: boolean;
  }
  | {
    /** A tool/function call; `args` is the tool's JSON arguments. */
    kind: "tool";
    name: string;
    args: Record<string, unknown>;
    /** Optional text streamed before the call. */
    text?: string;
    inputTokens?: number;
  }
  | {
    /** An HTTP error in the API's own error shape, repeated for `times` consecutive requests. */
    kind: "error";
    status: number;
    /** Which canned error body: the API module maps it to its own shape. */
    error: ErrorKind;
    message?: string;
    times?: number;
    /**
     * The `retry-after` header (seconds) of a 429 (default 1; null: no header, so the CLI falls
     * back to its own backoff). Ignored by APIs that carry no such header.
     */
    retryAfterS?: number | null;
    /**
     * The whole JSON error body, in place of the canned one: for error shapes the canned kinds do
     * not cover (Codex's `usage_limit_reached` with its `resets_at`, a Gemini RetryInfo delay).
     */
    body?: Record<string, unknown>;
  }
  | {
    /** Send the response headers and nothing else until released (a CLI stuck waiting). */
    kind: "hang";
  };

export type ErrorKind = "rate_limit" | "quota" | "auth" | "server" | "overloaded" | "bad_request";

export interface RecordedRequest {
  at: string;
  method: string;
  path: string;
  /** "main" when it consumed a step, "aux" for side requests (titles, routing, model lists). */
  role: "main" | "aux" | "unknown";
  /** The step that answered it (main requests only). */
  step?: Step["kind"];
  headers: Record<string, string>;
  body: unknown;
}

export interface StandinOptions {
  /** Reply used when the queue is empty (default: a short text). */
  fallback?: Step;
  /** Steps to queue at start. */
  steps?: Step[];
}

/** What an API module implements on top of the core. */
export interface ApiAdapter {
  /** Classify a request: main turn (consumes a step), aux (answered by `aux`) or null (404). */
  route(req: Request, url: URL, body: unknown): "main" | "aux" | null;
  /** Build the streamed or plain reply for one step. `ctx.held` resolves when released. */
  main(step: Step, body: unknown, url: URL, ctx: StreamContext): Response;
  aux(body: unknown, url: URL): Response;
}

export interface StreamContext {
  /** Resolves when the scenario releases held streams or the client disconnects. */
  held: Promise<void>;
  signal: AbortSignal;
  /** Monotonic id for ids in the reply. */
  seq: number;
}

export class ScriptedStandin implements AsyncDisposable {
  readonly requests: RecordedRequest[] = [];
  #queue: Step[] = [];
  #fallback: Step;
  #server: Deno.HttpServer<Deno.NetAddr>;
  #releasers = new Set<() => void>();
  #open = new Set<AbortController>();
  #seq = 0;
  #waiters: { pred: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }[] = [];

  constructor(adapter: ApiAdapter, opts: StandinOptions = {}) {
    this.#fallback = opts.fallback ?? { kind: "text", text: "Done." };
    this.#queue.push(...(opts.steps ?? []));
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => this.#handle(adapter, req),
    );
  }

  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  get port(): number {
    return this.#server.addr.port;
  }

  /** Queue steps for the next main-turn requests, in order. */
  push(...steps: Step[]): void {
    this.#queue.push(...steps);
  }

  /** Drop every step not yet consumed (e.g. the rest of an endless error). */
  clear(): void {
    this.#queue = [];
  }

  /** Steps not yet consumed. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Let every held or hanging stream finish. */
  release(): void {
    for (const r of [...this.#releasers]) r();
    this.#releasers.clear();
  }

  /** Main-turn requests seen so far. */
  mainRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.role === "main");
  }

  /** Resolve with the first request (already seen or future) for which `pred` holds. */
  waitForRequest(
    pred: (r: RecordedRequest) => boolean,
    timeoutMs = 30_000,
  ): Promise<RecordedRequest> {
    const seen = this.requests.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = {
        pred,
        resolve: (r: RecordedRequest) => {
          clearTimeout(timer);
          resolve(r);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching request within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  async close(): Promise<void> {
    for (const ac of [...this.#open]) ac.abort();
    this.release();
    for (const w of this.#waiters) w.resolve = () => {};
    this.#waiters = [];
    await this.#server.shutdown();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #next(): Step {
    const head = this.#queue[0];
    if (!head) return this.#fallback;
    if (head.kind === "error" && (head.times ?? 1) > 1) {
      this.#queue[0] = { ...head, times: (head.times ?? 1) - 1 };
      return head;
    }
    this.#queue.shift();
    return head;
  }

  #record(r: RecordedRequest): void {
    this.requests.push(r);
    const ready = this.#waiters.filter((w) => w.pred(r));
    this.#waiters = this.#waiters.filter((w) => !w.pred(r));
    for (const w of ready) w.resolve(r);
  }

  async #handle(adapter: ApiAdapter, req: Request): Promise<Response> {
    const url = new URL(req.url);
    const raw = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      // Keep the raw text: the record should show what arrived even when it is not JSON.
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of req.headers) {
      // Credentials are throwaway values, but the record never needs them.
      headers[k] = /authorization|api-key|goog-api-key/i.test(k) ? "<redacted>" : v;
    }
    const role = adapter.route(req, url, body);
    const rec: RecordedRequest = {
      at: new Date().toISOString(),
      method: req.method,
      path: url.pathname + url.search,
      role: role ?? "unknown",
      headers,
      body,
    };
    if (role === null) {
      this.#record(rec);
      return new Response("not found", { status: 404 });
    }
    if (role === "aux") {
      this.#record(rec);
      return adapter.aux(body, url);
    }
    const step = this.#next();
    rec.step = step.kind;
    this.#record(rec);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = () => {
        this.#releasers.delete(release);
        resolve();
      };
    });
    this.#releasers.add(release);
    // Not req.signal: a client hanging up shows as the body stream's cancel() (streamBody), and
    // closing the stand-in aborts whatever is still open.
    const ac = new AbortController();
    CANCELLERS.set(ac.signal, ac);
    this.#open.add(ac);
    ac.signal.addEventListener("abort", () => {
      this.#open.delete(ac);
      release();
    }, { once: true });
    const ctx: StreamContext = { held, signal: ac.signal, seq: ++this.#seq };
    if (step.kind !== "hang" && !(step.kind === "text" && step.hold)) {
      // Nothing to hold for: free the slot now so release() bookkeeping stays small.
      release();
    }
    return adapter.main(step, body, url, ctx);
  }
}

const enc = new TextEncoder();

/** The controller behind a stream's signal, so the body's cancel() can abort it. */
const CANCELLERS = new WeakMap<AbortSignal, AbortController>();

/**
 * A streamed body fed by an async generator of already-framed chunks. Stops quietly when the
 * client hangs up.
 */
export function streamBody(
  gen: () => AsyncGenerator<string>,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  let it: AsyncGenerator<string> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      it ??= gen();
      if (signal.aborted) {
        await it.return(undefined);
        controller.close();
        return;
      }
      const { value, done } = await it.next();
      if (done) controller.close();
      else controller.enqueue(enc.encode(value));
    },
    async cancel() {
      CANCELLERS.get(signal)?.abort();
      await it?.return(undefined);
    },
  });
}

/** Split text into deltas: by `chunkChars` characters, else keeping each word with its space. */
export function chunks(text: string, chunkChars?: number): string[] {
  if (chunkChars && chunkChars > 0) {
    const out: string[] = [];
    const chars = [...text];
    for (let i = 0; i < chars.length; i += chunkChars) {
      out.push(chars.slice(i, i + chunkChars).join(""));
    }
    return out;
  }
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

export function json(data: unknown, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json", ...extra },
  });
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "connection": "keep-alive",
};

/** Default human wording per error kind (the API modules wrap it in their own shape). */
export function defaultMessage(kind: ErrorKind): string {
  switch (kind) {
    case "rate_limit":
      return "Rate limit reached for requests. Please try again later.";
    case "quota":
      return "You exceeded your current quota, please check your plan and billing details.";
    case "auth":
      return "Incorrect API key provided.";
    case "server":
      return "The server had an error while processing your request.";
    case "overloaded":
      return "The engine is currently overloaded, please try again later.";
    case "bad_request":
      return "Invalid request.";
  }
}
