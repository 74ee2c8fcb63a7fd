/**
 * How long each pane has been in its state, as far as the board has seen: a pane's clock restarts
 * when its state changes. Panes already present at the first refresh were in their state before
 * the board looked, so their time is a lower bound (`atLeast`).
 */
export interface Since {
  state: string;
  /** Epoch ms when the board first saw the pane in this state. */
  since: number;
  atLeast: boolean;
}

export function trackStates(
  prev: ReadonlyMap<string, Since> | undefined,
  panes: readonly { id: string; state: string }[],
  now: number,
): Map<string, Since> {
  const next = new Map<string, Since>();
  for (const p of panes) {
    const before = prev?.get(p.id);
    if (before && before.state === p.state) next.set(p.id, before);
    else next.set(p.id, { state: p.state, since: now, atLeast: prev === undefined });
  }
  return next;
}

/** "45s", "4m12s", "2h05m", "3d04h": two units at most, for a narrow column. */
export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h${String(m % 60).padStart(2, "0")}m`;
  return `${Math.floor(h / 24)}d${String(h % 24).padStart(2, "0")}h`;
}
