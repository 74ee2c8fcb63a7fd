/**
 * A hand-made stand-in for Claude Code, for `drover verify`'s e2e tests: a small full-screen
 * program that draws a Claude-like screen (input box between rules, footer, Bash and Write
 * permission prompts, busy spinner line, API error lines) and talks to the Anthropic stand-in at
 * $ANTHROPIC_BASE_URL the way the real CLI does (streamed /v1/messages with tools, tool_result
 * turns). Its wording is copied from recorded 2.1.197 screens (tests/fixtures/claude-code/2.1.197),
 * so with the shipped profile every verify scenario holds.
 *
 *   deno run -A tests/fakes/fake_claude.ts [--variant NAME] [--version]
 *
 * Variants print changed wording, as a new CLI release might:
 *   changed-busy   the busy footer says "esc to stop" instead of "esc to interrupt", and the
 *                  activity line drops its ellipsis ("✻ Pondering"): busy is read from the
 *                  line's shape too (issue 21), so only a release that rewords both drifts
 */
const args = Deno.args;
const variant = args.find((a) => a.startsWith("--variant="))?.slice(10) ?? "";
if (args.includes("--version")) {
  console.log("2.1.197 (Claude Code)");
  Deno.exit(0);
}

const BUSY_HINT = variant === "changed-busy" ? "esc to stop" : "esc to interrupt";
const API = Deno.env.get("ANTHROPIC_BASE_URL") ?? "";
const enc = new TextEncoder();
const RULE = "─".repeat(120);

type Block = Record<string, unknown>;
const messages: { role: string; content: Block[] | string }[] = [];
const transcript: string[] = [];
let input = "";
let mode: "idle" | "busy" | "prompt" = "idle";
let status = ""; // the spinner / retry line above the input box
let prompt: { kind: "bash" | "write"; id: string; input: Record<string, string> } | null = null;
let inflight: AbortController | null = null;
/** Reply text streamed so far in the turn in flight (drawn as it arrives, as the real CLI does). */
let streaming = "";

function draw(): void {
  let rows = 40;
  try {
    rows = Deno.consoleSize().rows;
  } catch {
    // not a terminal: keep the default
  }
  const bottom: string[] = [];
  if (mode === "prompt" && prompt) {
    bottom.push(RULE);
    if (prompt.kind === "bash") {
      bottom.push(
        " Bash command",
        "",
        `   ${prompt.input.command}`,
        // Drawn grey, as the real CLI does: detectors tell the description from the command by it.
        `   \x1b[38;2;153;153;153m${prompt.input.description ?? ""}\x1b[39m`,
        "",
        " This command requires approval",
        "",
        " Do you want to proceed?",
        " ❯ 1. Yes",
        `   2. Yes, and don’t ask again for: ${prompt.input.command.split(" ")[0]} *`,
        "   3. No",
        "",
        " Esc to cancel · Tab to amend · ctrl+e to explain",
      );
    } else {
      const name = prompt.input.file_path.split("/").pop();
      bottom.push(
        " Create file",
        ` ${name}`,
        "╌".repeat(120),
        ...prompt.input.content.split("\n").filter((l) => l).map((l, i) => `  ${i + 1} ${l}`),
        "╌".repeat(120),
        ` Do you want to create ${name}?`,
        " ❯ 1. Yes",
        "   2. Yes, allow all edits during this session (shift+tab)",
        "   3. No",
        "",
        " Esc to cancel · Tab to amend",
      );
    }
  } else {
    if (status) bottom.push(status, "");
    bottom.push(RULE, `❯ ${input}`, RULE);
    bottom.push(
      mode === "busy" ? `  ${BUSY_HINT} · ← for agents` : "  ? for shortcuts · ← for agents",
    );
  }
  const head = [" ▐▛███▜▌   Claude Code v2.1.197 (test double)", ""];
  const room = Math.max(0, rows - head.length - bottom.length - 1);
  // Cut to the pane (120 columns here): a wrapped line would push the footer off the screen.
  const live = streaming ? replyLines(streaming).map((l) => l.slice(0, 110)) : [];
  const body = [...transcript, ...live].slice(-room);
  const lines = [...head, ...body, ...Array(Math.max(0, room - body.length)).fill(""), ...bottom];
  Deno.stdout.writeSync(enc.encode("\x1b[H\x1b[2J" + lines.slice(0, rows).join("\r\n")));
}

const TOOLS = [
  { name: "Bash", description: "Run a shell command", input_schema: { type: "object" } },
  { name: "Write", description: "Write a file", input_schema: { type: "object" } },
];

/** A reply as the transcript shows it: a bullet, then indented lines. */
function replyLines(text: string): string[] {
  return text.split("\n").map((l, n) => (n === 0 ? `● ${l}` : `  ${l}`));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One main turn: stream the reply; tool calls raise a prompt, text goes to the transcript. */
async function turn(): Promise<void> {
  mode = "busy";
  status = variant === "changed-busy" ? "✻ Pondering" : "✻ Pondering…";
  draw();
  for (let attempt = 1; attempt <= 10; attempt++) {
    inflight = new AbortController();
    let res: Response;
    try {
      res = await fetch(`${API}/v1/messages?beta=true`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "fake" },
        body: JSON.stringify({ model: "claude-test", stream: true, tools: TOOLS, messages }),
        signal: inflight.signal,
      });
    } catch {
      return; // interrupted
    }
    if (res.status === 429 || res.status >= 500) {
      await res.body?.cancel();
      status = `✻ API error · Retrying in 1s · attempt ${attempt}/10`;
      draw();
      await sleep(1000);
      if (mode !== "busy") return;
      continue;
    }
    if (res.status !== 200) {
      const body = await res.json().catch(() => ({}));
      const msg = String(body?.error?.message ?? "");
      transcript.push(
        res.status === 401
          ? "  ⎿  Invalid API key · Fix external API key"
          : /credit balance/i.test(msg)
          ? "  ⎿  Credit balance too low · Add funds: https://console.example/settings/billing"
          : `  ⎿  API Error: ${res.status} ${msg}`,
        "",
      );
      mode = "idle";
      status = "";
      draw();
      return;
    }
    await readStream(res);
    return;
  }
  transcript.push("  ⎿  API Error: retries exhausted", "");
  mode = "idle";
  status = "";
  draw();
}

async function readStream(res: Response): Promise<void> {
  const blocks: Block[] = [];
  let text = "";
  let tool: { id: string; name: string; json: string } | null = null;
  let buf = "";
  const dec = new TextDecoder();
  try {
    for await (const chunk of res.body!) {
      buf += dec.decode(chunk, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const data = frame.split("\n").find((l) => l.startsWith("data: "))?.slice(6);
        if (!data) continue;
        const ev = JSON.parse(data);
        if (ev.type === "content_block_start" && ev.content_block.type === "tool_use") {
          tool = { id: ev.content_block.id, name: ev.content_block.name, json: "" };
        }
        if (ev.type === "content_block_delta" && ev.delta.type === "text_delta") {
          text += ev.delta.text;
          streaming = text;
          draw();
        }
        if (ev.type === "content_block_delta" && ev.delta.type === "input_json_delta") {
          tool!.json += ev.delta.partial_json;
        }
      }
    }
  } catch {
    // Interrupted mid-stream: what arrived stays on the screen.
    if (streaming) transcript.push(...replyLines(streaming));
    streaming = "";
    return;
  }
  streaming = "";
  if (text) {
    blocks.push({ type: "text", text });
    transcript.push(...replyLines(text), "");
  }
  if (tool) {
    const input = JSON.parse(tool.json || "{}");
    blocks.push({ type: "tool_use", id: tool.id, name: tool.name, input });
    messages.push({ role: "assistant", content: blocks });
    const label = tool.name === "Bash" ? input.command : String(input.file_path).split("/").pop();
    transcript.push(`● ${tool.name}(${label})`);
    prompt = { kind: tool.name === "Bash" ? "bash" : "write", id: tool.id, input };
    mode = "prompt";
    status = "";
    draw();
    return;
  }
  messages.push({ role: "assistant", content: blocks });
  transcript.push("✻ Worked for 0s", "");
  mode = "idle";
  status = "";
  draw();
}

async function answer(yes: boolean): Promise<void> {
  const p = prompt!;
  prompt = null;
  if (!yes) {
    transcript.push(
      p.kind === "bash" ? "  ⎿  User rejected" : `  ⎿  User rejected write to ${p.input.file_path}`,
      "  ⎿  Interrupted · What should Claude do instead?",
      "",
    );
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: p.id, is_error: true, content: "rejected" }],
    });
    mode = "idle";
    draw();
    return;
  }
  let out = "";
  if (p.kind === "bash") {
    const r = await new Deno.Command("sh", {
      args: ["-c", p.input.command],
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    out = new TextDecoder().decode(r.stdout).trim() || "(No content)";
    transcript.push(`  ⎿  ${out}`, "");
  } else {
    await Deno.writeTextFile(p.input.file_path, p.input.content);
    out = `Wrote ${p.input.content.split("\n").length - 1} lines`;
    transcript.push(`  ⎿  ${out}`, "");
  }
  messages.push({
    role: "user",
    content: [{ type: "tool_result", tool_use_id: p.id, content: out }],
  });
  await turn();
}

function onKey(k: string): void {
  if (mode === "prompt") {
    // Not awaited: the turn that follows must not stop keys (Escape) from being read.
    if (k === "1") void answer(true);
    else if (k === "3" || k === "\x1b") void answer(false);
    return;
  }
  if (k === "\x1b") {
    if (mode === "busy") {
      mode = "idle";
      status = "";
      inflight?.abort();
      if (streaming) transcript.push(...replyLines(streaming));
      streaming = "";
      transcript.push("  ⎿  Interrupted · What should Claude do instead?", "");
      draw();
    }
    return;
  }
  if (mode === "busy") return;
  if (k === "\r") {
    if (!input.trim()) return;
    transcript.push(`❯ ${input}`, "");
    messages.push({ role: "user", content: [{ type: "text", text: input }] });
    input = "";
    void turn();
    return;
  }
  if (k === "\x7f") input = input.slice(0, -1);
  else if (k === "\x15") input = "";
  else if (k >= " ") input += k;
  draw();
}

Deno.stdin.setRaw(true);
draw();
const buf = new Uint8Array(1024);
const dec = new TextDecoder();
while (true) {
  const n = await Deno.stdin.read(buf);
  if (n === null) break;
  const s = dec.decode(buf.subarray(0, n));
  if (s.startsWith("\x1b[")) continue; // arrow keys and the like: not used here
  if (s === "\x1b") onKey("\x1b");
  else for (const ch of s) onKey(ch);
}
