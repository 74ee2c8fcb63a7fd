/**
 * Reading a scenario's pane while it runs: its screen, and the waits a table is written in (what
 * the screen shows or hides, how many requests reached the stand-in, a file the CLI made, a
 * screen gone still), each polled until it holds, the CLI exits or the time is up.
 */
import type { Standin } from "../scenarios/standin.ts";
import type { Wait } from "../scenarios/types.ts";
import { capturePane } from "../tmux/capture.ts";
import { resolveTarget } from "../tmux/panes.ts";
import { paneExit } from "../tmux/private.ts";
import { Aborted, sleep } from "./aborted.ts";
import type { Screen } from "./result.ts";
import type { Live } from "./run_types.ts";

export const POLL_MS = 250;

export async function screenOf(live: Live, paneId: string): Promise<Screen> {
  const cap = await capturePane(live.server, paneId, { styled: true });
  const pane = await resolveTarget(live.server, paneId).catch(() => undefined);
  return { plain: cap.plain, styled: cap.styled ?? "", title: pane?.title ?? "" };
}

export async function plainOf(live: Live, paneId: string): Promise<string> {
  return (await capturePane(live.server, paneId)).plain;
}

async function fileExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

export type Waited = { ok: true } | { ok: false; why: string; screen: Screen | null };

/** Wait until `w` holds (see Wait); `base` = main requests before the scenario's steps. */
export async function waitFor(
  live: Live,
  paneId: string,
  w: Wait,
  base: number,
  timeoutMs: number,
  standin: Standin,
  project: string,
): Promise<Waited> {
  const { signal } = live.opts;
  const deadline = Date.now() + timeoutMs;
  const holds = async (plain: string) =>
    (w.shows ?? []).every((x) => plain.includes(x)) &&
    !(w.hides ?? []).some((x) => plain.includes(x)) &&
    standin.mainCount() - base >= (w.requests ?? 0) &&
    (w.maxRequests === undefined || standin.mainCount() - base <= w.maxRequests) &&
    (w.file === undefined || await fileExists(`${project}/${w.file}`));
  let stableSince = 0;
  let last = "";
  while (true) {
    if (signal.aborted) throw new Aborted("interrupted");
    const plain = await plainOf(live, paneId).catch(() => "");
    const ok = plain.trim() !== "" && await holds(plain);
    if (ok) {
      if (!w.stableMs) break;
      if (plain !== last || stableSince === 0) stableSince = Date.now();
      else if (Date.now() - stableSince >= w.stableMs) break;
    } else stableSince = 0;
    last = plain;
    const exit = await paneExit(live.server, paneId);
    if (exit.dead) {
      return {
        ok: false,
        why: `the CLI exited${exit.status !== undefined ? ` (status ${exit.status})` : ""}`,
        screen: await screenOf(live, paneId).catch(() => null),
      };
    }
    if (Date.now() > deadline) {
      return {
        ok: false,
        why: `not reached within ${Math.round(timeoutMs / 1000)} s (waited for ${describeWait(w)})`,
        screen: await screenOf(live, paneId).catch(() => null),
      };
    }
    await sleep(Math.min(POLL_MS, w.stableMs ?? POLL_MS), signal);
  }
  if (w.settleMs) await sleep(w.settleMs, signal);
  return { ok: true };
}

/** What a wait waited for, in words (for "not reached" reports). */
export function describeWait(w: Wait): string {
  const parts: string[] = [];
  if (w.shows?.length) {
    parts.push(`the screen to show ${w.shows.map((s) => JSON.stringify(s)).join(" and ")}`);
  }
  if (w.hides?.length) parts.push(`${w.hides.map((s) => JSON.stringify(s)).join(" and ")} to go`);
  if (w.requests) {
    parts.push(
      w.maxRequests === w.requests
        ? `exactly ${w.requests} request(s) at the stand-in`
        : `${w.requests} request(s) at the stand-in`,
    );
  }
  if (w.maxRequests !== undefined && w.maxRequests !== w.requests) {
    parts.push(`at most ${w.maxRequests} request(s) at the stand-in`);
  }
  if (w.file) parts.push(`the command to create ${w.file}`);
  if (w.stableMs) parts.push(`the screen to settle for ${w.stableMs} ms`);
  return parts.join(", ") || "the screen";
}

/** Up to `graceMs` for the CLI's own wording; returns the lines still missing. */
export async function waitWording(
  live: Live,
  paneId: string,
  defining: readonly string[],
  graceMs: number,
): Promise<string[]> {
  const deadline = Date.now() + graceMs;
  while (true) {
    const plain = await plainOf(live, paneId).catch(() => "");
    const missing = defining.filter((d) => !plain.includes(d));
    if (missing.length === 0 || Date.now() > deadline) return missing;
    await sleep(POLL_MS, live.opts.signal);
  }
}
