/**
 * One reading of a screen (issue 25): `__classify`, drive and approve judge the command lib/detect
 * reads, never a reading of their own. For every screen under tests/fixtures — every CLI and
 * version, the held-out recordings, the hand-made ones — plain and styled:
 * - the command (and file path) classify judges is the one detect reports, and so is the block it
 *   sits in (what decides whether the command stands alone);
 * - on Claude Code's recorded screens, the plain capture is approved exactly when the styled one
 *   (what drive captures) is: a plain 2.1.197 capture read `npm run build` with its description
 *   line joined on, and escalated what drive approved.
 */
import assert from "node:assert/strict";
import { EMPTY_CONFIG } from "../../lib/config/load.ts";
import { detect } from "../../lib/detect/mod.ts";
import { stripAnsi } from "../../lib/detect/text.ts";
import { classifyCapture } from "../../lib/drive/classify.ts";
import { toDriveVerdicts } from "../../lib/drive/verdicts.ts";
import { resolveProfile } from "../../lib/profile/resolve.ts";
import { drover } from "../helpers/drover.ts";
import { RECORDED_CLIS as PROFILE_OF } from "../helpers/recorded.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
interface Shot {
  name: string;
  cli: string;
  plain: string;
  styled?: string;
}

/** Every screen: recorded (with their styled twins), held out, hand-made. */
function allScreens(): Shot[] {
  const out: Shot[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`);
      if (e.name === "index.json") {
        for (const x of JSON.parse(Deno.readTextFileSync(`${dir}/index.json`))) {
          out.push({
            name: `${dir.slice(FIXTURES.length)}/${x.file}`,
            cli: x.cli,
            plain: Deno.readTextFileSync(`${dir}/${x.file}`),
            styled: x.styled ? Deno.readTextFileSync(`${dir}/${x.styled}`) : undefined,
          });
        }
      }
      if (e.name !== "manifest.json") continue;
      const rel = dir.slice(FIXTURES.length);
      const folder = rel.split("/").find((p) => PROFILE_OF[p]);
      assert.ok(folder, `${rel}: no CLI for this folder`);
      const m = JSON.parse(Deno.readTextFileSync(`${dir}/manifest.json`));
      for (const s of m.screens as { file: string; styled?: string }[]) {
        out.push({
          name: `${rel}/${s.file}`,
          cli: PROFILE_OF[folder],
          plain: Deno.readTextFileSync(`${dir}/${s.file}`),
          styled: s.styled ? Deno.readTextFileSync(`${dir}/${s.styled}`) : undefined,
        });
      }
    }
  };
  walk(FIXTURES.replace(/\/$/, ""));
  return out;
}

const SCREENS = allScreens();

/** The command classify judged (the verdicts that name one), else undefined. */
function judgedCommand(c: ReturnType<typeof classifyCapture>): string | null | undefined {
  return "command" in c ? c.command : undefined;
}

Deno.test("one reading: classify judges the command detect reports, plain and styled, on every screen", () => {
  assert.ok(SCREENS.length >= 400, `only ${SCREENS.length} screens`);
  let judged = 0;
  const wrong: string[] = [];
  for (const shot of SCREENS) {
    const profile = resolveProfile(shot.cli, EMPTY_CONFIG);
    const forms: [string, { plain: string; styled?: string }][] = [["plain", {
      plain: stripAnsi(shot.plain),
    }]];
    if (shot.styled) forms.push(["styled", { plain: stripAnsi(shot.styled), styled: shot.styled }]);
    for (const [form, cap] of forms) {
      const d = detect(cap, profile);
      // allowlisting the command itself: classify takes it as far as it goes
      const c = classifyCapture(d, cap.plain, d.command ? [d.command, "npm run build"] : []);
      const dv = toDriveVerdicts(d, cap.plain);
      if (dv.command !== d.command || dv.file_path !== d.file_path) {
        wrong.push(`${shot.name} (${form}): drive reads ${dv.command}/${dv.file_path}`);
      }
      if (dv.command_block !== d.command_block) {
        wrong.push(`${shot.name} (${form}): block ${dv.command_block} vs ${d.command_block}`);
      }
      const cmd = judgedCommand(c);
      if (cmd === undefined) continue;
      judged++;
      if ((cmd ?? null) !== d.command && !(cmd === "" && d.command === null)) {
        wrong.push(
          `${shot.name} (${form}): classify judged ${JSON.stringify(cmd)}, detect ${
            JSON.stringify(d.command)
          }`,
        );
      }
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(judged >= 60, `only ${judged} judged commands`);
});

Deno.test("one reading: a plain Claude Code capture is approved exactly when drive's styled one is", () => {
  const claude = SCREENS.filter((s) => s.styled && /^claude-code\/2\.1\.(197|332)\//.test(s.name));
  assert.ok(claude.length >= 150, `only ${claude.length} Claude Code screens`);
  const profile = resolveProfile("claude", EMPTY_CONFIG);
  const differ: string[] = [];
  let approvals = 0;
  for (const shot of claude) {
    const plain = stripAnsi(shot.styled!);
    const drive = detect({ plain, styled: shot.styled }, profile);
    const allow = drive.command ? [drive.command, "npm run build", "touch"] : ["npm run build"];
    const styled = classifyCapture(drive, plain, allow);
    const bare = classifyCapture(detect({ plain }, profile), plain, allow);
    if (styled.verb === "approve") approvals++;
    if ((styled.verb === "approve") !== (bare.verb === "approve")) {
      differ.push(
        `${shot.name}: drive ${styled.verb} ${styled.reason}, plain ${bare.verb} ${bare.reason}`,
      );
    }
  }
  assert.deepEqual(differ, []);
  assert.ok(approvals >= 8, `only ${approvals} approvals to compare`);
});

// The case, through the commands a user runs: `drover detect` and `drover __classify` on
// the plain 2.1.197 capture read `npm run build`, and it is approved as on the styled capture.
Deno.test("one reading: drover detect and drover __classify read the same command on a plain 2.1.197 capture", async () => {
  for (const v of ["2.1.197", "2.1.332"]) {
    const file = `${FIXTURES}claude-code/${v}/bash-prompt-npm@80x24.txt`;
    const plain = await Deno.readTextFile(file);
    const d = await drover(["--json", "detect", file]);
    assert.equal(d.code, 0, d.stderr);
    const c = await drover(["--json", "__classify", "--allow", "npm run build"], { stdin: plain });
    assert.equal(c.code, 0, c.stderr);
    const det = JSON.parse(d.stdout).data;
    const cls = JSON.parse(c.stdout).data;
    assert.equal(det.command, "npm run build", v);
    assert.equal(cls.command, det.command, v);
    assert.equal(cls.line, "drover-classify/1\tapprove\tallowlisted\t1\t1\t-\tnpm run build", v);
  }
});

Deno.test("one reading: the pending call above the modal tells the command from its description only when it matches", () => {
  const profile = resolveProfile("claude", EMPTY_CONFIG);
  const npm = Deno.readTextFileSync(`${FIXTURES}claude-code/2.1.197/bash-prompt-npm@120x40.txt`);
  assert.equal(detect({ plain: npm }, profile).command, "npm run build");
  // Hand-made edits of that recorded screen:
  // a second command line in the modal: the call would show it too; here it does not match, so
  // the whole block stays the command (never approved as one line)
  const twoLines = npm.replace(/^( +)npm run build( *)$/m, "$1npm run build$2\n$1make deploy");
  const t = detect({ plain: twoLines }, profile);
  assert.equal(t.command, "npm run build\nmake deploy\nBuild the project");
  assert.equal(t.command_block, null);
  // the call scrolled away (or another block between it and the modal): no corroboration
  const noCall = npm.replace("● Bash(npm run build)", "● Read(package.json)");
  assert.equal(detect({ plain: noCall }, profile).command, "npm run build\nBuild the project");
  const far = npm.replace(/^.*Waiting….*$/m, (l) => `${l}\n  more\n  and more`);
  assert.notEqual(far, npm);
  assert.equal(detect({ plain: far }, profile).command, "npm run build\nBuild the project");
  // a call cut short (`…`) is no proof either
  const cut = npm.replace("● Bash(npm run build)", "● Bash(npm run b…)");
  assert.equal(detect({ plain: cut }, profile).command, "npm run build\nBuild the project");
});
