/**
 * `drover launch`: start an agent CLI in an exact new tmux pane, optionally seeded with a kickoff
 * prompt carried out of band (./carrier.ts). Everything a user can get wrong is checked before
 * anything is created; what was created is reported by the ids tmux printed for it.
 */
import { DroverError, invalidArgument, panesSynchronized } from "../errors.ts";
import {
  type CreatedPane,
  type CreateSpec,
  newSession,
  newWindow,
  selectCreated,
  selectionPreserved,
  selectionSnapshot,
  sessionExists,
  sessionOfPane,
  setPaneTitle,
  type SplitDirection,
  splitPane,
} from "../tmux/create.ts";
import { CLI_OPTION, newWindowsSynchronized, setPaneOption } from "../tmux/options.ts";
import { type PaneInfo, resolveTarget } from "../tmux/panes.ts";
import type { TmuxServer } from "../tmux/run.ts";
import { type Availability, cachedAvailability } from "./availability.ts";
import { paneCommand, writeCarrier } from "./carrier.ts";
import { MAX_PROMPT_BYTES } from "./prompt.ts";
import {
  type CliOverride,
  formatPromptForm,
  type LaunchArgv,
  lookupRecipe,
  promptArgv,
  type Recipe,
} from "./recipes.ts";

export const DIRECTIONS = ["right", "left", "up", "down"] as const;

export interface LaunchRequest {
  cli: string;
  /** "-" or undefined. */
  prompt?: string;
  window?: boolean;
  split?: string;
  anchor?: string;
  background?: boolean;
  cwd?: string;
  title?: string;
  session?: string;
}

export interface LaunchDeps {
  server: TmuxServer;
  /** True when drover talks to the server it runs inside ($TMUX, no -L/-S). */
  insideServer: boolean;
  /** $TMUX_PANE when insideServer. */
  currentPane?: string;
  clis: Record<string, CliOverride>;
  /** Reads and validates the prompt (stdin); only called when --prompt - was given. */
  readPrompt: () => Promise<string>;
}

export interface LaunchData {
  cli: string;
  command: string[];
  placement: "window" | "split" | "session";
  direction: SplitDirection | null;
  background: boolean;
  session: { id: string; name: string };
  window: { id: string; index: number };
  pane: { id: string; index: number; target: string };
  /** session, window and pane again, as one object: `.target.pane.id` is what the skill teaches. */
  target: {
    session: { id: string; name: string };
    window: { id: string; index: number };
    pane: { id: string; index: number; target: string };
  };
  anchor: { pane_id: string; window_id: string; session_id: string; target: string } | null;
  cwd: string | null;
  title: string | null;
  prompt: { bytes: number; carrier: "file" } | null;
  prompt_form: string;
  selection_preserved: boolean | null;
  availability: Availability;
}

/** Flag combinations, before touching anything. */
export function checkFlags(req: LaunchRequest): void {
  if (!req.cli || req.cli.trim() === "") throw invalidArgument("--cli NAME is required");
  if (req.prompt !== undefined && req.prompt !== "-") {
    throw invalidArgument(
      `--prompt takes only "-" (read the prompt from stdin), got ${JSON.stringify(req.prompt)}; ` +
        "a prompt on the command line would leak into shell history and ps",
    );
  }
  if (req.window && req.split !== undefined) {
    throw invalidArgument("--window and --split exclude each other; pick one placement");
  }
  if (req.split !== undefined) {
    if (!(DIRECTIONS as readonly string[]).includes(req.split)) {
      throw invalidArgument(`--split takes right, left, up or down, got "${req.split}"`);
    }
    if (req.anchor === undefined) {
      throw invalidArgument(
        "--split needs --anchor TARGET: the exact pane to split (%12 or s:w.p)",
      );
    }
    if (req.session !== undefined) {
      throw invalidArgument("--session does not apply to --split (the anchor pane decides)");
    }
  } else if (req.anchor !== undefined) {
    throw invalidArgument("--anchor only applies to --split right|left|up|down");
  }
  if (req.session !== undefined && req.session.trim() === "") {
    throw invalidArgument("--session needs a session name");
  }
  if (req.session !== undefined && /[:.]/.test(req.session)) {
    throw invalidArgument(
      `--session "${req.session}": tmux session names cannot contain ":" or "."`,
    );
  }
  // tmux 3.3a stores session names "vis"-encoded: control characters as escapes, "\" doubled and
  // "$" before a letter, "_" or "{" backslashed. Such a name would not come out as given (and a
  // later --session with the same text would not find it), so it is refused.
  // deno-lint-ignore no-control-regex
  if (req.session !== undefined && /[\u0000-\u001f\u007f\\]|\$[A-Za-z_{]/.test(req.session)) {
    throw invalidArgument(
      `--session ${JSON.stringify(req.session.slice(0, 80))}: tmux would rewrite this name ` +
        '(control characters, "\\" and "$" before a letter, "_" or "{" are escaped); pick another',
    );
  }
  // deno-lint-ignore no-control-regex
  if (req.title !== undefined && /[\u0000-\u001f\u007f]/.test(req.title)) {
    throw invalidArgument("--title must not contain control characters");
  }
}

async function checkCwd(cwd: string | undefined): Promise<string | undefined> {
  if (cwd === undefined) return undefined;
  let abs = cwd;
  if (!abs.startsWith("/")) abs = `${Deno.cwd()}/${cwd}`;
  try {
    const st = await Deno.stat(abs);
    if (!st.isDirectory) throw invalidArgument(`--cwd ${cwd} is not a directory`);
    return await Deno.realPath(abs);
  } catch (e) {
    if (e instanceof DroverError) throw e;
    throw invalidArgument(`--cwd ${cwd} does not exist or cannot be read`);
  }
}

/** The checked request: the CLI's recipe, the prompt read from stdin and the argv that carries it. */
interface Kickoff {
  cwd: string | undefined;
  recipe: Recipe;
  prompt: string | undefined;
  plan: LaunchArgv;
}

/** Where the new pane goes, resolved exactly before anything is created. */
interface Placement {
  /** The pane to split (--split). */
  anchor?: PaneInfo;
  /** The session to open a window in. */
  sessionTarget?: string;
  /** No session is called --session yet: create it. */
  createSession: boolean;
}

/** The pane tmux made, and whether a new session came with it. */
interface Created {
  pane: CreatedPane;
  /** False as well when a racing launch created the --session first (see newSessionOrWindow). */
  sessionCreated: boolean;
}

/** Checks the flags, the --cwd and the CLI, then reads the prompt (only when it can be used). */
async function readKickoff(req: LaunchRequest, deps: LaunchDeps): Promise<Kickoff> {
  checkFlags(req);
  const cwd = await checkCwd(req.cwd);
  const recipe = lookupRecipe(req.cli, deps.clis);
  // Refuse a prompt the CLI cannot take before reading a byte of it.
  if (req.prompt !== undefined) promptArgv(recipe, "x");
  const prompt = req.prompt !== undefined ? await deps.readPrompt() : undefined;
  if (prompt !== undefined && new TextEncoder().encode(prompt).length > MAX_PROMPT_BYTES) {
    throw invalidArgument(`the prompt is larger than ${MAX_PROMPT_BYTES} bytes`);
  }
  const plan = prompt !== undefined
    ? promptArgv(recipe, prompt)
    : { argv: [recipe.command, ...recipe.args], promptPrefix: "" };
  return { cwd, recipe, prompt, plan };
}

async function resolvePlacement(req: LaunchRequest, deps: LaunchDeps): Promise<Placement> {
  if (req.split !== undefined) {
    return { anchor: await resolveTarget(deps.server, req.anchor!), createSession: false };
  }
  if (req.session !== undefined) {
    if (await sessionExists(deps.server, req.session)) {
      return { sessionTarget: `=${req.session}`, createSession: false };
    }
    return { createSession: true };
  }
  if (deps.insideServer && deps.currentPane) {
    const id = await sessionOfPane(deps.server, deps.currentPane);
    if (!id) {
      throw invalidArgument("cannot tell which tmux session drover runs in; pass --session S");
    }
    return { sessionTarget: id, createSession: false };
  }
  throw invalidArgument(
    "outside tmux, launch needs --session S (a new window there, or a new session if none " +
      "is called S) or --split DIR --anchor TARGET",
  );
}

/**
 * No agent into a synchronized window: keys typed into any pane of it would reach the agent, and
 * drover could never send it a key (issue 16). A split joins the anchor's window; a new window
 * (or session) inherits the global window option.
 */
async function refuseSynchronized(server: TmuxServer, anchor: PaneInfo | undefined) {
  if (anchor?.windowSynchronized) {
    throw panesSynchronized(`not splitting ${anchor.id} (${anchor.target})`, anchor.windowId);
  }
  if (!anchor && await newWindowsSynchronized(server)) {
    throw panesSynchronized("not creating a window for the agent", null);
  }
}

async function commandAvailability(command: string): Promise<Availability> {
  return (await cachedAvailability([command])).get(command)?.status ?? "unknown";
}

function unavailableWarning(command: string): string {
  return `"${command}" was not found on your login shell's PATH at the last \`drover clis ` +
    "list` probe; launching anyway (the pane closes at once if it really is missing)";
}

/** Writes the prompt's carrier file and creates the pane; the file goes again if tmux fails. */
async function createPane(
  server: TmuxServer,
  req: LaunchRequest,
  kickoff: Kickoff,
  placement: Placement,
): Promise<Created> {
  const { recipe, prompt, plan } = kickoff;
  const carrier = prompt !== undefined ? await writeCarrier(prompt) : undefined;
  const spec: CreateSpec = {
    command: paneCommand(
      plan.argv,
      carrier ? { path: carrier.path, prefix: plan.promptPrefix } : undefined,
    ),
    cwd: kickoff.cwd,
    env: recipe.env,
    windowName: req.title,
  };
  try {
    if (placement.anchor) {
      const pane = await splitPane(server, placement.anchor.id, req.split as SplitDirection, {
        ...spec,
        windowName: undefined,
      });
      return { pane, sessionCreated: false };
    }
    if (placement.createSession) return await newSessionOrWindow(server, req.session!, spec);
    return { pane: await newWindow(server, placement.sessionTarget!, spec), sessionCreated: false };
  } catch (e) {
    await carrier?.remove();
    if (e instanceof DroverError && e.code === "TMUX_FAILED") {
      throw new DroverError("CREATE_FAILED", e.message, { details: e.details });
    }
    throw e;
  }
}

async function newSessionOrWindow(
  server: TmuxServer,
  session: string,
  spec: CreateSpec,
): Promise<Created> {
  try {
    return { pane: await newSession(server, session, spec), sessionCreated: true };
  } catch (e) {
    // Another launch created the session between our check and new-session: use it.
    if (!(e instanceof DroverError && /duplicate session/i.test(e.message))) throw e;
    return { pane: await newWindow(server, `=${session}`, spec), sessionCreated: false };
  }
}

function paneTarget(pane: CreatedPane): string {
  return `${pane.session_name}:${pane.window_index}.${pane.pane_index}`;
}

/**
 * Marks the pane with its CLI, titles it and (unless --background) selects it. The pane exists by
 * now: a failure here must say which pane so it can be closed.
 */
async function finishPane(
  server: TmuxServer,
  req: LaunchRequest,
  recipe: Recipe,
  created: Created,
): Promise<void> {
  const { pane } = created;
  try {
    await setPaneOption(server, pane.pane_id, CLI_OPTION, recipe.name);
    if (req.title !== undefined) await setPaneTitle(server, pane.pane_id, req.title);
    if (!req.background && !created.sessionCreated) await selectCreated(server, pane);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new DroverError(
      "CREATE_FAILED",
      `created pane ${pane.pane_id} (${paneTarget(pane)}) but could not finish setting it up: ` +
        `${msg}; close it with \`tmux kill-pane -t ${pane.pane_id}\` if the agent did not start`,
      { details: { pane_id: pane.pane_id, window_id: pane.window_id } },
    );
  }
}

function launchData(
  req: LaunchRequest,
  kickoff: Kickoff,
  placement: Placement,
  created: Created,
  observed: { preserved: boolean | null; availability: Availability },
): LaunchData {
  const { recipe, prompt } = kickoff;
  const { anchor } = placement;
  const { pane } = created;
  const where = {
    session: { id: pane.session_id, name: pane.session_name },
    window: { id: pane.window_id, index: pane.window_index },
    pane: { id: pane.pane_id, index: pane.pane_index, target: paneTarget(pane) },
  };
  return {
    cli: recipe.name,
    command: kickoff.plan.argv,
    placement: anchor ? "split" : created.sessionCreated ? "session" : "window",
    direction: anchor ? req.split as SplitDirection : null,
    background: req.background === true,
    session: { ...where.session },
    window: { ...where.window },
    pane: { ...where.pane },
    target: where,
    anchor: anchor
      ? {
        pane_id: anchor.id,
        window_id: anchor.windowId,
        session_id: anchor.sessionId,
        target: anchor.target,
      }
      : null,
    cwd: kickoff.cwd ?? null,
    title: req.title ?? null,
    prompt: prompt !== undefined
      ? { bytes: new TextEncoder().encode(prompt).length, carrier: "file" }
      : null,
    prompt_form: formatPromptForm(recipe.prompt),
    selection_preserved: observed.preserved,
    availability: observed.availability,
  };
}

export async function launch(req: LaunchRequest, deps: LaunchDeps): Promise<{
  data: LaunchData;
  warnings: string[];
}> {
  const kickoff = await readKickoff(req, deps);
  const placement = await resolvePlacement(req, deps);
  await refuseSynchronized(deps.server, placement.anchor);
  const warnings: string[] = [];
  const availability = await commandAvailability(kickoff.recipe.command);
  if (availability === "unavailable") warnings.push(unavailableWarning(kickoff.recipe.command));
  const before = req.background ? await selectionSnapshot(deps.server) : undefined;
  const created = await createPane(deps.server, req, kickoff, placement);
  await finishPane(deps.server, req, kickoff.recipe, created);
  let preserved: boolean | null = null;
  if (before) {
    preserved = selectionPreserved(before, await selectionSnapshot(deps.server));
    if (!preserved) {
      warnings.push("the selected window or pane changed during the background launch");
    }
  }
  return {
    warnings,
    data: launchData(req, kickoff, placement, created, { preserved, availability }),
  };
}
