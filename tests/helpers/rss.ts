/** Memory of a child process under test (Linux /proc). */
/** Peak resident memory of a running process, sampled from /proc until it exits. */
export function watchRss(pid: number): { stop(): number } {
  let peak = 0;
  const sample = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {
      // gone
    }
  };
  const t = setInterval(sample, 20);
  sample();
  return {
    stop() {
      clearInterval(t);
      return peak;
    },
  };
}
