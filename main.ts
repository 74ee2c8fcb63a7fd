/**
 * drover: keeps AI coding-agent CLIs running unattended inside tmux.
 * Entry point: parse argv, dispatch to a subcommand, map errors to exit codes (lib/cli/dispatch.ts).
 */
import { main } from "./lib/cli/dispatch.ts";

export { main };

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
