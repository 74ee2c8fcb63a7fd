// The lab's Anthropic stand-in speaks the Messages API shapes Claude Code expects (lab-notes), chosen
// by the script and never by prompt text (a `computed` step reads the turn only as its script
// says). Tested over real HTTP on 127.0.0.1.
import assert from "node:assert/strict";
import {
  errorBody,
  EXHAUSTED_TEXT,
  SIDE_TEXT,
  startAnthropicStandin,
} from "../../lib/scenarios/standins/anthropic.ts";
import { lastToolResults, lastUserTexts, userTurn } from "../lab/harness/anthropic_turns.ts";

async function post(url: string, body: unknown): Promise<Response> {
  return await fetch(`${url}/v1/messages?beta=true`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k" },
    body: JSON.stringify(body),
  });
}

interface Sse {
  event: string;
  data: Record<string, unknown>;
}

function parseSse(text: string): Sse[] {
  return text.split("\n\n").filter((f) => f.trim()).map((frame) => {
    const lines = frame.split("\n");
    const event = lines.find((l) => l.startsWith("event: "))!.slice(7);
    const data = JSON.parse(lines.find((l) => l.startsWith("data: "))!.slice(6));
    assert.equal(data.type, event, "every frame's data.type names its event");
    return { event, data };
  });
}

Deno.test("stand-in streams a text reply as Anthropic SSE", async () => {
  await using api = await startAnthropicStandin([
    {
      kind: "text",
      text: "Hello from the lab, in several chunks.",
      chunkSize: 5,
      inputTokens: 4242,
    },
  ]);
  const res = await post(api.url, userTurn("anything"));
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  const frames = parseSse(await res.text());
  const events = frames.map((f) => f.event).filter((e) => e !== "ping");
  assert.equal(events[0], "message_start");
  assert.equal(events[1], "content_block_start");
  assert.equal(events.at(-3), "content_block_stop");
  assert.equal(events.at(-2), "message_delta");
  assert.equal(events.at(-1), "message_stop");
  const start = frames[0].data.message as Record<string, unknown>;
  assert.equal(start.role, "assistant");
  assert.equal((start.usage as Record<string, number>).input_tokens, 4242);
  const text = frames.filter((f) => f.event === "content_block_delta")
    .map((f) => (f.data.delta as Record<string, string>))
    .map((d) => {
      assert.equal(d.type, "text_delta");
      return d.text;
    }).join("");
  assert.equal(text, "Hello from the lab, in several chunks.");
  const delta = frames.find((f) => f.event === "message_delta")!.data;
  assert.equal((delta.delta as Record<string, unknown>).stop_reason, "end_turn");
  assert.equal(api.mainRequests().length, 1);
  assert.deepEqual(lastUserTexts(api.mainRequests()[0].body), ["anything"]);
});

Deno.test("stand-in streams tool_use with input_json_delta and stop_reason tool_use", async () => {
  const input = { command: "npm run build", description: "Build the project" };
  await using api = await startAnthropicStandin([
    { kind: "tool_use", name: "Bash", input, text: "I'll build it." },
  ]);
  const frames = parseSse(await (await post(api.url, userTurn("build"))).text());
  const starts = frames.filter((f) => f.event === "content_block_start")
    .map((f) => f.data.content_block as Record<string, unknown>);
  assert.deepEqual(starts.map((b) => b.type), ["text", "tool_use"]);
  assert.equal(starts[1].name, "Bash");
  assert.match(String(starts[1].id), /^toolu_/);
  const json = frames.filter((f) => f.event === "content_block_delta")
    .map((f) => f.data.delta as Record<string, string>)
    .filter((d) => d.type === "input_json_delta").map((d) => d.partial_json).join("");
  assert.deepEqual(JSON.parse(json), input);
  const delta = frames.find((f) => f.event === "message_delta")!.data;
  assert.equal((delta.delta as Record<string, unknown>).stop_reason, "tool_use");
});

Deno.test("stand-in serves HTTP errors with Anthropic-shaped bodies, `times` in a row", async () => {
  await using api = await startAnthropicStandin([
    { kind: "error", status: 529, times: 2 },
    { kind: "error", status: 401 },
    { kind: "error", status: 400 },
    { kind: "error", status: 429, headers: { "retry-after": "1" } },
    { kind: "error", status: 500 },
    { kind: "text", text: "recovered" },
  ]);
  const expected: Array<[number, string]> = [
    [529, "overloaded_error"],
    [529, "overloaded_error"],
    [401, "authentication_error"],
    [400, "invalid_request_error"],
    [429, "rate_limit_error"],
    [500, "api_error"],
  ];
  for (const [status, type] of expected) {
    const res = await post(api.url, userTurn("x"));
    assert.equal(res.status, status);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    const body = await res.json();
    assert.equal(body.type, "error");
    assert.equal(body.error.type, type);
    assert.equal(typeof body.error.message, "string");
    if (status === 429) assert.equal(res.headers.get("retry-after"), "1");
    if (status === 400) assert.match(body.error.message, /credit balance is too low/);
  }
  const ok = await post(api.url, userTurn("x"));
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  assert.deepEqual(api.mainRequests().map((r) => r.status), [529, 529, 401, 400, 429, 500, 200]);
  assert.equal(api.pending, 0);
});

Deno.test("an error step with times: Infinity never runs out", async () => {
  await using api = await startAnthropicStandin([{ kind: "error", status: 429, times: Infinity }]);
  for (let i = 0; i < 5; i++) {
    const res = await post(api.url, userTurn("x"));
    assert.equal(res.status, 429);
    await res.body?.cancel();
  }
  assert.equal(api.pending, 1);
});

Deno.test("side requests (no tools) get a canned reply and never consume the script", async () => {
  await using api = await startAnthropicStandin([{ kind: "text", text: "the real turn" }]);
  const side = await post(api.url, {
    model: "claude-haiku-4-5",
    max_tokens: 50,
    messages: [{ role: "user", content: "Write a title for this session" }],
  });
  assert.equal(side.status, 200);
  const msg = await side.json();
  assert.equal(msg.type, "message");
  assert.equal(msg.content[0].text, SIDE_TEXT);
  const sideStream = await post(api.url, {
    model: "claude-haiku-4-5",
    max_tokens: 50,
    stream: true,
    messages: [{ role: "user", content: "topic?" }],
  });
  assert.ok(parseSse(await sideStream.text()).some((f) => f.event === "message_stop"));
  assert.equal(api.pending, 1, "side requests leave the script alone");
  const main = parseSse(await (await post(api.url, userTurn("go"))).text());
  const text = main.filter((f) => f.event === "content_block_delta")
    .map((f) => (f.data.delta as Record<string, string>).text).join("");
  assert.equal(text, "the real turn");
  assert.deepEqual(api.requests.map((r) => r.role), ["aux", "aux", "main"]);
});

Deno.test("a main turn after the script ran out gets the visible exhausted text", async () => {
  await using api = await startAnthropicStandin([]);
  const frames = parseSse(await (await post(api.url, userTurn("x"))).text());
  const text = frames.filter((f) => f.event === "content_block_delta")
    .map((f) => (f.data.delta as Record<string, string>).text).join("");
  assert.equal(text, EXHAUSTED_TEXT);
  assert.equal(api.mainRequests()[0].fallback, true);
});

Deno.test("the reply never depends on the prompt text", async () => {
  await using api = await startAnthropicStandin([
    { kind: "text", text: "first" },
    { kind: "text", text: "second" },
  ]);
  const texts: string[] = [];
  for (const prompt of ["Do you want to proceed?", "error 529 please"]) {
    const frames = parseSse(await (await post(api.url, userTurn(prompt))).text());
    texts.push(
      frames.filter((f) => f.event === "content_block_delta")
        .map((f) => (f.data.delta as Record<string, string>).text).join(""),
    );
  }
  assert.deepEqual(texts, ["first", "second"]);
});

Deno.test("a computed step is chosen from the turn it answers, then consumed like any step", async () => {
  await using api = await startAnthropicStandin([
    {
      kind: "computed",
      from: (body) => ({ kind: "text", text: `saw ${lastUserTexts(body).join("+")}` }),
    },
    { kind: "text", text: "next" },
  ]);
  const replies: string[] = [];
  for (const prompt of ["%7", "%8"]) {
    const frames = parseSse(await (await post(api.url, userTurn(prompt))).text());
    replies.push(
      frames.filter((f) => f.event === "content_block_delta")
        .map((f) => (f.data.delta as Record<string, string>).text).join(""),
    );
  }
  assert.deepEqual(replies, ["saw %7", "next"]);
  assert.deepEqual(api.mainRequests().map((r) => r.step), ["text", "text"]);
  assert.equal(api.pending, 0);
});

Deno.test("a hang step keeps the stream open until the client leaves", async () => {
  await using api = await startAnthropicStandin([{ kind: "hang", text: "thinking" }]);
  const res = await post(api.url, userTurn("x"));
  const reader = res.body!.getReader();
  let got = "";
  const dec = new TextDecoder();
  while (!got.includes("thinking")) got += dec.decode((await reader.read()).value);
  assert.ok(!got.includes("message_stop"));
  await reader.cancel();
});

Deno.test("records requests; HEAD / and count_tokens answer without touching the script", async () => {
  await using api = await startAnthropicStandin([{ kind: "text", text: "x" }]);
  const head = await fetch(`${api.url}/`, { method: "HEAD" });
  assert.equal(head.status, 200);
  const count = await fetch(`${api.url}/v1/messages/count_tokens`, {
    method: "POST",
    body: JSON.stringify({ messages: [] }),
  });
  assert.equal(typeof (await count.json()).input_tokens, "number");
  assert.deepEqual(api.requests.map((r) => [r.method, r.role]), [["HEAD", "aux"], [
    "POST",
    "aux",
  ]]);
  assert.equal(api.pending, 1);
  assert.equal(new URL(api.url).hostname, "127.0.0.1");
});

Deno.test("lastUserTexts and lastToolResults read every block after the last assistant turn", () => {
  const body = {
    messages: [
      { role: "user", content: "old" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ran ok" }] },
      {
        role: "user",
        content: [{ type: "text", text: "<system-reminder>x</system-reminder>" }, {
          type: "text",
          text: "next",
        }],
      },
    ],
  };
  assert.deepEqual(lastUserTexts(body), ["ran ok", "<system-reminder>x</system-reminder>", "next"]);
  assert.deepEqual(lastToolResults(body), [{ tool_use_id: "t1", is_error: false, text: "ran ok" }]);
  assert.deepEqual(errorBody(529).error, { type: "overloaded_error", message: "Overloaded" });
});
