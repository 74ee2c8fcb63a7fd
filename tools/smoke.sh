#!/bin/sh
# Smoke test of one drover binary, as the release workflow runs it on each platform's runner and
# tests/e2e/install_test.ts runs it on what install.sh installed:
#   tools/smoke.sh BINARY [EXPECTED_VERSION]
# Checks `--version`, `detect` on a recorded Claude Code permission prompt (the embedded profile
# must recognise it) and `__prompt-profile` (what sweep.sh reads). Run from the repository root.
set -eu

bin=${1:?usage: tools/smoke.sh BINARY [EXPECTED_VERSION]}
want=${2:-}
fixture=tests/fixtures/claude-code/2.1.197/bash-prompt@120x40.txt

fail() {
  echo "smoke: $*" >&2
  exit 1
}

version=$("$bin" --version) || fail "$bin --version failed"
if [ -n "$want" ] && [ "$version" != "$want" ]; then
  fail "$bin --version printed '$version', expected '$want'"
fi
echo "smoke: --version $version"

[ -f "$fixture" ] || fail "fixture $fixture is missing (run from the repository root)"
verdict=$("$bin" --json detect --cli claude "$fixture") || fail "detect exited non-zero"
for want_field in '"ok":true' '"state":"prompt"' '"live_prompt":true'; do
  printf '%s\n' "$verdict" | grep -qF "$want_field" ||
    fail "detect on $fixture: no $want_field in: $verdict"
done
echo "smoke: detect sees a live prompt"

profile=$("$bin" __prompt-profile --format tsv) || fail "__prompt-profile exited non-zero"
first=$(printf '%s\n' "$profile" | sed -n 1p)
case $first in
"#drover-prompt-profile	"*) echo "smoke: __prompt-profile $(printf '%s\n' "$profile" | wc -l | tr -d ' ') lines" ;;
*) fail "__prompt-profile header is '$first'" ;;
esac
echo "smoke: ok"
