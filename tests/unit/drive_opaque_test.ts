/**
 * Code that runs code (lib/shell/opaque.ts, issue 25): every command of the issue's table escalates
 * with its wrapper allowlisted, naming the form; every other opaque form does too, through any
 * prefix; only an entry equal to the whole command approves one; ordinary commands stay
 * allowlistable; `config check`'s notes say what a bare interpreter or runner entry approves.
 */
import assert from "node:assert/strict";
import { classifyCommand } from "../../lib/shell/allowlist.ts";
import { allowEntryNote } from "../../lib/shell/allow_note.ts";
import { findOpaque } from "../../lib/shell/opaque.ts";
import { sedMayExecute } from "../../lib/shell/opaque_interpreters.ts";

/** The issue's table: allow entry → command on a real Claude Code 2.1.332 prompt → the form. */
export const ISSUE_TABLE: { allow: string; command: string; form: string }[] = [
  {
    allow: "node -e",
    command: `node -e "require('child_process').execSync('rm -rf ~')"`,
    form: "node -e",
  },
  {
    allow: "python3 -c",
    command: `python3 -c "import shutil; shutil.rmtree('/home')"`,
    form: "python3 -c",
  },
  { allow: "perl -e", command: `perl -e 'system("rm -rf ~")'`, form: "perl -e" },
  {
    allow: "deno",
    command: `deno eval 'Deno.removeSync("/home",{recursive:true})'`,
    form: "deno eval",
  },
  { allow: "git", command: `git -c core.pager='rm -rf ~' log`, form: "git -c" },
  { allow: "git", command: `git -c alias.x='!rm -rf ~' x`, form: "git -c" },
  { allow: "npx", command: "npx rimraf ~", form: "npx" },
  { allow: "npm", command: "npm exec -- rimraf ~", form: "npm exec" },
  { allow: "awk", command: `awk 'BEGIN{system("rm -rf ~")}'`, form: "awk system()" },
];

for (const row of ISSUE_TABLE) {
  Deno.test(`opaque: ${JSON.stringify(row.command)} with "${row.allow}" allowlisted → opaque: ${row.form}`, () => {
    const v = classifyCommand(row.command, [row.allow, "npm run build"]);
    assert.deepEqual(
      v.decision === "opaque" ? [v.decision, v.form] : v,
      ["opaque", row.form],
    );
    // every prefix of the command as an entry: still never approved
    const words = row.command.split(" ");
    for (let n = 1; n < words.length; n++) {
      const prefix = words.slice(0, n).join(" ");
      assert.equal(classifyCommand(row.command, [prefix]).decision, "opaque", prefix);
    }
  });
}

Deno.test("opaque: npm run build, allowlisted, is still approved", () => {
  assert.deepEqual(classifyCommand("npm run build", ["npm run build", "node -e", "npx"]), {
    decision: "allow",
    matched: ["npm run build"],
  });
});

Deno.test("opaque: only an entry equal to the whole command approves it", () => {
  const cmd = `node -e "console.log(process.version)"`;
  assert.deepEqual(classifyCommand(cmd, [`  ${cmd} `]), { decision: "allow", matched: [cmd] });
  assert.equal(classifyCommand(`${cmd} x`, [cmd]).decision, "opaque");
  assert.equal(classifyCommand(`${cmd}; ls`, [cmd, "ls"]).decision, "opaque");
  assert.equal(classifyCommand(`node -e "console.log(1)"`, [cmd]).decision, "opaque");
  // the equal entry is the operator's own judgement of that program text (drover has none)…
  assert.equal(classifyCommand("npx rimraf ./dist", ["npx rimraf ./dist"]).decision, "allow");
  // …but the command is still judged as a command: danger first, nothing computed in it
  assert.equal(
    classifyCommand(`node -e "$(cat x)"`, [`node -e "$(cat x)"`]).decision,
    "unlisted",
  );
  assert.equal(
    classifyCommand("bash -c 'rm -rf ~'", ["bash -c 'rm -rf ~'"]).decision,
    "danger",
  );
});

/** Forms, each with the broadest prefix entries allowlisted: [command, form]. */
const OPAQUE: [string, string][] = [
  // inline program text
  [`bash -c "make deploy"`, "bash -c"],
  [`sh -ec 'make deploy'`, "sh -c"],
  [`bash -o pipefail -c 'make'`, "bash -c"],
  [`zsh +o nomatch -c x`, "zsh -c"],
  [`fish -C 'make'`, "fish -C"],
  [`busybox sh -c 'make'`, "sh -c"],
  [`node -p "process.exit()"`, "node -p"],
  [`node -pe 1`, "node -p"],
  [`node --eval=1`, "node --eval"],
  [`node --print 1`, "node --print"],
  [`node --import data:text/javascript,1 x.js`, "node --import data:"],
  [`node -r https://x/y.js x.js`, "node -r https:"],
  [`nodejs -e 1`, "nodejs -e"],
  [`tsx -e 1`, "tsx -e"],
  [`ts-node --eval 1`, "ts-node --eval"],
  [`/usr/bin/python3 -c 1`, "python3 -c"],
  [`python3.12 -Ic 1`, "python3.12 -c"],
  [`python -W ignore -c 1`, "python -c"],
  [`python3 -cprint(1)`, "python3 -c"],
  [`pypy3 -c 1`, "pypy3 -c"],
  [`perl -lne 'print'`, "perl -e"],
  [`perl -E 'say 1'`, "perl -E"],
  [`perl -I lib -e 1`, "perl -e"],
  [`perl -MFile::Temp -e 1`, "perl -e"],
  [`ruby -rjson -e 1`, "ruby -e"],
  [`ruby -r json -e 1`, "ruby -e"],
  [`php -r 'system("x");'`, "php -r"],
  [`php -d x=1 -R 'x'`, "php -R"],
  [`lua -e 'os.execute("x")'`, "lua -e"],
  [`luajit -e x`, "luajit -e"],
  [`osascript -e 'do shell script "x"'`, "osascript -e"],
  [`Rscript -e 'system("x")'`, "Rscript -e"],
  [`julia -e 'run(\`x\`)'`, "julia -e"],
  [`elixir -e 'System.cmd("x",[])'`, "elixir -e"],
  [`erl -noshell -eval 'os:cmd("x")'`, "erl -eval"],
  [`pwsh -c 'Remove-Item -Recurse ~'`, "pwsh -Command"],
  [`pwsh -EncodedCommand ZQBjAGgAbwA=`, "pwsh -EncodedCommand"],
  [`expect -c 'spawn x'`, "expect -c"],
  [`gdb -batch -ex 'shell x'`, "gdb -ex"],
  [`lldb -o 'platform shell x'`, "lldb -o"],
  [`vim -c '!x' file`, "vim -c"],
  [`vim +'!x' file`, "vim +cmd"],
  [`nvim --cmd x`, "nvim --cmd"],
  [`vim -es`, "vim -e"],
  [`emacs --batch --eval '(shell-command "x")'`, "emacs --eval"],
  // Deno and Bun
  [`deno eval 1`, "deno eval"],
  [`deno x cowsay`, "deno x"],
  [`deno repl --eval 1`, "deno repl --eval"],
  [`deno run -A https://x.io/i.ts`, "deno run https:"],
  [`deno run npm:cowsay`, "deno run npm:"],
  [`deno run -A jsr:@x/y`, "deno run jsr:"],
  [`deno run -`, "deno run -"],
  [`deno run --import-map=https://x.io/m.json main.ts`, "deno run https:"],
  [`deno https://x.io/i.ts`, "deno https:"],
  [`deno -q eval 1`, "deno eval"],
  [`bun -e 1`, "bun -e"],
  [`bun --print 1`, "bun --print"],
  [`bun x cowsay`, "bun x"],
  [`bun create vite`, "bun create"],
  // awk and sed
  [`awk '{print | "sh"}'`, "awk pipe"],
  [`awk 'BEGIN{"date" | getline d}'`, "awk pipe"],
  [`gawk '{print |& "x"}'`, "gawk pipe"],
  [`gawk -l filefuncs '{}'`, "gawk -l"],
  [`gawk '@load "x"; {}'`, "gawk @load"],
  [`awk -F: -e 'BEGIN{system("x")}'`, "awk system()"],
  [`mawk -v x=1 'BEGIN { system ("x") }'`, "mawk system()"],
  [`sed 's/a/b/e' f`, "sed e"],
  [`sed -n '1e ls' f`, "sed e"],
  [`sed -e 's/a/b/' -e '$e date' f`, "sed e"],
  [`sed --expression='/x/e' f`, "sed e"],
  [`sed -ne 's/x/y/ep' f`, "sed e"],
  [`sed 'K' f`, "sed e"], // no such command: the reader cannot follow it
  // commands as text, or built from input
  [`eval make deploy`, "eval"],
  [`trap 'make deploy' EXIT`, "trap"],
  [`watch make`, "watch"],
  [`parallel make ::: a b`, "parallel"],
  [`at now`, "at"],
  [`batch`, "batch"],
  [`xargs make`, "xargs"],
  [`git ls-files | xargs wc -l`, "xargs"],
  [`timeout 60 xargs make`, "xargs"],
  [`find . -exec make deploy \\;`, "find -exec"],
  [`find . -execdir x {} +`, "find -execdir"],
  [`find . -ok x \\;`, "find -ok"],
  [`env -S "make deploy"`, "env -S"],
  [`env -iS "make"`, "env -S"],
  [`env --split-string="make"`, "env -S"],
  [`script -qc make /dev/null`, "script -c"],
  [`flock /tmp/l -c make`, "flock -c"],
  [`ssh host make deploy`, "ssh HOST COMMAND"],
  [`ssh -p 22 -i key host ls`, "ssh HOST COMMAND"],
  [`ssh -o ProxyCommand='sh -c x' host`, "ssh -o ProxyCommand"],
  [`ssh -oLocalCommand=x -oPermitLocalCommand=yes host`, "ssh -o LocalCommand"],
  [`scp -S ./x a host:`, "scp -S"],
  [`scp -o 'ProxyCommand x' a host:`, "scp -o ProxyCommand"],
  [`sftp -b cmds host`, "sftp -b"],
  [`rsync -e 'sh -c x' a b:`, "rsync -e"],
  [`rsync -avze ssh a b:`, "rsync -e"],
  [`rsync --rsync-path='x' a b:`, "rsync --rsync-path"],
  [`rsync --rsh=x a b:`, "rsync --rsh"],
  [`tar --to-command='sh -c x' -xf a.tar`, "tar --to-command"],
  [`tar --checkpoint=1 --checkpoint-action=exec=x -cf a.tar .`, "tar --checkpoint-action"],
  [`tar -I 'sh -c x' -xf a.tar`, "tar -I"],
  [`tar -xIf zstd a.tar`, "tar -I"],
  [`tar xIf zstd a.tar`, "tar -I"],
  [`tar --use-compress-program=x -xf a`, "tar --use-compress-program"],
  [`tar -F ./x -cf a .`, "tar -F"],
  [`zip -T -TT 'sh -c x' a.zip f`, "zip -TT"],
  [`make --eval='x: ; y' x`, "make --eval"],
  [`make -E 'x: ; y' x`, "make --eval"],
  [`make -f - all`, "make -f -"],
  [`make --file=/dev/stdin`, "make -f -"],
  [`make SHELL='sh -c x' all`, "make SHELL="],
  [`tmux send-keys -t 0 make Enter`, "tmux send-keys"],
  [`tmux -L x run-shell make`, "tmux run-shell"],
  [`tmux new-window make`, "tmux new-window"],
  [`tmux -c make`, "tmux -c"],
  // git
  [`git -c core.pager=x log`, "git -c"],
  [`git -ccore.pager=x log`, "git -c"],
  [`git -C repo -c x=y status`, "git -c"],
  [`git --config-env=core.pager=X log`, "git --config-env"],
  [`git --exec-path=/tmp/x status`, "git --exec-path"],
  [`git config alias.x '!make deploy'`, "git alias !"],
  [`git config --global alias.st '!sh'`, "git alias !"],
  [`git config core.pager 'sh -c x'`, "git config core.pager"],
  [`git config --local core.sshCommand x`, "git config core.sshCommand"],
  [`git config set core.fsmonitor x`, "git config core.fsmonitor"],
  [`git config include.path /tmp/x`, "git config include.path"],
  [`git config filter.x.smudge x`, "git config filter.x.smudge"],
  [`git rebase --exec make main`, "git rebase --exec"],
  [`git rebase -x make main`, "git rebase --exec"],
  [`git bisect run make`, "git bisect run"],
  [`git submodule foreach make`, "git submodule foreach"],
  [`git difftool --extcmd=x`, "git difftool --extcmd"],
  [`git grep -O x foo`, "git grep -O"],
  [`git fetch --upload-pack=x origin`, "git fetch --upload-pack"],
  [`git clone -u x repo`, "git clone --upload-pack"],
  [`git push --receive-pack=x origin`, "git push --receive-pack"],
  [`git archive --remote=x --exec=y HEAD`, "git archive --exec"],
  [`git send-email --sendmail-cmd=x a.patch`, "git send-email --sendmail-cmd"],
  // package runners
  [`npx tsc --noEmit`, "npx"],
  [`pnpx x`, "pnpx"],
  [`bunx x`, "bunx"],
  [`uvx ruff`, "uvx"],
  [`dx cowsay`, "dx"],
  [`dnx x`, "dnx"],
  [`npm x rimraf`, "npm x"],
  [`npm --prefix dir exec rimraf`, "npm exec"],
  [`npm create vite`, "npm create"],
  [`npm init vite`, "npm init <package>"],
  [`npm explore x -- make`, "npm explore"],
  [`npm test --script-shell=./x`, "npm --script-shell"],
  [`pnpm dlx x`, "pnpm dlx"],
  [`pnpm exec x`, "pnpm exec"],
  [`pnpm create x`, "pnpm create"],
  [`yarn dlx x`, "yarn dlx"],
  [`yarn exec x`, "yarn exec"],
  [`yarn create x`, "yarn create"],
  [`corepack pnpm dlx x`, "pnpm dlx"],
  [`uv tool run ruff`, "uv tool run"],
  [`uv run https://x.io/s.py`, "uv run https:"],
  [`pipx run x`, "pipx run"],
  [`gem exec x`, "gem exec"],
  [`go run example.com/x@latest`, "go run pkg@version"],
  [`go test -exec=./x ./...`, "go test -exec"],
  [`nix run nixpkgs#hello`, "nix run"],
  [`nix shell nixpkgs#x --command make`, "nix shell --command"],
  [`nix-shell -p x --run make`, "nix-shell --run"],
  [`dotnet dnx x`, "dotnet dnx"],
  // variables that inject code
  [`LD_PRELOAD=/tmp/x.so npm test`, "LD_PRELOAD="],
  [`NODE_OPTIONS='--require ./x.js' npm test`, "NODE_OPTIONS="],
  [`env GIT_SSH_COMMAND=x git fetch`, "GIT_SSH_COMMAND="],
  [`env -i PAGER=x git log`, "PAGER="],
  [`PATH=./bin npm test`, "PATH="],
  [
    `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=x git log`,
    "GIT_CONFIG_COUNT=",
  ],
  // wherever the program's name appears
  [`docker run --rm node:22 node -e 1`, "node -e"],
  [`timeout 5 python3 -c 1`, "python3 -c"],
  [`nice -n 5 npx x`, "npx"],
  [`cd x && node -e 1`, "node -e"],
  [`echo "$(node -e 1)"`, "node -e"],
  [`cat <(npx x)`, "npx"],
];

for (const [cmd, form] of OPAQUE) {
  Deno.test(`opaque: ${JSON.stringify(cmd)} → ${form}`, () => {
    assert.equal(findOpaque(cmd)?.form, form, cmd);
    const words = cmd.split(" ");
    // every proper prefix of its words as an entry (the whole command would be its own judgement)
    const allow = words.slice(0, -1).map((_, n) => words.slice(0, n + 1).join(" "));
    const v = classifyCommand(cmd, [...allow, "cd", "echo", "cat", "timeout", "nice", "docker"]);
    assert.notEqual(v.decision, "allow", `${cmd}: ${JSON.stringify(v)}`);
  });
}

/** Ordinary commands: no opaque form, and their prefix entry still approves them. */
const PLAIN: [string, string][] = [
  ["npm run build", "npm run build"],
  ["npm test -- --grep exec", "npm test"],
  ["npm install exec", "npm install"],
  ["npm init -y", "npm init"],
  ["pnpm build", "pnpm build"],
  ["yarn test", "yarn test"],
  ["node scripts/migrate.js --dry-run", "node"],
  ["node --test tests/", "node"],
  ["python3 -m pytest -c pytest.ini", "python3"],
  ["python3 manage.py test -c x", "python3"],
  ["perl script.pl -e", "perl"],
  ["bash deploy-check.sh -c", "bash"],
  ["bash -x build.sh", "bash"],
  ["git status", "git"],
  ["git commit -m 'use node -e less'", "git"],
  ["git config core.pager", "git"],
  ["git config --get alias.st", "git"],
  ["git diff -c HEAD", "git"],
  ["git log --grep=exec", "git"],
  ["git fetch -u origin", "git"],
  ["deno run -A main.ts", "deno"],
  ["deno task build", "deno"],
  ["deno test -A tests/", "deno"],
  ["deno fmt --check", "deno"],
  ["bun test", "bun"],
  ["bun run build", "bun"],
  ["awk '{print $1}' f", "awk"],
  ["awk -F: '$3 > 0 || $4 { print $1 }' /etc/passwd", "awk"],
  ["awk -f prog.awk data", "awk"],
  ["sed -i 's/a/b/g' f", "sed"],
  ["sed -n '1,5p' f", "sed"],
  ["sed -E 's/(a|b)/c/; /^$/d' f", "sed"],
  ["sed 's|/usr|/opt|w out.txt' f", "sed"],
  ["sed -e :a -e '$!N; s/\\n//; ta' f", "sed"],
  ["sed 'y/abc/xyz/' f", "sed"],
  ["sed '/x/a\\\nadded' f", "sed"],
  ["tar -czf out.tgz dir", "tar"],
  ["tar xzf a.tgz", "tar"],
  ["rsync -avz --delete src/ dst/", "rsync"],
  ["ssh host", "ssh"],
  ["ssh -p 2222 host", "ssh"],
  ["find . -name '*.ts'", "find"],
  ["make test", "make"],
  ["make -C sub -f Makefile.ci all CC=clang", "make"],
  ["tmux list-panes -a", "tmux"],
  ["tmux capture-pane -p -t x", "tmux"],
  ["echo look at this", "echo"],
  ["echo please watch the batch", "echo"],
  ["go run ./cmd/x", "go"],
  ["go test ./...", "go"],
  ["uv run pytest", "uv"],
  ["ENV=production npm start", "ENV=production npm start"],
  ["vim +42 f", "vim"],
  ["timeout 60 npm test", "timeout 60 npm test"],
];

for (const [cmd, entry] of PLAIN) {
  Deno.test(`opaque: ${JSON.stringify(cmd)} is not opaque; "${entry}" approves it`, () => {
    assert.equal(findOpaque(cmd), undefined, `${cmd}: ${findOpaque(cmd)?.form}`);
    assert.equal(classifyCommand(cmd, [entry]).decision, "allow", cmd);
  });
}

Deno.test("opaque: sed scripts — the e command and flag, and what the reader cannot follow", () => {
  for (
    const s of ["e", "1e ls", "s/a/b/e", "s/a/b/ge", "/x/,/y/{e date\n}", "$!e", "s/a/b", "k", "s"]
  ) {
    assert.equal(sedMayExecute(s), true, s);
  }
  for (
    const s of [
      "p",
      "s/a/b/g",
      "1,3d;$q",
      "/^#/!s#x#y#2",
      "y/ab/cd/",
      "a hello",
      ":a;N;ba",
      "s/e/E/w e.txt",
    ]
  ) {
    assert.equal(sedMayExecute(s), false, s);
  }
});

Deno.test("opaque: the reason names the form; random text never throws", () => {
  const v = classifyCommand(`node -e "require('child_process').execSync('id')"`, ["node"]);
  assert.deepEqual(v, {
    decision: "opaque",
    form: "node -e",
    detail: "node -e require('child_process').execSync('id')",
  });
  const alphabet = [
    "node",
    "-e",
    "git",
    "-c",
    "npx",
    "awk",
    "sed",
    "'",
    '"',
    " ",
    "|",
    ";",
    "$(",
    ")",
    "e",
    "s/",
    "/",
  ];
  let seed = 11;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let n = 0; n < 3000; n++) {
    let s = "";
    for (let k = Math.floor(rnd() * 20); k > 0; k--) {
      s += alphabet[Math.floor(rnd() * alphabet.length)];
    }
    findOpaque(s);
    sedMayExecute(s);
  }
});

Deno.test("config check notes: what an interpreter, runner or wrapper entry approves, and not", () => {
  assert.match(allowEntryNote("node -e")!, /^names only node -e: it approves no command/);
  assert.match(allowEntryNote("npx")!, /^names only npx: it approves no command/);
  assert.match(allowEntryNote("npm exec")!, /^names only npm exec/);
  assert.match(allowEntryNote("git -c")!, /^names only git -c/);
  assert.match(allowEntryNote("node")!, /approves `node FILE …`.*never inline code \(`-e`, `-p`/);
  assert.match(allowEntryNote("python3")!, /never inline code \(`python3 -c`\)/);
  assert.match(allowEntryNote("deno")!, /never `deno eval`, `deno x`/);
  assert.match(allowEntryNote("git")!, /never `git -c`, `--config-env`/);
  assert.match(allowEntryNote("npm")!, /approves package scripts.*never `npm exec`, `npm x`/);
  assert.match(allowEntryNote("awk")!, /never those that do/);
  assert.match(allowEntryNote("bash")!, /never inline code \(`bash -c …`\)/);
  assert.match(allowEntryNote("timeout")!, /^names only the wrapper timeout/);
  assert.match(allowEntryNote("npx tsc")!, /^is opaque \(npx\): it approves exactly this command/);
  for (const quiet of ["npm run build", "npm test", "git status", "ls", "", "node scripts/x.js"]) {
    assert.equal(allowEntryNote(quiet), null, quiet);
  }
});
