/**
 * The lab's OpenAI Responses, Chat Completions and Gemini stand-ins: scripted replies in each API's
 * own streaming and error shapes, side requests that never consume the script, and a record of
 * every request.
 */
import assert from "node:assert/strict";
import { startResponsesStandin } from "../../lib/scenarios/standins/openai_responses.ts";
import { startChatStandin } from "../../lib/scenarios/standins/chat_completions.ts";
import { startGeminiStandin } from "../../lib/scenarios/standins/gemini.ts";
import { execCommand, geminiShell } from "../lab/harness/shell_steps.ts";
import { startStandin } from "../../lib/scenarios/standin.ts";
import { TABLES } from "../../lib/scenarios/mod.ts";

async function post(url: string, body: unknown): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-secret" },
    body: JSON.stringify(body),
  });
}

/** Parse an SSE body into its `data:` payloads (JSON where possible). */
function sseData(text: string): unknown[] {
  return text.split(/\r?\n\r?\n/).flatMap((frame) =>
    frame.split(/\r?\n/).filter((l) => l.startsWith("data: ")).map((l) => {
      const d = l.slice(6);
      try {
        return JSON.parse(d);
      } catch {
        return d;
      }
    })
  );
}

const TOOLS = [{ type: "function", name: "exec_command" }];

Deno.test("responses: text streams as Responses events and the request is recorded", async () => {
  await using api = startResponsesStandin({
    steps: [{ kind: "text", text: "Hello there, friend." }],
  });
  const res = await post(`${api.url}/v1/responses`, { model: "m", stream: true, tools: TOOLS });
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  const events = sseData(await res.text()) as {
    type: string;
    delta?: string;
    response?: { usage?: unknown };
  }[];
  const types = events.map((e) => e.type);
  assert.equal(types[0], "response.created");
  assert.equal(types.at(-1), "response.completed");
  assert.ok(types.includes("response.output_item.added"));
  assert.equal(
    events.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta).join(""),
    "Hello there, friend.",
  );
  assert.ok(events.at(-1)!.response!.usage);
  assert.equal(api.requests.length, 1);
  assert.equal(api.requests[0].role, "main");
  assert.equal(api.requests[0].step, "text");
  assert.equal(api.requests[0].headers.authorization, "<redacted>");
  assert.deepEqual((api.requests[0].body as { model: string }).model, "m");
});

Deno.test("responses: exec_command becomes a function_call item; a tool-less request is aux", async () => {
  await using api = startResponsesStandin({ steps: [execCommand("touch x", "Make x")] });
  const aux = await post(`${api.url}/v1/responses`, { model: "m", stream: true, tools: [] });
  const auxEvents = sseData(await aux.text()) as { type: string; delta?: string }[];
  assert.equal(
    auxEvents.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta).join(""),
    '{"title":"Lab session"}',
  );
  assert.equal(api.pending, 1, "an aux request never consumes the script");
  const res = await post(`${api.url}/v1/responses`, { model: "m", stream: true, tools: TOOLS });
  const done = (sseData(await res.text()) as { type: string; item?: Record<string, unknown> }[])
    .find((e) => e.type === "response.output_item.done" && e.item?.type === "function_call");
  assert.ok(done);
  assert.equal(done.item!.name, "exec_command");
  assert.deepEqual(JSON.parse(String(done.item!.arguments)), {
    cmd: "touch x",
    sandbox_permissions: "require_escalated",
    justification: "Make x",
  });
  assert.deepEqual(api.requests.map((r) => r.role), ["aux", "main"]);
});

Deno.test("responses: HTTP errors in OpenAI's shape, repeated `times`, then the next step", async () => {
  await using api = startResponsesStandin({
    steps: [
      { kind: "error", status: 429, error: "quota", times: 2 },
      { kind: "error", status: 401, error: "auth" },
      { kind: "error", status: 500, error: "server" },
      { kind: "error", status: 429, error: "rate_limit" },
    ],
  });
  const url = `${api.url}/v1/responses`;
  for (let i = 0; i < 2; i++) {
    const r = await post(url, { stream: true, tools: TOOLS });
    assert.equal(r.status, 429);
    const b = await r.json();
    assert.equal(b.error.type, "insufficient_quota");
    assert.equal(b.error.code, "insufficient_quota");
  }
  const auth = await post(url, { stream: true, tools: TOOLS });
  assert.equal(auth.status, 401);
  assert.equal((await auth.json()).error.code, "invalid_api_key");
  const server = await post(url, { stream: true, tools: TOOLS });
  assert.equal(server.status, 500);
  assert.equal((await server.json()).error.type, "server_error");
  const rate = await post(url, { stream: true, tools: TOOLS });
  assert.equal(rate.status, 429);
  assert.equal(rate.headers.get("retry-after"), "1");
  assert.equal((await rate.json()).error.code, "rate_limit_exceeded");
  // Script used up: the fallback text.
  const after = await post(url, { stream: true, tools: TOOLS });
  assert.equal(after.status, 200);
  await after.body?.cancel();
});

Deno.test("responses: a held text stream stays open until release()", async () => {
  await using api = startResponsesStandin({
    steps: [{ kind: "text", text: "Working.", hold: true }],
  });
  const res = await post(`${api.url}/v1/responses`, { stream: true, tools: TOOLS });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let seen = "";
  while (!seen.includes("response.output_item.done")) {
    const { value, done } = await reader.read();
    assert.ok(!done, "the stream must not end before release()");
    seen += dec.decode(value);
  }
  assert.ok(!seen.includes("response.completed"));
  api.release();
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += dec.decode(value);
  }
  assert.ok(seen.includes("response.completed"));
});

Deno.test("responses: clear() drops an endless error; waitForRequest sees future requests", async () => {
  await using api = startResponsesStandin({
    steps: [{ kind: "error", status: 500, error: "server", times: Infinity }],
  });
  const waiting = api.waitForRequest((r) => r.role === "main", 5_000);
  const r1 = await post(`${api.url}/v1/responses`, { stream: true, tools: TOOLS });
  assert.equal(r1.status, 500);
  await r1.body?.cancel();
  assert.equal((await waiting).step, "error");
  api.clear();
  assert.equal(api.pending, 0);
  const r2 = await post(`${api.url}/v1/responses`, { stream: true, tools: TOOLS });
  assert.equal(r2.status, 200);
  await r2.body?.cancel();
});

Deno.test("chat: text, tool call and usage chunks end with [DONE]", async () => {
  await using api = startChatStandin({
    steps: [
      { kind: "text", text: "All done here.", inputTokens: 150_000 },
      { kind: "tool", name: "run_shell_command", args: { command: "ls", description: "List" } },
    ],
  });
  const tools = [{ type: "function", function: { name: "run_shell_command" } }];
  const body = { model: "m", stream: true, stream_options: { include_usage: true }, tools };
  const t = sseData(await (await post(`${api.url}/v1/chat/completions`, body)).text()) as Record<
    string,
    unknown
  >[];
  assert.equal(t.at(-1), "[DONE]");
  const chunks = t.slice(0, -1) as {
    object: string;
    choices: { delta: { content?: string }; finish_reason: string | null }[];
    usage?: { prompt_tokens: number };
  }[];
  assert.ok(chunks.every((c) => c.object === "chat.completion.chunk"));
  assert.equal(
    chunks.flatMap((c) => c.choices.map((x) => x.delta.content ?? "")).join(""),
    "All done here.",
  );
  assert.equal(chunks.flatMap((c) => c.choices).at(-1)!.finish_reason, "stop");
  assert.equal(chunks.at(-1)!.usage!.prompt_tokens, 150_000);

  const c = sseData(await (await post(`${api.url}/v1/chat/completions`, body)).text()).slice(
    0,
    -1,
  ) as {
    choices: {
      delta: { tool_calls?: { id?: string; function: { name?: string; arguments: string } }[] };
      finish_reason: string | null;
    }[];
  }[];
  const calls = c.flatMap((x) => x.choices.flatMap((ch) => ch.delta.tool_calls ?? []));
  assert.equal(calls[0].function.name, "run_shell_command");
  assert.ok(calls[0].id);
  assert.deepEqual(JSON.parse(calls.map((x) => x.function.arguments).join("")), {
    command: "ls",
    description: "List",
  });
  assert.equal(c.flatMap((x) => x.choices).at(-1)!.finish_reason, "tool_calls");
});

Deno.test("chat: a request without tools is a side request (titles), streamed or not", async () => {
  await using api = startChatStandin({
    steps: [{ kind: "text", text: "main" }],
    auxText: "Lab title",
  });
  const whole = await (await post(`${api.url}/v1/chat/completions`, { model: "m", messages: [] }))
    .json();
  assert.equal(whole.object, "chat.completion");
  assert.equal(whole.choices[0].message.content, "Lab title");
  const streamed = sseData(
    await (await post(`${api.url}/v1/chat/completions`, { model: "m", stream: true, messages: [] }))
      .text(),
  );
  assert.equal(streamed.at(-1), "[DONE]");
  assert.equal(api.pending, 1);
  assert.deepEqual(api.requests.map((r) => r.role), ["aux", "aux"]);
});

Deno.test("chat: Qwen Code's follow-up suggestion request (with tools) is a side request, answered with nothing", async () => {
  await using api = startChatStandin({ steps: [{ kind: "text", text: "main" }] });
  const tools = [{ type: "function", function: { name: "run_shell_command" } }];
  // As Qwen Code 0.24.4 sends it after a finished turn: every tool, the prompt in parts.
  const body = {
    model: "m",
    stream: true,
    tools,
    messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "done" }, {
      role: "user",
      content: [{
        type: "text",
        text: "[SUGGESTION MODE: Suggest what the user might naturally type next.]\n\nFIRST: …",
      }],
    }],
  };
  const frames = sseData(await (await post(`${api.url}/v1/chat/completions`, body)).text());
  const text = frames.flatMap((f) =>
    typeof f === "object" && f && "choices" in f
      ? (f as { choices: { delta?: { content?: string } }[] }).choices.map((c) =>
        c.delta?.content ?? ""
      )
      : []
  ).join("");
  assert.equal(text, "");
  assert.equal(api.pending, 1);
  assert.deepEqual(api.requests.map((r) => r.role), ["aux"]);
  // The next real turn still gets the scripted step.
  const main = sseData(
    await (await post(`${api.url}/v1/chat/completions`, { model: "m", stream: true, tools }))
      .text(),
  );
  assert.ok(JSON.stringify(main).includes("main"));
  assert.equal(api.pending, 0);
});

Deno.test("chat: Qwen Code's background memory agents (with tools) are side requests, not the next scripted step", async () => {
  await using api = startChatStandin({ steps: [{ kind: "hang" }] });
  const tools = ["read_file", "grep_search", "glob", "run_shell_command", "write_file", "edit"]
    .map((name) => ({ type: "function", function: { name } }));
  // As Qwen Code 0.24.4's extractor sends it after a finished turn (it took the lab's busy hang).
  const extractor = {
    model: "m",
    stream: true,
    tools,
    messages: [
      {
        role: "system",
        content:
          "You are now acting as the managed memory extraction subagent for an AI coding assistant.",
      },
      { role: "user", content: "hi" },
      { role: "assistant", content: "done" },
      {
        role: "user",
        content: [{ type: "text", text: "Managed memory has TWO directories. Choose which one …" }],
      },
    ],
  };
  const dream = {
    model: "m",
    stream: false,
    tools,
    messages: [
      {
        role: "system",
        content: [{ type: "text", text: "You are performing a managed memory dream — …" }],
      },
      { role: "user", content: "Memory directory: `/tmp/x`" },
    ],
  };
  await (await post(`${api.url}/v1/chat/completions`, extractor)).text();
  const whole = await (await post(`${api.url}/v1/chat/completions`, dream)).json();
  assert.equal(whole.choices[0].message.content, "");
  assert.equal(api.pending, 1);
  assert.deepEqual(api.requests.map((r) => r.role), ["aux", "aux"]);
});

Deno.test("chat: errors use OpenAI's error shape", async () => {
  await using api = startChatStandin({
    steps: [{ kind: "error", status: 401, error: "auth" }, {
      kind: "error",
      status: 429,
      error: "quota",
    }],
  });
  const tools = [{ type: "function", function: { name: "x" } }];
  const a = await post(`${api.url}/v1/chat/completions`, { stream: true, tools });
  assert.equal(a.status, 401);
  assert.equal((await a.json()).error.code, "invalid_api_key");
  const q = await post(`${api.url}/v1/chat/completions`, { stream: true, tools });
  assert.equal(q.status, 429);
  assert.equal((await q.json()).error.type, "insufficient_quota");
});

Deno.test("chat: a hang step sends headers and nothing more until release()", async () => {
  await using api = startChatStandin({ steps: [{ kind: "hang" }] });
  const tools = [{ type: "function", function: { name: "x" } }];
  const res = await post(`${api.url}/v1/chat/completions`, { stream: true, tools });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert.ok(new TextDecoder().decode(first.value).includes('"role":"assistant"'));
  const next = reader.read();
  const raced = await Promise.race([
    next.then(() => "data"),
    new Promise((r) => setTimeout(() => r("silent"), 200)),
  ]);
  assert.equal(raced, "silent");
  api.release();
  assert.equal((await next).done, true);
});

Deno.test("gemini: streamGenerateContent streams candidates; functionCall parts for tools", async () => {
  await using api = startGeminiStandin({
    steps: [{ kind: "text", text: "Hi there." }, geminiShell("touch x", "Make x")],
  });
  const url = `${api.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`;
  const t = sseData(await (await post(url, { contents: [] })).text()) as {
    candidates: {
      content: {
        role: string;
        parts: { text?: string; functionCall?: { name: string; args: unknown } }[];
      };
      finishReason?: string;
    }[];
    usageMetadata: { promptTokenCount: number };
  }[];
  assert.equal(t.map((c) => c.candidates[0].content.parts[0].text).join(""), "Hi there.");
  assert.equal(t.at(-1)!.candidates[0].finishReason, "STOP");
  assert.equal(t[0].candidates[0].content.role, "model");
  const f = sseData(await (await post(url, { contents: [] })).text()) as typeof t;
  const call = f.flatMap((c) => c.candidates[0].content.parts).find((p) => p.functionCall);
  assert.deepEqual(call?.functionCall, {
    name: "run_shell_command",
    args: { command: "touch x", description: "Make x" },
  });
  assert.equal(api.requests[0].path, "/v1beta/models/gemini-x:streamGenerateContent?alt=sse");
});

Deno.test("gemini: generateContent routing call is aux and answers JSON; countTokens too", async () => {
  await using api = startGeminiStandin({ steps: [{ kind: "text", text: "main" }] });
  const r =
    await (await post(`${api.url}/v1beta/models/flash-lite:generateContent`, { contents: [] }))
      .json();
  const answer = JSON.parse(r.candidates[0].content.parts[0].text);
  assert.equal(typeof answer.complexity_score, "number");
  assert.equal(answer.next_speaker, "user");
  const c = await (await post(`${api.url}/v1beta/models/x:countTokens`, {})).json();
  assert.equal(typeof c.totalTokens, "number");
  assert.equal(api.pending, 1);
  const nf = await post(`${api.url}/v1beta/models/x:embedContent`, {});
  assert.equal(nf.status, 404);
  await nf.body?.cancel();
});

Deno.test("gemini: errors in Google's shape (quota per day, invalid key, 500, 503)", async () => {
  await using api = startGeminiStandin({
    steps: [
      { kind: "error", status: 429, error: "quota" },
      { kind: "error", status: 400, error: "auth" },
      { kind: "error", status: 500, error: "server" },
      { kind: "error", status: 503, error: "overloaded" },
    ],
  });
  const url = `${api.url}/v1beta/models/m:streamGenerateContent?alt=sse`;
  const q = await post(url, {});
  assert.equal(q.status, 429);
  const qb = await q.json();
  assert.equal(qb.error.status, "RESOURCE_EXHAUSTED");
  assert.match(qb.error.details[0].violations[0].quotaId, /PerDay/);
  const a = await (await post(url, {})).json();
  assert.equal(a.error.code, 400);
  assert.equal(a.error.details[0].reason, "API_KEY_INVALID");
  const s = await (await post(url, {})).json();
  assert.equal(s.error.status, "INTERNAL");
  const o = await (await post(url, {})).json();
  assert.equal(o.error.status, "UNAVAILABLE");
});

Deno.test("a client hanging up mid-stream ends held and hanging streams cleanly", async () => {
  await using api = startChatStandin({
    steps: [{ kind: "hang" }, { kind: "text", text: "x", hold: true }],
  });
  for (let i = 0; i < 2; i++) {
    const ac = new AbortController();
    const res = await fetch(`${api.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ stream: true, tools: [{ type: "function" }] }),
      signal: ac.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    ac.abort();
    await reader.read().catch(() => {});
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(api.mainRequests().length, 2);
});

Deno.test("every table's script is one its stand-in speaks; a step of another API's is refused", async () => {
  for (const table of Object.values(TABLES)) {
    const s = await startStandin(table.api);
    try {
      for (const scenario of table.sessions.flatMap((x) => x.scenarios)) {
        s.push(scenario.script ?? []);
      }
    } finally {
      await s.close();
    }
  }
  const claude = await startStandin("anthropic");
  try {
    assert.throws(() => claude.push([{ kind: "tool", name: "Bash", args: {} }]), /does not speak/);
    assert.throws(
      () => claude.push([{ kind: "error", status: 429, error: "quota" }]),
      /does not speak/,
    );
  } finally {
    await claude.close();
  }
  const chat = await startStandin("chat");
  try {
    assert.throws(
      () => chat.push([{ kind: "tool_use", name: "Bash", input: {} }]),
      /does not speak/,
    );
    assert.throws(() => chat.push([{ kind: "error", status: 429 }]), /does not speak/);
  } finally {
    await chat.close();
  }
});
