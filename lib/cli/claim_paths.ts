/**
 * `drover __claim-paths PANE` (hidden): the paths of one pane's approve claim, as sweep.sh takes
 * them. lib/approve/claim.ts `claimPaths` is the one definition of where a claim lives (the
 * per-user runtime directories, derived from the uid; the name from the server's socket path and
 * the pane id), so the binary and the script exclude each other whatever their environments. The
 * directories are made private on the way; no claim is taken.
 *
 * Output: a `drover-claim-paths/1` line, then one absolute path per line, in the order they are to
 * be taken. No private runtime directory, or a full disk: STATE_UNWRITABLE (74).
 */
import { CLAIM_PATHS_FORMAT, CLAIM_PATHS_HEADER, claimPaths } from "../approve/claim.ts";
import { DroverError, invalidArgument } from "../errors.ts";
import { socketPath } from "../tmux/options.ts";
import { selectServer } from "../tmux/server.ts";
import type { Invocation } from "./invocation.ts";
import type { CLAIM_PATHS } from "./command_specs_internal.ts";
import type { ClaimPathsData } from "../contracts/claim_paths.ts";
import { type CommandResult, writeOut } from "./output.ts";

export async function action(
  { args, opts, g }: Invocation<typeof CLAIM_PATHS>,
): Promise<CommandResult<ClaimPathsData>> {
  // A reader from another release must fail loudly, never misparse (sweep.sh checks too).
  if (opts.formatVersion !== undefined && opts.formatVersion !== String(CLAIM_PATHS_FORMAT)) {
    throw new DroverError(
      "FORMAT_MISMATCH",
      `format version mismatch: the reader expects __claim-paths format ${opts.formatVersion}, ` +
        `this drover prints format ${CLAIM_PATHS_FORMAT}; use the script from \`drover sweep-script\``,
    );
  }
  const pane = args.pane;
  if (!/^%[0-9]{1,9}$/.test(pane)) {
    throw invalidArgument(
      `__claim-paths takes a tmux pane id such as %12, got ${JSON.stringify(pane.slice(0, 80))}`,
    );
  }
  const socket = await socketPath(selectServer(g));
  const paths = await claimPaths(socket, pane);
  const data: ClaimPathsData = {
    format_version: CLAIM_PATHS_FORMAT,
    pane_id: pane,
    socket_path: socket,
    paths,
  };
  if (g.json) return { data };
  // Raw text for a script: written here so no envelope or colour decorates it.
  writeOut([CLAIM_PATHS_HEADER, ...paths].join("\n") + "\n");
  return { data, human: [] };
}
