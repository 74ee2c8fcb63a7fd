/**
 * Starting a session's CLI: a fresh HOME and project (the session's files, the HOME seeded for the
 * CLI and its stand-in), the CLI in a pane of the exact verify size, and its ready screen; one
 * relaunch when that screen does not come.
 */
import { HOMES, paneEnv } from "../scenarios/homes.ts";
import type { Standin } from "../scenarios/standin.ts";
import { type Session, VERIFY_SIZE } from "../scenarios/types.ts";
import { newSizedSession } from "../tmux/private.ts";
import type { Screen } from "./result.ts";
import type { Live } from "./run_types.ts";
import { endSession } from "./session_end.ts";
import { waitFor, waitWording } from "./wait.ts";

/** A session's throwaway folders: `root` holds the HOME and the project. */
export interface SessionDirs {
  root: string;
  home: string;
  project: string;
}

export type Started =
  | { ok: true; paneId: string; session: string }
  | { ok: false; why: string; screen: Screen | null };

/** Seed the HOME, start the CLI, wait for its ready screen; one relaunch when that fails. */
export async function startCli(
  live: Live,
  session: Session,
  tmuxSession: string,
  dirs: SessionDirs,
  standin: Standin,
): Promise<Started> {
  const { table } = live.target;
  let last: Started = { ok: false, why: "not started", screen: null };
  for (let attempt = 0; attempt < 2; attempt++) {
    const env = await seed(live, session, dirs, standin);
    const name = attempt ? `${tmuxSession}-r${attempt}` : tmuxSession;
    const created = await newSizedSession(live.server, {
      session: name,
      cols: (live.opts.size ?? VERIFY_SIZE).cols,
      rows: (live.opts.size ?? VERIFY_SIZE).rows,
      cwd: dirs.project,
      argv: [
        "env",
        "-i",
        ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
        live.target.exec,
        ...table.args,
        ...(session.args ?? []),
      ],
    });
    const w = await waitFor(
      live,
      created.paneId,
      table.ready,
      0,
      table.readyTimeoutMs,
      standin,
      "",
    );
    if (w.ok) {
      // The ready scenario's own wording is the best sign the input box takes keys.
      const ready = session.scenarios.find((s) => s.name === "ready");
      if (ready?.defining) await waitWording(live, created.paneId, ready.defining, 8000);
      return { ok: true, paneId: created.paneId, session: name };
    }
    last = { ok: false, why: `the CLI did not start: ${w.why}`, screen: w.screen };
    await endSession(live.server, name, created.paneId, dirs.root);
    if (live.opts.signal.aborted) break;
  }
  return last;
}

/** A fresh HOME and project for one launch; returns the CLI's environment. */
async function seed(
  live: Live,
  session: Session,
  dirs: SessionDirs,
  standin: Standin,
): Promise<Record<string, string>> {
  await Deno.remove(dirs.home, { recursive: true }).catch(() => {});
  await Deno.remove(dirs.project, { recursive: true }).catch(() => {});
  await Deno.mkdir(`${dirs.home}/tmp`, { recursive: true });
  await Deno.mkdir(dirs.project, { recursive: true });
  for (const [rel, content] of Object.entries(session.files ?? {})) {
    const p = `${dirs.project}/${rel}`;
    await Deno.mkdir(p.slice(0, p.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(p, content);
  }
  const seeded = await HOMES[live.target.table.home]({
    home: dirs.home,
    project: dirs.project,
    api: standin.url,
    ...(session.settings ? { settings: session.settings } : {}),
  });
  return paneEnv({ home: dirs.home }, live.target.path, { ...seeded, ...session.env });
}
