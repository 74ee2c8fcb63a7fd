/**
 * A scripted stand-in for the Gemini API (what Gemini CLI speaks with GOOGLE_GEMINI_BASE_URL).
 * `POST /v1beta/models/<m>:streamGenerateContent?alt=sse` is a main turn: it consumes the next step
 * and streams `data: {candidates:[…]}` lines, a `tool` step as a `functionCall` part. The plain
 * `:generateContent` calls the CLI makes on the side (model routing, next-speaker checks) and
 * `:countTokens` are auxiliary and answered with a JSON object that satisfies each of them.
 * Errors use Google's `{error:{code,message,status,details}}` shape.
 */
import { sleep } from "../../base/sleep.ts";
import { type ApiAdapter, ScriptedStandin, type StandinOptions } from "./scripted_standin.ts";
import { defaultMessage, DONE, type ErrorKind, type Step } from "./step_script.ts";
import { chunks, json, sseResponse, type StreamContext } from "./wire.ts";

export interface GeminiStandinOptions extends StandinOptions {
  /** JSON text the auxiliary generateContent calls answer with. */
  auxJson?: Record<string, unknown>;
}

const DEFAULT_AUX = {
  complexity_reasoning: "A short, simple request.",
  complexity_score: 10,
  reasoning: "The model's turn is complete.",
  next_speaker: "user",
};

function geminiErrorBody(
  kind: ErrorKind,
  status: number,
  message?: string,
): Record<string, unknown> {
  const statusName = ({
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
  } as Record<number, string>)[status] ?? "UNKNOWN";
  const details: unknown[] = [];
  let msg = message;
  if (kind === "auth") {
    msg ??= status === 401
      ? "Request had invalid authentication credentials."
      : "API key not valid. Please pass a valid API key.";
    details.push({
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "API_KEY_INVALID",
      domain: "googleapis.com",
      metadata: { service: "generativelanguage.googleapis.com" },
    });
  } else if (kind === "quota") {
    msg ??= "You exceeded your current quota, please check your plan and billing details.";
    // A per-day quota id is what the CLI treats as terminal rather than retryable.
    details.push({
      "@type": "type.googleapis.com/google.rpc.QuotaFailure",
      violations: [{
        quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
        quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
        quotaDimensions: { location: "global", model: "standin-model" },
        quotaValue: "100",
      }],
    });
  } else if (kind === "rate_limit") {
    msg ??= "Resource has been exhausted (e.g. check quota).";
  } else if (kind === "overloaded") {
    msg ??= "The model is overloaded. Please try again later.";
  } else if (kind === "server") {
    msg ??=
      "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting";
  }
  return {
    error: {
      code: status,
      message: msg ?? defaultMessage(kind),
      status: statusName,
      ...(details.length ? { details } : {}),
    },
  };
}

function usageMetadata(inputTokens = 1200) {
  return {
    promptTokenCount: inputTokens,
    candidatesTokenCount: 40,
    totalTokenCount: inputTokens + 40,
  };
}

function candidateLine(
  parts: unknown[],
  finishReason: string | undefined,
  inputTokens?: number,
): string {
  const cand: Record<string, unknown> = { content: { role: "model", parts }, index: 0 };
  if (finishReason) cand.finishReason = finishReason;
  return `data: ${
    JSON.stringify({
      candidates: [cand],
      usageMetadata: usageMetadata(inputTokens),
      modelVersion: "standin-model",
      responseId: `gem-${Date.now().toString(36)}`,
    })
  }\r\n\r\n`;
}

async function* stream(step: Step, ctx: StreamContext): AsyncGenerator<string> {
  if (step.kind === "hang") {
    // Gemini sends nothing until the model starts; a comment keeps the connection visibly open.
    yield ": waiting\r\n\r\n";
    await ctx.held;
    return;
  }
  if (step.kind === "error") return;
  const text = step.kind === "text" ? step.text : step.text;
  const pieces = text ? chunks(text, step.kind === "text" ? step.chunkChars : undefined) : [];
  const delay = step.kind === "text" ? step.chunkDelayMs ?? 0 : 0;
  for (let i = 0; i < pieces.length; i++) {
    const last = i === pieces.length - 1 && step.kind === "text" && !step.hold;
    yield candidateLine([{ text: pieces[i] }], last ? "STOP" : undefined, step.inputTokens);
    if (!last) await sleep(delay, ctx.signal);
    if (ctx.signal.aborted) return;
  }
  if (step.kind === "text") {
    if (step.hold) {
      await ctx.held;
      if (ctx.signal.aborted) return;
      yield candidateLine([{ text: "" }], "STOP", step.inputTokens);
    } else if (pieces.length === 0) {
      yield candidateLine([{ text: "" }], "STOP", step.inputTokens);
    }
    return;
  }
  yield candidateLine(
    [{ functionCall: { name: step.name, args: step.args } }],
    "STOP",
    step.inputTokens,
  );
}

function makeAdapter(auxJson: Record<string, unknown>): ApiAdapter {
  return {
    route(req, url) {
      if (req.method === "GET" && /\/models\/?$/.test(url.pathname)) return "aux";
      if (req.method !== "POST") return null;
      if (url.pathname.endsWith(":streamGenerateContent")) return "main";
      if (url.pathname.endsWith(":generateContent") || url.pathname.endsWith(":countTokens")) {
        return "aux";
      }
      return null;
    },
    aux(_body, url) {
      if (url.pathname.endsWith(":countTokens")) return json({ totalTokens: 1200 });
      if (url.pathname.endsWith("/models") || url.pathname.endsWith("/models/")) {
        return json({ models: [{ name: "models/standin-model" }] });
      }
      return json({
        candidates: [{
          content: { role: "model", parts: [{ text: JSON.stringify(auxJson) }] },
          finishReason: "STOP",
          index: 0,
        }],
        usageMetadata: usageMetadata(200),
        modelVersion: "standin-model",
      });
    },
    main(step, _body, _url, ctx) {
      if (step.kind === "error") {
        return json(
          step.body ?? geminiErrorBody(step.error, step.status, step.message),
          step.status,
        );
      }
      return sseResponse(() => stream(step, ctx), ctx.signal);
    },
    fallback: DONE,
  };
}

/** Start a Gemini API stand-in on 127.0.0.1 (random port). GOOGLE_GEMINI_BASE_URL = `url`. */
export function startGeminiStandin(opts: GeminiStandinOptions = {}): ScriptedStandin {
  return new ScriptedStandin(makeAdapter(opts.auxJson ?? DEFAULT_AUX), opts);
}
