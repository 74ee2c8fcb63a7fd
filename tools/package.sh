#!/bin/sh
# Package one release archive, as the release workflow does for each target and
# tests/e2e/install_test.ts does for the archives its local server hands to install.sh:
#   tools/package.sh BINARY TARGET OUTDIR
# writes OUTDIR/drover-TARGET.tar.gz holding drover-TARGET/{drover,sweep.sh,README.md,LICENSE}.
# The asset names carry no version, so ".../releases/latest/download/drover-TARGET.tar.gz" always
# names the newest release. Run from the repository root.
set -eu

bin=${1:?usage: tools/package.sh BINARY TARGET OUTDIR}
target=${2:?usage: tools/package.sh BINARY TARGET OUTDIR}
out=${3:?usage: tools/package.sh BINARY TARGET OUTDIR}

name="drover-$target"
stage=$(mktemp -d "${TMPDIR:-/tmp}/drover-package.XXXXXX")
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage/$name" "$out"
cp "$bin" "$stage/$name/drover"
cp sweep/sweep.sh README.md LICENSE "$stage/$name/"
chmod 755 "$stage/$name/drover" "$stage/$name/sweep.sh"
chmod 644 "$stage/$name/README.md" "$stage/$name/LICENSE"
tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
echo "packaged $out/$name.tar.gz"
