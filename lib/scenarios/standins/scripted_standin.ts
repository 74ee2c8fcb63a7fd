/**
 * The machinery every model stand-in runs on: a loopback HTTP server whose main-turn replies come
 * from a queue of steps the scenario chose up front (never guessed from the prompt text), a record
 * of every request, and a way to hold a stream open so a CLI can be captured mid-response. What a
 * reply looks like on the wire is the API module's own (an {@link ApiAdapter}).
 */
import type { ComputedStep, ScriptedStep, Step } from "./step_script.ts";
import { abortedOnHangUp, type StreamContext } from "./wire.ts";

export interface RecordedRequest {
  at: string;
  method: string;
  path: string;
  /** "main" when it consumed a step, "aux" for side requests (titles, routing, model lists). */
  role: "main" | "aux" | "unknown";
  /** The kind of the step that answered it (main requests only). */
  step?: string;
  /** The script had run out: the adapter's fallback answered (main requests only). */
  fallback?: true;
  /** The HTTP status answered. */
  status?: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface StandinOptions<S extends ScriptedStep = Step> {
  /** Reply used when the queue is empty (default: the API module's own). */
  fallback?: S;
  /** Steps to queue at start. */
  steps?: (S | ComputedStep<S>)[];
}

/** What an API module implements on top of the core. */
export interface ApiAdapter<S extends ScriptedStep = Step> {
  /** Classify a request: main turn (consumes a step), aux (answered by `aux`) or null (404). */
  route(req: Request, url: URL, body: unknown): "main" | "aux" | null;
  /** Build the streamed or plain reply for one step. `ctx.held` resolves when released. */
  main(step: S, body: unknown, url: URL, ctx: StreamContext): Response;
  aux(body: unknown, url: URL, req: Request): Response;
  /** The reply to a request `route` knows nothing of (default: a plain-text 404). */
  notFound?(req: Request, url: URL): Response;
  /** What a main turn gets once the script has run out. */
  fallback: S;
}

function isComputed<S extends ScriptedStep>(step: S | ComputedStep<S>): step is ComputedStep<S> {
  return step.kind === "computed";
}

export class ScriptedStandin<S extends ScriptedStep = Step> implements AsyncDisposable {
  readonly requests: RecordedRequest[] = [];
  #queue: (S | ComputedStep<S>)[] = [];
  /** How many times the error at the head of the queue has been served. */
  #served = 0;
  #fallback: S;
  #server: Deno.HttpServer<Deno.NetAddr>;
  #releasers = new Set<() => void>();
  #open = new Set<AbortController>();
  #seq = 0;
  #waiters: { pred: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }[] = [];

  constructor(adapter: ApiAdapter<S>, opts: StandinOptions<S> = {}) {
    this.#fallback = opts.fallback ?? adapter.fallback;
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
  push(...steps: (S | ComputedStep<S>)[]): void {
    this.#queue.push(...steps);
  }

  /** Drop every step not yet consumed (e.g. the rest of an endless error). */
  clear(): void {
    this.#queue = [];
    this.#served = 0;
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

  /** Resolve once at least `n` main turns have been received. */
  async waitForMainRequests(n: number, timeoutMs = 30_000): Promise<void> {
    const enough = (r: RecordedRequest) => r.role === "main" && this.mainRequests().length >= n;
    if (n <= 0) return;
    await this.waitForRequest(enough, timeoutMs).catch(() => {
      const got = this.mainRequests().length;
      throw new Error(`stand-in: waited ${timeoutMs} ms for ${n} main turn(s), got ${got}`);
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

  /** The step that answers a main turn with this body; an error stays queued for its `times`. */
  #next(body: unknown): S | undefined {
    const head = this.#queue[0];
    if (!head) return undefined;
    const step = isComputed(head) ? head.from(body) : head;
    if (step.kind === "error" && ++this.#served < (step.times ?? 1)) return step;
    this.#queue.shift();
    this.#served = 0;
    return step;
  }

  #record(r: RecordedRequest): void {
    this.requests.push(r);
    const ready = this.#waiters.filter((w) => w.pred(r));
    this.#waiters = this.#waiters.filter((w) => !w.pred(r));
    for (const w of ready) w.resolve(r);
  }

  async #handle(adapter: ApiAdapter<S>, req: Request): Promise<Response> {
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
    const answered = (res: Response) => {
      rec.status = res.status;
      return res;
    };
    if (role === null) {
      this.#record(rec);
      return answered(adapter.notFound?.(req, url) ?? new Response("not found", { status: 404 }));
    }
    if (role === "aux") {
      this.#record(rec);
      return answered(adapter.aux(body, url, req));
    }
    const next = this.#next(body);
    const step = next ?? this.#fallback;
    rec.step = step.kind;
    if (!next) rec.fallback = true;
    this.#record(rec);
    return answered(adapter.main(step, body, url, this.#context(step)));
  }

  /** The context of one main-turn reply: held until released unless there is nothing to hold. */
  #context(step: S): StreamContext {
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
    const ac = abortedOnHangUp();
    this.#open.add(ac);
    ac.signal.addEventListener("abort", () => {
      this.#open.delete(ac);
      release();
    }, { once: true });
    if (step.kind !== "hang" && !step.hold) {
      // Nothing to hold for: free the slot now so release() bookkeeping stays small.
      release();
    }
    return { held, signal: ac.signal, seq: ++this.#seq };
  }
}
