// The Anthropic stand-in's exact bytes for a representative scripted session (every route, every
// step kind, the error and usage-limit replies), held equal to a recorded transcript: the lab's
// fixtures were recorded against these bytes, so a change to the stand-in must not move one.
// Only the id tag (the process id and the stand-in's serial) and the Date header are masked.
import assert from "node:assert/strict";
import { startAnthropicStandin } from "../../lib/scenarios/standins/anthropic.ts";
import { usageLimitHeaders, userTurn } from "../lab/harness/anthropic_turns.ts";

const GOLDEN = new URL("./lab_standin_wire.golden", import.meta.url);
function mask(text: string): string {
  return text.replace(/_lab[0-9a-z]+_([0-9a-z]{4,})/g, "_lab<tag>_$1");
}

/**
 * The status and headers; a whole body's content-length is held to its real bytes and recorded
 * for the masked body, since the id tag's width follows the process id.
 */
function head(label: string, res: Response, raw?: string): string {
  const bytes = (t: string) => new TextEncoder().encode(t).length;
  const headers = [...res.headers].filter(([k]) => k !== "date").map(([k, v]) => {
    if (k !== "content-length" || raw === undefined) return `${k}: ${v}`;
    assert.equal(Number(v), bytes(raw), `${label}: content-length`);
    return `${k}: ${bytes(mask(raw))}`;
  });
  return `### ${label}\n${res.status}\n${mask(headers.join("\n"))}\n`;
}

/** A stream that stays open: what came until `until` showed, then hang up. */
async function bodyOf(res: Response, until: string): Promise<string> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let got = "";
  while (!got.includes(until)) got += dec.decode((await reader.read()).value, { stream: true });
  await reader.cancel();
  return mask(got);
}

export async function transcript(): Promise<string> {
  const out: string[] = [];
  const ask = async (
    base: string,
    label: string,
    path: string,
    init: { method?: string; body?: unknown; raw?: string },
    until?: string,
  ) => {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
    if (until) return void out.push(head(label, res) + (await bodyOf(res, until)) + "\n");
    const raw = await res.text();
    out.push(head(label, res, raw) + mask(raw) + "\n");
  };
  {
    await using api = await startAnthropicStandin([
      {
        kind: "text",
        text: "Hello from the lab, in several chunks.",
        chunkSize: 5,
        inputTokens: 4242,
      },
      {
        kind: "text",
        text: "Ünïcödé ✓ and 🙂 emoji, past twenty-four characters.",
        outputTokens: 77,
      },
      { kind: "text", text: "" },
      { kind: "tool_use", name: "Bash", input: { command: "ls -la", description: "List files" } },
      {
        kind: "tool_use",
        name: "Write",
        input: {
          file_path: "/tmp/x/notes.txt",
          content: "a longer body that spans chunks ".repeat(3),
        },
        text: "I'll write the notes file now, then report.",
        inputTokens: 5000,
      },
      {
        kind: "tool_use",
        name: "Bash",
        input: { command: "npm test", description: "Run the tests" },
        text: "Running the tests slowly.",
        chunkDelayMs: 2,
      },
      { kind: "text", text: "Slow text.", chunkDelayMs: 2, chunkSize: 3 },
      { kind: "error", status: 529, times: 2 },
      {
        kind: "error",
        status: 429,
        errorType: "rate_limit_error",
        message: "limit reached",
        headers: { ...usageLimitHeaders("five_hour", 1_900_000_000), "retry-after": "7" },
      },
      { kind: "error", status: 401 },
      { kind: "error", status: 400 },
      { kind: "error", status: 418 },
      { kind: "text", text: "A plain JSON reply.", inputTokens: 321 },
      { kind: "tool_use", name: "Bash", input: { command: "true" } },
      {
        kind: "computed",
        from: (body) => ({
          kind: "text",
          text: `computed from ${JSON.stringify((body as { messages?: unknown })?.messages)}`,
        }),
      },
      { kind: "hang", text: "thinking" },
      { kind: "hang" },
    ]);
    const u = api.url;
    await ask(u, "HEAD /", "/", { method: "HEAD" });
    await ask(u, "GET /", "/", { method: "GET" });
    await ask(u, "count_tokens", "/v1/messages/count_tokens", { body: { messages: [] } });
    await ask(u, "GET /v1/models (no route)", "/v1/models", { method: "GET" });
    await ask(u, "POST elsewhere (no route)", "/v1/complete", { body: {} });
    await ask(u, "side, plain", "/v1/messages", {
      body: {
        model: "claude-haiku-4-5",
        max_tokens: 50,
        messages: [{ role: "user", content: "t" }],
      },
    });
    await ask(u, "side, streamed", "/v1/messages?beta=true", {
      body: { model: "claude-haiku-4-5", stream: true, messages: [{ role: "user", content: "t" }] },
    });
    await ask(u, "side, not JSON", "/v1/messages", { raw: "not json" });
    await ask(u, "text, chunkSize 5", "/v1/messages?beta=true", { body: userTurn("a") });
    await ask(u, "text, default chunks", "/v1/messages?beta=true", { body: userTurn("b") });
    await ask(u, "text, empty", "/v1/messages?beta=true", { body: userTurn("c") });
    await ask(u, "tool_use, no text", "/v1/messages?beta=true", { body: userTurn("d") });
    await ask(u, "tool_use, text", "/v1/messages?beta=true", { body: userTurn("e") });
    await ask(u, "tool_use, slow text", "/v1/messages?beta=true", { body: userTurn("f") });
    await ask(u, "text, slow", "/v1/messages?beta=true", { body: userTurn("g") });
    await ask(u, "error 529 (1 of 2)", "/v1/messages?beta=true", { body: userTurn("h") });
    await ask(u, "error 529 (2 of 2)", "/v1/messages?beta=true", { body: userTurn("h") });
    await ask(u, "error 429 usage limit", "/v1/messages?beta=true", { body: userTurn("i") });
    await ask(u, "error 401", "/v1/messages?beta=true", { body: userTurn("j") });
    await ask(u, "error 400", "/v1/messages?beta=true", { body: userTurn("k") });
    await ask(u, "error 418", "/v1/messages?beta=true", { body: userTurn("l") });
    await ask(u, "text, not streamed", "/v1/messages", { body: userTurn("m", { stream: false }) });
    await ask(u, "tool_use, not streamed", "/v1/messages", {
      body: userTurn("n", { stream: false }),
    });
    await ask(u, "computed", "/v1/messages?beta=true", { body: userTurn("o") });
    await ask(u, "hang, text", "/v1/messages?beta=true", { body: userTurn("p") }, "thinking");
    await ask(u, "hang", "/v1/messages?beta=true", { body: userTurn("q") }, `"type":"ping"}\n\n`);
    await ask(u, "exhausted, streamed", "/v1/messages?beta=true", { body: userTurn("r") });
    await ask(u, "exhausted, plain", "/v1/messages", { body: userTurn("s", { stream: false }) });
  }
  {
    await using api = await startAnthropicStandin([{ kind: "text", text: "main" }], {
      model: "claude-opus-4-1",
      sideText: "Custom side",
    });
    await ask(api.url, "opts: side, streamed", "/v1/messages", {
      body: { model: "x", stream: true, messages: [] },
    });
    await ask(api.url, "opts: main", "/v1/messages", { body: userTurn("t") });
  }
  {
    await using api = await startAnthropicStandin([], {
      sideErrors: { status: 401, message: "no key" },
    });
    await ask(api.url, "opts: side error", "/v1/messages", { body: { messages: [] } });
    await ask(api.url, "opts: main exhausted", "/v1/messages", { body: userTurn("u") });
  }
  return out.join("");
}

Deno.test("the Anthropic stand-in's bytes equal the recorded transcript", async () => {
  const got = await transcript();
  assert.equal(got, await Deno.readTextFile(GOLDEN));
});
