/**
 * Process-tree cleanup for the panes of the lab and of `drover verify`. Some CLIs (Gemini CLI, Qwen Code) re-exec themselves under a
 * second node process that ignores the SIGHUP tmux sends on kill-session/kill-server, so killing
 * the tmux side alone leaks them: end every pane's whole process tree by pid as well.
 */
import { sleep } from "../base/sleep.ts";

/** `root` and all its descendants (from /proc), deepest first. */
export async function processTree(root: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for await (const e of Deno.readDir("/proc")) {
    if (!/^[0-9]+$/.test(e.name)) continue;
    try {
      const stat = await Deno.readTextFile(`/proc/${e.name}/stat`);
      // Field 4 (ppid) follows the parenthesised command name, which may contain spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(e.name));
      children.set(ppid, list);
    } catch { /* gone already */ }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) walk(c);
    out.push(p);
  };
  walk(root);
  return out;
}

/** SIGTERM each pid, then SIGKILL whatever is still there half a second later. */
export async function endProcesses(pids: readonly number[]): Promise<void> {
  const alive = (p: number) => {
    try {
      Deno.kill(p, "SIGCONT");
      return true;
    } catch {
      return false;
    }
  };
  for (const p of pids) if (alive(p)) Deno.kill(p, "SIGTERM");
  await sleep(500);
  for (const p of pids) {
    try {
      if (alive(p)) Deno.kill(p, "SIGKILL");
    } catch { /* exited meanwhile */ }
  }
}

/**
 * Processes whose arguments name `dir` or a path inside it: what a CLI left behind outside its
 * pane's tree (Cline's hub daemon detaches and runs on with `--cwd <project>`). `dir` is a
 * throwaway folder of the lab or of verify, so nothing else names it.
 */
export async function processesNaming(dir: string): Promise<number[]> {
  const root = dir.replace(/\/+$/, "");
  if (root === "" || !root.startsWith("/")) return [];
  const out: number[] = [];
  for await (const e of Deno.readDir("/proc")) {
    if (!/^[0-9]+$/.test(e.name) || Number(e.name) === Deno.pid) continue;
    try {
      const args = (await Deno.readTextFile(`/proc/${e.name}/cmdline`)).split("\0");
      if (args.some((a) => a === root || a.startsWith(`${root}/`))) out.push(Number(e.name));
    } catch { /* gone already */ }
  }
  return out;
}
