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

async function fromProc(): Promise<ProcTable | undefined> {
  const table: ProcTable = new Map();
  try {
    for await (const e of Deno.readDir("/proc")) {
      if (!/^[0-9]+$/.test(e.name)) continue;
      const pid = Number(e.name);
      try {
        const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
        // comm may hold spaces and parentheses: the fields after it start after the LAST ")".
        const close = stat.lastIndexOf(")");
        const comm = stat.slice(stat.indexOf("(") + 1, close);
        const rest = stat.slice(close + 2).split(" ");
        const ppid = Number(rest[1]);
        let argv: string[] = [];
        try {
          const raw = await Deno.readTextFile(`/proc/${pid}/cmdline`);
          argv = raw.split("\0").filter((a, i, all) => !(a === "" && i === all.length - 1));
        } catch {
          // unreadable cmdline: fall back to comm
        }
        if (argv.length === 0) argv = [comm];
        table.set(pid, { pid, ppid, argv });
      } catch {
        // the process exited while we looked
      }
    }
  } catch {
    return undefined;
  }
  return table.size > 0 ? table : undefined;
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

export async function readProcTable(): Promise<ProcTable> {
  return (await fromProc()) ?? (await fromPs());
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
