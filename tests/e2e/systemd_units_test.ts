/**
 * docs/systemd/drover-drive@.{service,timer}: systemd-analyze verifies them as user units (when
 * systemd-analyze is installed; .ci/run installs it), and the service's ExecStart line runs one
 * tick the way systemd would run it — the unit's own PATH, nothing else from the environment, the
 * instance name substituted — against a private default tmux server (TMUX_TMPDIR), printing JSON
 * events on stdout for the journal.
 */
import assert from "node:assert/strict";
import { MAIN, REPO_ROOT, V8_FLAGS } from "../helpers/drover.ts";
import { cleanupReplay, loadScreen, startReplay } from "../helpers/replay.ts";
import type { TestServer } from "../helpers/tmux_server.ts";
import { testWithTools } from "../helpers/tools.ts";

const DIR = `${REPO_ROOT}docs/systemd`;
const SERVICE = "drover-drive@.service";
const TIMER = "drover-drive@.timer";
const dec = new TextDecoder();

/** key → every value, from the [section] of a unit file (comments and blank lines skipped). */
function unitSection(text: string, section: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const head = /^\[(.+)\]$/.exec(line);
    if (head) {
      current = head[1]!;
      continue;
    }
    if (current !== section) continue;
    const eq = line.indexOf("=");
    assert.ok(eq > 0, `not a key=value line: ${line}`);
    const key = line.slice(0, eq);
    out.set(key, [...(out.get(key) ?? []), line.slice(eq + 1)]);
  }
  return out;
}

Deno.test("systemd units: a oneshot tick per minute; 73 and 75 are not failures; JSON to the journal", async () => {
  const service = await Deno.readTextFile(`${DIR}/${SERVICE}`);
  const timer = await Deno.readTextFile(`${DIR}/${TIMER}`);
  const s = unitSection(service, "Service");
  assert.deepEqual(s.get("Type"), ["oneshot"]);
  assert.deepEqual(s.get("SuccessExitStatus")?.join(" ").split(/\s+/).sort(), ["73", "75"]);
  const exec = s.get("ExecStart")![0]!;
  assert.match(exec, /^\/usr\/bin\/env drover drive --session %I --once --json /);
  assert.equal(s.get("StandardOutput"), undefined, "stdout goes to the journal (the default)");
  const t = unitSection(timer, "Timer");
  assert.deepEqual(t.get("OnCalendar"), ["*-*-* *:*:00"]);
  assert.deepEqual(unitSection(timer, "Install").get("WantedBy"), ["timers.target"]);
  // docs/cron.md points at these files.
  const cron = await Deno.readTextFile(`${REPO_ROOT}docs/cron.md`);
  assert.match(cron, /\(systemd\/drover-drive@\.service\)/);
  assert.match(cron, /\(systemd\/drover-drive@\.timer\)/);
});

testWithTools("systemd units: systemd-analyze --user verify accepts them (instance agents)", [
  "systemd-analyze",
], async (tools) => {
  const analyze = tools["systemd-analyze"];
  const dir = await Deno.makeTempDir({ prefix: "drover-systemd-" });
  try {
    // The user manager systemd-analyze sets up wants a runtime directory.
    await Deno.mkdir(`${dir}/run`, { mode: 0o700 });
    for (const f of [SERVICE, TIMER]) await Deno.copyFile(`${DIR}/${f}`, `${dir}/${f}`);
    const verify = async (units: string[]) =>
      await new Deno.Command(analyze!, {
        args: ["--user", "verify", ...units],
        cwd: dir,
        env: { XDG_RUNTIME_DIR: `${dir}/run` },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const out = await verify(["./drover-drive@agents.service", "./drover-drive@agents.timer"]);
    const text = dec.decode(out.stdout) + dec.decode(out.stderr);
    assert.equal(out.code, 0, text);
    assert.equal(text.trim(), "", "warnings from systemd-analyze");
    // The check bites: a broken copy of the service is reported.
    await Deno.writeTextFile(
      `${dir}/broken@.service`,
      (await Deno.readTextFile(`${DIR}/${SERVICE}`)).replace(
        "SuccessExitStatus=",
        "SuccessExit=",
      ),
    );
    const bad = await verify(["./broken@agents.service"]);
    assert.match(dec.decode(bad.stderr), /Unknown key 'SuccessExit'/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}, { hint: "apt: systemd; .ci/run installs it" });

async function tmuxAt(socket: string, tmpdir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-S", socket, "-f", "/dev/null", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { TMUX_TMPDIR: tmpdir, TERM: "xterm-256color" },
  }).output();
  if (out.code !== 0) throw new Error(`tmux ${args.join(" ")}: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout);
}

Deno.test("systemd units: the service's ExecStart runs one tick with JSON events on stdout", async () => {
  const s = unitSection(await Deno.readTextFile(`${DIR}/${SERVICE}`), "Service");
  const home = await Deno.makeTempDir({ prefix: "drover-systemd-home-" });
  const tmuxTmp = await Deno.makeTempDir({ prefix: "drover-systemd-tmux-" });
  const sockDir = `${tmuxTmp}/tmux-${Deno.uid() ?? 0}`;
  await Deno.mkdir(sockDir, { mode: 0o700 });
  const socket = `${sockDir}/default`;
  // `drover` where install.sh puts it for a user: ~/.local/bin (the first entry of the unit's PATH).
  await Deno.mkdir(`${home}/.local/bin`, { recursive: true });
  const bin = Deno.env.get("DROVER_BIN");
  if (bin) {
    await Deno.copyFile(bin, `${home}/.local/bin/drover`);
  } else {
    const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
    await Deno.writeTextFile(
      `${home}/.local/bin/drover`,
      `#!/bin/sh\nDENO_DIR='${denoDir}' exec '${Deno.execPath()}' run -A --quiet ${V8_FLAGS} '${MAIN}' "$@"\n`,
    );
  }
  await Deno.chmod(`${home}/.local/bin/drover`, 0o755);
  // systemd's specifiers for instance "agents" of a user unit.
  const expand = (v: string) => v.replaceAll("%I", "agents").replaceAll("%h", home);
  const envLines = (s.get("Environment") ?? []).map(expand);
  assert.ok(envLines.some((e) => e.startsWith(`PATH=${home}/.local/bin:`)), envLines.join(" "));
  const argv = expand(s.get("ExecStart")![0]!).split(/\s+/);

  const srv: TestServer = {
    name: "default",
    tmux: (...args: string[]) => tmuxAt(socket, tmuxTmp, ...args),
    waitFor: () => Promise.reject(new Error("unused")),
    async [Symbol.asyncDispose]() {
      await tmuxAt(socket, tmuxTmp, "kill-server").catch(() => "");
    },
  };
  const orch = await startReplay(srv, await loadScreen("claude-code/2.1.197/ready@80x24"), {
    session: "agents",
  });
  const typed = await startReplay(srv, await loadScreen("claude-code/2.1.197/pasted-text@80x24"), {
    session: "agents",
    newWindow: true,
  });
  try {
    const out = await new Deno.Command("/usr/bin/env", {
      args: ["-i", ...envLines, `HOME=${home}`, `TMUX_TMPDIR=${tmuxTmp}`, ...argv],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
    }).output();
    const stdout = dec.decode(out.stdout);
    assert.equal(out.code, 0, `${stdout}\n${dec.decode(out.stderr)}`);
    const lines = stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.at(-1).schema, "drover.drive.v1");
    const events = lines.slice(0, -1);
    assert.ok(events.every((e) => e.schema === "drover.event.v1"), stdout);
    assert.ok(events.some((e) => e.event === "input-submitted"), stdout);
    const file = await Deno.readTextFile(`${home}/.local/state/drover/agents.events.jsonl`);
    assert.match(file, /"input-submitted"/);
  } finally {
    for (const p of [orch, typed]) await cleanupReplay(p);
    await srv[Symbol.asyncDispose]();
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.remove(tmuxTmp, { recursive: true }).catch(() => {});
  }
});
