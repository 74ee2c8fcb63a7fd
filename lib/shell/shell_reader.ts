/**
 * The state of one reading of a command line (shell_words.ts): the segments read so far, the word
 * and the redirection being built, the nested bodies and the features noticed. The readers of
 * quotes, expansions and operators change it only through these methods, so that a word ends, a
 * segment closes and an error is kept in one place each.
 */

/** One simple command: what runs between two control operators. */
export interface Segment {
  /** Words after quote removal, assignments included (e.g. ["CI=1", "npm", "test"]). */
  words: string[];
  /** Parallel to words: the word contained an expansion or substitution ($X, $(…), `…`, globs). */
  dynamic: boolean[];
  /** Parallel to words: the word held an unquoted glob character. */
  glob: boolean[];
  redirects: Redirect[];
  /** The operator that joined this segment to the previous one ("" for the first). */
  joinedBy: string;
}

export interface Redirect {
  /** The operator as written, fd included: ">", "2>", ">>", "&>", "<", "2>&1", "<<", "<<<" … */
  op: string;
  /** The target word after quote removal ("" when the operator carries its target, like 2>&1). */
  target: string;
  dynamic: boolean;
}

export interface ParsedShell {
  segments: Segment[];
  /** Bodies of $(…), `…`, <(…), >(…), and words that a shell would run again (parsed by callers). */
  nested: string[];
  /** Constructs that make the command's effect non-literal; any one rules out the allowlist. */
  features: Set<string>;
  /** Set when the text could not be read to the end (unterminated quote or substitution). */
  error?: string;
}

const emptySegment = (joinedBy: string): Segment => ({
  words: [],
  dynamic: [],
  glob: [],
  redirects: [],
  joinedBy,
});

export class ShellReader {
  readonly segments: Segment[] = [];
  readonly nested: string[] = [];
  readonly features = new Set<string>();
  #error: string | undefined;
  #seg: Segment = emptySegment("");
  #word = "";
  #inWord = false;
  #dyn = false;
  #glob = false;
  /** A redirection operator read, waiting for its target word. */
  #pendingRedirect: string | undefined;

  constructor(readonly src: string) {}

  get error(): string | undefined {
    return this.#error;
  }
  /** The word being built, quotes removed. */
  get word(): string {
    return this.#word;
  }
  /** A word has begun (even an empty one, like ""). */
  get inWord(): boolean {
    return this.#inWord;
  }

  /** Keep the first problem; returns the end of the text, where reading then stops. */
  fail(message: string): number {
    this.#error ??= message;
    return this.src.length;
  }

  startWord(): void {
    this.#inWord = true;
  }
  append(text: string): void {
    this.#inWord = true;
    this.#word += text;
  }
  /** Text whose value is not the literal text ($X, ${…}, $'…'): the word becomes dynamic. */
  appendExpanded(text: string): void {
    this.#dyn = true;
    this.append(text);
  }
  /** A substitution ($(…), `…`, <(…)): its body is a command callers read too. */
  appendSubstitution(feature: string, body: string, text: string): void {
    this.features.add(feature);
    this.nested.push(body);
    this.appendExpanded(text);
  }
  markDynamic(): void {
    this.#dyn = true;
  }
  markGlob(): void {
    this.#glob = true;
  }

  /** The word so far when it is a plain fd number written before a redirection (`2>`), else "". */
  takeFd(): string {
    if (this.#inWord && /^[0-9]+$/.test(this.#word) && !this.#dyn) {
      const fd = this.#word;
      this.#word = "";
      this.#inWord = false;
      return fd;
    }
    this.endWord();
    return "";
  }
  /** A redirection whose target is the next word. */
  awaitTarget(op: string): void {
    this.#pendingRedirect = op;
  }
  /** A redirection that carries its target (2>&1). */
  addRedirect(op: string): void {
    this.#seg.redirects.push({ op, target: "", dynamic: false });
  }

  endWord(): void {
    if (!this.#inWord) return;
    if (this.#pendingRedirect !== undefined) {
      this.#seg.redirects.push({
        op: this.#pendingRedirect,
        target: this.#word,
        dynamic: this.#dyn,
      });
      this.#pendingRedirect = undefined;
    } else {
      this.#seg.words.push(this.#word);
      this.#seg.dynamic.push(this.#dyn);
      this.#seg.glob.push(this.#glob);
    }
    this.#word = "";
    this.#inWord = false;
    this.#dyn = false;
    this.#glob = false;
  }

  /** Close the segment at a control operator `op` ("" at the end of the text). */
  endSegment(op: string): void {
    this.endWord();
    if (this.#pendingRedirect !== undefined) {
      this.features.add("redirect-without-target");
      this.#pendingRedirect = undefined;
    }
    const seg = this.#seg;
    if (seg.words.length > 0 || seg.redirects.length > 0) this.segments.push(seg);
    else if (op !== "" && op !== ";" && op !== "\n") this.features.add("empty-command");
    this.#seg = emptySegment(op);
  }

  result(): ParsedShell {
    const { segments, nested, features } = this;
    const error = this.#error;
    return error === undefined
      ? { segments, nested, features }
      : { segments, nested, features, error };
  }
}
