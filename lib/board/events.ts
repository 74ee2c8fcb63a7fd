/**
 * The last drive event per pane, from a `drover.event.v1` JSON-lines file (`drive --events FILE`),
 * read incrementally: the first poll reads only the file's tail, later polls only what was
 * appended since, so a refresh costs one stat and one small read however long the file grows.
 * Memory is bounded too: a line still without its newline is kept only up to MAX_EVENT_LINE;
 * past that it is dropped up to its newline, and counted (the board says so).
 */

/** The longest event line kept (a real one is well under 2 KiB; messages are clipped). */
export const MAX_EVENT_LINE = 64 * 1024;

export interface BoardEvent {
  ts: string;
  event: string;
  message: string;
  pane?: string;
  target?: string;
}

export interface EventsView {
  /** Last event per pane id. */
  byPane: ReadonlyMap<string, BoardEvent>;
  /** The newest event of any kind (a drive that still ticks writes them). */
  latest: BoardEvent | null;
  /** Why there is nothing to show (no file yet, unreadable), else null. */
  note: string | null;
  /** Lines longer than MAX_EVENT_LINE dropped so far (each counted once). */
  skipped: number;
}

/** One JSON line as a board event, or null when it is not a drover.event.v1 object. */
export function parseEventLine(line: string): BoardEvent | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null) return null;
  const o = v as Record<string, unknown>;
  if (o.schema !== "drover.event.v1" || typeof o.event !== "string" || typeof o.ts !== "string") {
    return null;
  }
  const e: BoardEvent = {
    ts: o.ts,
    event: o.event,
    message: typeof o.message === "string" ? o.message : "",
  };
  if (typeof o.pane === "string") e.pane = o.pane;
  if (typeof o.target === "string") e.target = o.target;
  return e;
}

const NEWLINE = 0x0a;

export interface TailOptions {
  /** Bytes of history read on the first poll (and after the file was truncated). */
  backlog?: number;
  /** More than this appended since the last poll: skip to the newest `backlog` bytes. */
  maxRead?: number;
}

export class EventsTail {
  #offset = -1;
  #partial = new Uint8Array(0);
  #byPane = new Map<string, BoardEvent>();
  #latest: BoardEvent | null = null;
  /** Inside a line longer than MAX_EVENT_LINE: everything up to its newline is dropped. */
  #dropping = false;
  #skipped = 0;
  readonly #backlog: number;
  readonly #maxRead: number;
  readonly #decoder = new TextDecoder();

  constructor(readonly path: string, opts: TailOptions = {}) {
    this.#backlog = opts.backlog ?? 64 * 1024;
    this.#maxRead = opts.maxRead ?? 1024 * 1024;
  }

  async poll(): Promise<EventsView> {
    let size: number;
    try {
      size = (await Deno.stat(this.path)).size;
    } catch (e) {
      const note = e instanceof Deno.errors.NotFound
        ? "no events file yet"
        : `cannot read the events file: ${e instanceof Error ? e.message : String(e)}`;
      return this.#view(note);
    }
    // First poll, a truncated or replaced file, or too much to catch up on: start from the tail.
    let skipFirstLine = false;
    if (this.#offset < 0 || size < this.#offset || size - this.#offset > this.#maxRead) {
      this.#offset = Math.max(0, size - this.#backlog);
      this.#partial = new Uint8Array(0);
      skipFirstLine = this.#offset > 0;
    }
    if (size === this.#offset) return this.#view(null);
    let chunk: Uint8Array;
    try {
      chunk = await this.#read(this.#offset, size - this.#offset);
    } catch (e) {
      return this.#view(`cannot read the events file: ${e instanceof Error ? e.message : e}`);
    }
    this.#offset += chunk.length;
    let bytes = this.#partial.length ? concat(this.#partial, chunk) : chunk;
    if (skipFirstLine || this.#dropping) {
      // The tail starts mid-line, or a line too long to keep goes on: drop up to its newline.
      const nl = bytes.indexOf(NEWLINE);
      if (nl < 0) {
        this.#partial = new Uint8Array(0);
        return this.#view(null);
      }
      bytes = bytes.subarray(nl + 1);
      this.#dropping = false;
    }
    const lastNl = bytes.lastIndexOf(NEWLINE);
    const rest = bytes.subarray(lastNl + 1);
    if (rest.length > MAX_EVENT_LINE) {
      this.#partial = new Uint8Array(0);
      this.#dropping = true;
      this.#skipped++;
    } else {
      this.#partial = rest.slice();
    }
    if (lastNl >= 0) {
      let start = 0;
      while (start < lastNl) {
        const nl = bytes.indexOf(NEWLINE, start);
        const end = nl < 0 || nl > lastNl ? lastNl : nl;
        if (end - start > MAX_EVENT_LINE) this.#skipped++;
        else this.#take(this.#decoder.decode(bytes.subarray(start, end)));
        start = end + 1;
      }
    }
    return this.#view(null);
  }

  /** Bytes held for a line still without its newline (never more than MAX_EVENT_LINE). */
  get bufferedBytes(): number {
    return this.#partial.length;
  }

  #take(line: string): void {
    const e = line.trim() === "" ? null : parseEventLine(line);
    if (!e) return;
    this.#latest = e;
    if (e.pane) this.#byPane.set(e.pane, e);
  }

  async #read(at: number, length: number): Promise<Uint8Array> {
    using f = await Deno.open(this.path, { read: true });
    await f.seek(at, Deno.SeekMode.Start);
    const buf = new Uint8Array(length);
    let got = 0;
    while (got < length) {
      const n = await f.read(buf.subarray(got));
      if (n === null) break;
      got += n;
    }
    return buf.subarray(0, got);
  }

  #view(note: string | null): EventsView {
    return { byPane: this.#byPane, latest: this.#latest, note, skipped: this.#skipped };
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
