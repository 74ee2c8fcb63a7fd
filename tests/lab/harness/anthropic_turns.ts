/**
 * What the lab reads of and writes for the Anthropic Messages API around its stand-in
 * (lib/scenarios/standins/anthropic.ts): the user turn a request carries, the tool results Claude
 * Code reported back, and the headers of a subscription usage-limit rejection.
 */

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

/** Every text of the user turn(s) after the last assistant message (text blocks and tool_result text). */
export function lastUserTexts(body: unknown): string[] {
  const messages = messagesOf(body);
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
  body: unknown,
): Array<{ tool_use_id: string; is_error: boolean; text: string }> {
  const messages = messagesOf(body);
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

/** The `messages` of a request body (none when it has none or is not a Messages request). */
function messagesOf(body: unknown): Array<Record<string, unknown>> {
  const messages = (body as { messages?: unknown } | null | undefined)?.messages;
  return Array.isArray(messages) ? messages : [];
}

/**
 * A streamed Messages request with one user text, the shape Claude Code's main turns have (one
 * Bash tool offered), for driving a stand-in from a test.
 */
export function userTurn(text: string, extra: Record<string, unknown> = {}) {
  return {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    stream: true,
    tools: [{ name: "Bash", description: "run", input_schema: { type: "object" } }],
    messages: [{ role: "user", content: [{ type: "text", text }] }],
    ...extra,
  };
}
