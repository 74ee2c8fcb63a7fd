/**
 * A snapshot of the process table (pid → parent, argv), read once per command so identifying
 * many panes costs one scan. Linux reads /proc; elsewhere `ps` answers the same question.
 */
export interface Proc {
  pid: number;
  ppid: number;
  /** argv; for a kernel thread or an unreadable process, [comm]. */
  argv: string[];
}

export type ProcTable = Map<number, Proc>;

async function readStat(pid: number): Promise<Proc | null> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    // comm may hold spaces and parentheses: the fields after it start after the LAST ")".
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const rest = stat.slice(close + 2).split(" ");
    return { pid, ppid: Number(rest[1]), argv: [comm] };
  } catch {
    return null; // the process exited while we looked
  }
}

async function readArgv(p: Proc): Promise<void> {
  try {
    const raw = await Deno.readTextFile(`/proc/${p.pid}/cmdline`);
    const argv = raw.split("\0").filter((a, i, all) => !(a === "" && i === all.length - 1));
    if (argv.length > 0) p.argv = argv;
  } catch {
    // unreadable cmdline: keep comm
  }
}

/**
 * All processes with their parents (every /proc/<pid>/stat, read concurrently), and the argv of
 * those that can matter: the subtrees of `roots` when given (a pane's processes), else all.
 */
async function fromProc(roots?: readonly number[]): Promise<ProcTable | undefined> {
  const table: ProcTable = new Map();
  try {
    const pids: number[] = [];
    for await (const e of Deno.readDir("/proc")) {
      if (/^[0-9]+$/.test(e.name)) pids.push(Number(e.name));
    }
    for (const p of await Promise.all(pids.map(readStat))) if (p) table.set(p.pid, p);
  } catch {
    return undefined;
  }
  if (table.size === 0) return undefined;
  const wanted = roots === undefined
    ? [...table.values()]
    : [...new Set(roots.flatMap((r) => subtree(table, r)))];
  await Promise.all(wanted.map(readArgv));
  return table;
}

async function fromPs(): Promise<ProcTable> {
  const table: ProcTable = new Map();
  try {
    const out = await new Deno.Command("ps", {
      args: ["-A", "-o", "pid=", "-o", "ppid=", "-o", "args="],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
      const m = /^\s*([0-9]+)\s+([0-9]+)\s+(.*)$/.exec(line);
      if (!m) continue;
      table.set(Number(m[1]), {
        pid: Number(m[1]),
        ppid: Number(m[2]),
        argv: m[3].split(/\s+/).filter((a) => a !== ""),
      });
    }
  } catch {
    // no ps either: identification falls through to the next source
  }
  return table;
}

/**
 * The process table. With `roots` (pane pids) only their subtrees' argv are read — the rest keep
 * their command name — which is all pane identification needs and half the reads.
 */
export async function readProcTable(roots?: readonly number[]): Promise<ProcTable> {
  return (await fromProc(roots)) ?? (await fromPs());
}

/** The pane's process and its descendants, breadth first (the pane pid first), bounded. */
export function subtree(table: ProcTable, root: number, limit = 64): Proc[] {
  const children = new Map<number, Proc[]>();
  for (const p of table.values()) {
    const list = children.get(p.ppid) ?? [];
    list.push(p);
    children.set(p.ppid, list);
  }
  const out: Proc[] = [];
  const first = table.get(root);
  if (!first) return out;
  const queue: Proc[] = [first];
  const seen = new Set<number>();
  while (queue.length > 0 && out.length < limit) {
    const p = queue.shift()!;
    if (seen.has(p.pid)) continue;
    seen.add(p.pid);
    out.push(p);
    for (const c of (children.get(p.pid) ?? []).sort((a, b) => a.pid - b.pid)) queue.push(c);
  }
  return out;
}
