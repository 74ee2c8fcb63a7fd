/**
 * A recording agent for byte-exact input tests (hand-made, not a recording of a real CLI). It
 * draws the same screen as the fake agent of tests/e2e/launch_helpers.ts — a ready line and an
 * input box between two rules — but reads its terminal raw, so it sees every byte exactly as
 * tmux wrote it, however long the line (a canonical-mode tty would cut a line at 4095 bytes).
 *
 * Usage: deno run --allow-read=DIR --allow-write=DIR input_recorder.ts DIR [--bracketed]
 *   DIR/keys   every byte received, appended as it arrives
 *   DIR/lines  every submitted line (Enter outside a bracketed paste), each followed by a NUL
 * With --bracketed it asks for bracketed paste (ESC[?2004h); inside a paste a CR is a newline.
 */
const dir = Deno.args[0]!;
const bracketed = Deno.args.includes("--bracketed");
const enc = new TextEncoder();
const RULE = "─".repeat(40);

function out(s: string): void {
  const b = enc.encode(s);
  let off = 0;
  while (off < b.length) off += Deno.stdout.writeSync(b.subarray(off));
}

let line: number[] = [];
let reply = "";
let inPaste = false;
let esc: number[] | null = null;

function shown(): string {
  const text = new TextDecoder().decode(new Uint8Array(line)).replace(/[\r\n]/g, "⏎");
  const chars = [...text];
  return chars.length > 50 ? "…" + chars.slice(-49).join("") : text;
}

function draw(): void {
  const s = shown();
  out(
    `\x1b[H\x1b[2J\x1b[0mfake-agent ready\r\n${reply}\r\n${RULE}\r\n> ${s}\r\n${RULE}` +
      `\x1b[1A\r\x1b[${2 + [...s].length}C`,
  );
}

function submit(): void {
  const bytes = new Uint8Array([...line, 0]);
  Deno.writeFileSync(`${dir}/lines`, bytes, { append: true, create: true });
  reply = `reply: ${line.length} bytes`;
  line = [];
}

function feed(b: number): void {
  if (esc !== null) {
    esc.push(b);
    // CSI: ESC [ params… final byte in @..~
    const done = esc.length === 2 ? b !== 0x5b : b >= 0x40 && b <= 0x7e;
    if (done) {
      const seq = String.fromCharCode(...esc.slice(1));
      if (seq === "[200~") inPaste = true;
      if (seq === "[201~") inPaste = false;
      esc = null;
    }
    return;
  }
  if (b === 0x1b) {
    esc = [b];
    return;
  }
  if (b === 0x0d && !inPaste) return submit();
  if (b === 0x15) {
    line = []; // C-u clears the line, as the real CLIs do
    return;
  }
  line.push(b === 0x0d ? 0x0a : b);
}

Deno.stdin.setRaw(true);
if (bracketed) out("\x1b[?2004h");
draw();
const buf = new Uint8Array(64 * 1024);
while (true) {
  const n = await Deno.stdin.read(buf);
  if (n === null) break;
  const chunk = buf.subarray(0, n);
  Deno.writeFileSync(`${dir}/keys`, chunk, { append: true, create: true });
  for (const b of chunk) feed(b);
  draw();
}
