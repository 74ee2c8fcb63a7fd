/**
 * What a stand-in's script is made of: the steps of the OpenAI Responses, Chat Completions and
 * Gemini stand-ins, and what any API's steps have in common for the machinery that queues them
 * (scripted_standin.ts).
 */

/** What the queue reads of any API's step: its kind, an error's repeat count, a held stream. */
export interface ScriptedStep {
  kind: string;
  times?: number;
  hold?: boolean;
}

/**
 * A step decided from the main turn that consumes it: a scripted model that must quote what a
 * tool printed (a pane id) in its next call. Scenario tables never hold one (they are data).
 */
export interface ComputedStep<S> {
  kind: "computed";
  from: (body: unknown) => S;
}

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

/** What a shared stand-in answers once its script has run out. */
export const DONE: Step = { kind: "text", text: "Done." };

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
