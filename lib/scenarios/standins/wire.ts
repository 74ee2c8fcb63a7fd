/**
 * What every stand-in's replies are made of, whatever the API: streamed bodies that stop quietly
 * when the client hangs up, text split into deltas, and JSON replies.
 */

/** What a streamed reply may wait on. */
export interface StreamContext {
  /** Resolves when the scenario releases held streams or the client disconnects. */
  held: Promise<void>;
  signal: AbortSignal;
  /** Monotonic id for ids in the reply. */
  seq: number;
}

const enc = new TextEncoder();

/** The controller behind a stream's signal, so the body's cancel() can abort it. */
const CANCELLERS = new WeakMap<AbortSignal, AbortController>();

/** A controller that a client hanging up on a {@link streamBody} with its signal aborts. */
export function abortedOnHangUp(): AbortController {
  const ac = new AbortController();
  CANCELLERS.set(ac.signal, ac);
  return ac;
}

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

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "connection": "keep-alive",
};

/** A server-sent-events reply with the usual headers, fed by `gen`. */
export function sseResponse(gen: () => AsyncGenerator<string>, signal: AbortSignal): Response {
  return new Response(streamBody(gen, signal), { headers: SSE_HEADERS });
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
