/**
 * The `DROVER` a test hands sweep.sh when it runs the script over many screens. sweep.sh asks
 * drover for a CLI's `__prompt-profile` rows on every run; identical calls cannot give different
 * rows, so the first real answer to each is kept and served again, and every other call goes to
 * the real drover. With `decisions`, `__classify` is answered too: from the line the test computed
 * in its own process for the very capture on stdin (sweep.sh hands drover its stdin unread), kept
 * as `<decisions>/<cli>-<sha256 of the capture>`; a capture with no line there fails the run.
 */
import { droverCommand } from "./drover.ts";

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** A shell script at `path` that runs the real drover (DROVER_BIN, else `deno run main.ts`). */
export async function droverScript(path: string): Promise<string> {
  const [exe, pre] = droverCommand();
  await Deno.writeTextFile(path, `#!/bin/sh\nexec ${[exe, ...pre].map(q).join(" ")} "$@"\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

/** Write the stub (and the real drover beside it) into `dir`; the stub's path. */
export async function sweepDrover(dir: string, opts: { decisions?: string } = {}): Promise<string> {
  const real = await droverScript(`${dir}/drover-real`);
  const classify = opts.decisions === undefined ? "" : `  __classify)
    cli=; prev=
    for a; do [ "$prev" = --cli ] && cli=$a; prev=$a; done
    f=${q(opts.decisions)}/"$cli"-$(sha256sum | cut -c1-64)
    [ -f "$f" ] || { echo "no decision computed for this capture ($f)" >&2; exit 3; }
    exec cat "$f";;
`;
  const stub = `${dir}/drover-sweep`;
  await Deno.writeTextFile(
    stub,
    `#!/bin/sh
case "$1" in
  __prompt-profile)
    f=${q(dir)}/pp-$(printf '%s\\n' "$*" | sha256sum | cut -c1-16)
    [ -f "$f" ] || { ${q(real)} "$@" >"$f.$$" && mv "$f.$$" "$f"; } || exit $?
    exec cat "$f";;
${classify}esac
exec ${q(real)} "$@"
`,
  );
  await Deno.chmod(stub, 0o755);
  return stub;
}

/** Where {@link sweepDrover} finds a computed `__classify` answer for `capture` of `cli`. */
export async function decisionPath(decisions: string, cli: string, capture: string) {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(capture));
  const hex = [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${decisions}/${cli}-${hex}`;
}
