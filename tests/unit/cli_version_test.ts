/** The CLI version: from install paths and package.json (lib/identify/version.ts), from banners. */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { cliNames } from "../../lib/identify/pane_cli.ts";
import {
  packageRootIn,
  processVersion,
  versionInPath,
  type VersionIo,
} from "../../lib/identify/version.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";

const CLAUDE = cliNames("claude", {});
const QWEN = cliNames("qwen", {});
const OPENCODE = cliNames("opencode", {});

Deno.test("version: a versioned install path names the CLI's version only beside the CLI's name", () => {
  assert.equal(versionInPath("/home/u/.local/share/claude/versions/2.1.332", CLAUDE), "2.1.332");
  assert.equal(
    versionInPath(
      "/nix/store/0123456789abcdfghijklmnpqrsvwxyz-claude-code-2.1.197/bin/claude",
      CLAUDE,
    ),
    "2.1.197",
  );
  assert.equal(versionInPath("/opt/qwen-code@0.24.4/cli.js", QWEN), "0.24.4");
  // Node's own version folder, another program's versions dir, a bare number: not the CLI's.
  assert.equal(versionInPath("/home/u/.nvm/versions/node/v20.1.0/bin/node", CLAUDE), null);
  assert.equal(versionInPath("/opt/tool/versions/1.2.3", CLAUDE), null);
  assert.equal(versionInPath("/usr/lib/node_modules/@qwen-code/qwen-code/cli.js", QWEN), null);
});

Deno.test("version: the innermost known npm package folder of a path", () => {
  assert.equal(
    packageRootIn("/usr/lib/node_modules/@qwen-code/qwen-code/cli.js", QWEN.packages),
    "/usr/lib/node_modules/@qwen-code/qwen-code",
  );
  // The lab's npm alias nests a second version's platform binary under the alias folder.
  assert.equal(
    packageRootIn(
      "/lab/node_modules/claude-code-2.1.332/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
      CLAUDE.packages,
    ),
    "/lab/node_modules/claude-code-2.1.332/node_modules/@anthropic-ai/claude-code-linux-x64",
  );
  assert.equal(
    packageRootIn("/x/node_modules/opencode-linux-arm64/bin/opencode", OPENCODE.packages),
    "/x/node_modules/opencode-linux-arm64",
  );
  assert.equal(packageRootIn("/x/node_modules/@qwen-code/qwen-code", QWEN.packages), null);
  assert.equal(packageRootIn("/x/node_modules/qwen-code-helper/a.js", QWEN.packages), null);
});

function fakeIo(files: Record<string, string>, links: Record<string, string>): VersionIo {
  return {
    realPath: (p) => Promise.resolve(links[p] ?? p),
    readLink: (p) => links[p] ? Promise.resolve(links[p]) : Promise.reject(new Error("no link")),
    readText: (p) =>
      p in files ? Promise.resolve(files[p]) : Promise.reject(new Deno.errors.NotFound(p)),
  };
}

Deno.test("version: from the pane's processes — the script's package, the executable's path", async () => {
  const pkg = "/usr/lib/node_modules/@qwen-code/qwen-code";
  const io = fakeIo(
    { [`${pkg}/package.json`]: '{"name":"@qwen-code/qwen-code","version":"0.24.4"}' },
    {
      "/usr/bin/qwen": `${pkg}/cli-entry.js`,
      "/proc/7/exe": "/home/u/.local/share/claude/versions/2.1.332",
    },
  );
  const shell = { pid: 1, ppid: 0, argv: ["-bash"] };
  assert.deepEqual(
    await processVersion([shell, { pid: 5, ppid: 1, argv: ["node", "/usr/bin/qwen"] }], QWEN, io),
    { version: "0.24.4", source: "package", evidence: pkg },
  );
  // A native binary started by name: only /proc/<pid>/exe shows where it lives.
  const v = await processVersion([shell, { pid: 7, ppid: 1, argv: ["claude"] }], CLAUDE, io);
  assert.deepEqual([v?.version, v?.source], ["2.1.332", "path"]);
  // Other programs in the pane, an unreadable package.json, a prompt in argv: unknown, no error.
  assert.equal(
    await processVersion([shell, { pid: 9, ppid: 1, argv: ["vim", "notes.txt"] }], QWEN, io),
    null,
  );
  assert.equal(
    await processVersion(
      [{ pid: 9, ppid: 1, argv: ["node", "/opt/node_modules/@qwen-code/qwen-code/cli.js"] }],
      QWEN,
      io,
    ),
    null,
  );
});

Deno.test("version: every recorded banner reads as its fixture folder's version, never another", async () => {
  const root = new URL("../fixtures/", import.meta.url).pathname;
  const names: Record<string, string> = { "claude-code": "claude" };
  for await (const cli of Deno.readDir(root)) {
    // Real recordings only (tests/fixtures/hand-made holds no CLI's banner); the held-out
    // screens under unseen/ are scored on their own (unseen_screens_test.ts), the field corpus by
    // its own expected.json.
    if (
      !cli.isDirectory || cli.name === "hand-made" || cli.name === "unseen" || cli.name === "field"
    ) continue;
    const profile = resolveProfile(names[cli.name] ?? cli.name, EMPTY_CONFIG);
    for await (const ver of Deno.readDir(`${root}${cli.name}`)) {
      if (!ver.isDirectory) continue;
      const dir = `${root}${cli.name}/${ver.name}`;
      let seen = 0;
      for await (const f of Deno.readDir(dir)) {
        if (!f.name.endsWith(".txt") || f.name.endsWith(".ansi.txt")) continue;
        const v = detect({ plain: await Deno.readTextFile(`${dir}/${f.name}`) }, profile);
        if (v.cli_version !== null) {
          assert.equal(v.cli_version, ver.name, `${cli.name}/${ver.name}/${f.name}`);
          seen++;
        }
      }
      // Gemini CLI and Cline print no version on their screens.
      if (cli.name !== "gemini" && cli.name !== "cline") {
        assert.ok(seen > 0, `${cli.name} ${ver.name}: no banner read`);
      }
    }
  }
});
