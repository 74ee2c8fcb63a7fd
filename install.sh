#!/bin/sh
# drover installer: downloads the release archive for this machine, checks it against the
# release's SHA256SUMS, and installs `drover` and `sweep.sh` (replacing an older install in place).
#
#   curl -fsSL https://github.com/OWNER/REPO/releases/latest/download/install.sh | sh
#   curl -fsSL .../install.sh | sh -s -- --prefix /opt/drover/bin --version v0.1.0
#   sh install.sh [--prefix DIR] [--version vX.Y.Z]
#
# --prefix DIR   where drover and sweep.sh go (default: ~/.local/bin; /usr/local/bin as root)
# --version TAG  a release tag (default: the latest release)
# DROVER_BASE_URL  the directory holding drover-<target>.tar.gz and SHA256SUMS (http://, https://
#                  or file://); overrides the GitHub release URL and --version
#
# Exit codes: 0 installed; 1 failed (download, extract, prefix not writable, the new binary does
# not run, a directory where a file belongs, a file that cannot be replaced: whatever was already
# replaced is put back, and the message says so); 2 usage; 3 unsupported platform; 4 a required
# tool is missing (curl or wget, sha256sum or shasum, tar); 5 checksum mismatch or no checksum for
# the archive.
#
# POSIX sh only. Everything runs from `main` on the last line, so a download cut short runs nothing.

# The publish job of .github/workflows/release.yml rewrites this line with the real repository.
DROVER_REPO_DEFAULT="drover/drover"

say() {
  printf 'drover-install: %s\n' "$*" >&2
}

die() {
  code=$1
  shift
  printf 'drover-install: error: %s\n' "$*" >&2
  exit "$code"
}

usage() {
  cat <<'EOF'
usage: install.sh [--prefix DIR] [--version TAG]
  --prefix DIR   install drover and sweep.sh into DIR (default ~/.local/bin, /usr/local/bin as root)
  --version TAG  install this release tag instead of the latest
  DROVER_BASE_URL=URL  fetch drover-<target>.tar.gz and SHA256SUMS from URL (http, https, file)
EOF
}

# The release target triple of this machine, or exit 3.
detect_target() {
  os=$(uname -s 2>/dev/null) || os=unknown
  arch=$(uname -m 2>/dev/null) || arch=unknown
  case $arch in
  x86_64 | amd64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch64 ;;
  *) die 3 "unsupported platform: $os $arch (releases exist for x86_64 and aarch64 Linux and macOS)" ;;
  esac
  case $os in
  Linux)
    # The binaries link glibc; on a musl system (Alpine) they would not start.
    for f in /lib/ld-musl-*; do
      [ -e "$f" ] && die 3 "unsupported platform: $os $arch with musl libc (releases link glibc)"
    done
    printf '%s\n' "$arch-unknown-linux-gnu"
    ;;
  Darwin)
    # An x86_64 shell under Rosetta on Apple silicon still gets the native binary.
    if [ "$arch" = x86_64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null)" = 1 ]; then
      arch=aarch64
    fi
    printf '%s\n' "$arch-apple-darwin"
    ;;
  *) die 3 "unsupported platform: $os $arch (releases exist for x86_64 and aarch64 Linux and macOS)" ;;
  esac
}

# fetch URL FILE: http(s) through curl or wget; file:// is a plain copy.
fetch() {
  case $1 in
  file://*)
    cp "${1#file://}" "$2" 2>/dev/null || die 1 "cannot read ${1#file://}"
    ;;
  *)
    if command -v curl >/dev/null 2>&1; then
      curl -fsSL --retry 2 -o "$2" "$1" || die 1 "download failed: $1"
    elif command -v wget >/dev/null 2>&1; then
      wget -q -O "$2" "$1" || die 1 "download failed: $1"
    else
      die 4 "neither curl nor wget is installed; install one of them (or use a file:// DROVER_BASE_URL)"
    fi
    ;;
  esac
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    die 4 "neither sha256sum nor shasum is installed; cannot verify the download"
  fi
}

# The expected hash of archive $2 according to the SHA256SUMS file $1 ("HASH  NAME" lines).
expected_sha256() {
  while read -r hash name; do
    if [ "$name" = "$2" ] || [ "$name" = "*$2" ]; then
      printf '%s\n' "$hash"
      return 0
    fi
  done <"$1"
  return 1
}

# put_back "FILES": after a failed install, give every file in FILES (already replaced) its
# previous version back, or remove it when there was none; $undone says what came of it. A
# previous version that cannot be put back stays in the staging directory, which is then kept.
put_back() {
  undone=
  for p in $1; do
    if [ -e "$stage/old.$p" ] || [ -L "$stage/old.$p" ]; then
      if mv -f "$stage/old.$p" "$prefix/$p" 2>/dev/null; then
        undone="${undone}put back the previous $p; "
      else
        undone="${undone}COULD NOT put back the previous $p: it is kept as $stage/old.$p; "
        keep_stage=1
      fi
    elif rm -f "$prefix/$p" 2>/dev/null; then
      undone="${undone}removed the new $p; "
    else
      undone="${undone}COULD NOT remove the new $prefix/$p; "
    fi
  done
  if [ -n "${keep_stage:-}" ]; then
    stage=
  elif [ -n "$undone" ]; then
    undone="${undone}the previous install is as it was"
  else
    undone="nothing was changed"
  fi
}

main() {
  set -eu
  prefix=
  version=
  while [ $# -gt 0 ]; do
    case $1 in
    --prefix)
      [ $# -ge 2 ] || die 2 "--prefix needs a directory"
      prefix=$2
      shift 2
      ;;
    --prefix=*)
      prefix=${1#--prefix=}
      shift
      ;;
    --version)
      [ $# -ge 2 ] || die 2 "--version needs a release tag (e.g. v0.1.0)"
      version=$2
      shift 2
      ;;
    --version=*)
      version=${1#--version=}
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage >&2
      die 2 "unknown argument: $1"
      ;;
    esac
  done

  if [ -z "$prefix" ]; then
    if [ "$(id -u)" = 0 ]; then
      prefix=/usr/local/bin
    elif [ -n "${HOME:-}" ]; then
      prefix=$HOME/.local/bin
    else
      die 2 "HOME is not set; say where to install with --prefix DIR"
    fi
  fi

  target=$(detect_target) || exit $?
  command -v tar >/dev/null 2>&1 || die 4 "tar is not installed; it unpacks the release archive"
  archive="drover-$target.tar.gz"
  if [ -n "${DROVER_BASE_URL:-}" ]; then
    base=${DROVER_BASE_URL%/}
  elif [ -n "$version" ]; then
    base="https://github.com/$DROVER_REPO_DEFAULT/releases/download/$version"
  else
    base="https://github.com/$DROVER_REPO_DEFAULT/releases/latest/download"
  fi

  tmp=$(mktemp -d "${TMPDIR:-/tmp}/drover-install.XXXXXX") || die 1 "cannot create a temporary directory"
  stage=
  trap 'rm -rf "$tmp" ${stage:+"$stage"}' EXIT
  trap 'exit 1' INT TERM HUP

  say "downloading $base/$archive"
  fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS"
  fetch "$base/$archive" "$tmp/$archive"
  want=$(expected_sha256 "$tmp/SHA256SUMS" "$archive") ||
    die 5 "SHA256SUMS at $base has no entry for $archive; refusing to install an unverified archive"
  got=$(sha256_of "$tmp/$archive") || exit $?
  if [ "$got" != "$want" ]; then
    die 5 "checksum mismatch for $archive: expected $want, got $got; nothing was installed"
  fi
  say "checksum ok ($got)"

  mkdir "$tmp/x"
  tar -xzf "$tmp/$archive" -C "$tmp/x" || die 1 "cannot unpack $archive"
  src="$tmp/x/drover-$target"
  for f in drover sweep.sh; do
    [ -f "$src/$f" ] || die 1 "$archive holds no drover-$target/$f"
  done
  new_version=$("$src/drover" --version 2>/dev/null) ||
    die 1 "the downloaded drover does not run on this machine ($target); nothing was installed"

  mkdir -p "$prefix" 2>/dev/null || die 1 "cannot create $prefix (choose another with --prefix DIR)"
  # A directory where drover or sweep.sh belongs would take the file inside it (mv into a
  # directory) and the install would look done: refused, like anything else that is not a file.
  for f in drover sweep.sh; do
    if [ -d "$prefix/$f" ]; then
      die 1 "$prefix/$f is a directory: drover installs a file there, never into it; remove it or choose another --prefix DIR (nothing was changed)"
    fi
    if [ -e "$prefix/$f" ] && [ ! -f "$prefix/$f" ]; then
      die 1 "$prefix/$f is not a regular file; remove it or choose another --prefix DIR (nothing was changed)"
    fi
  done
  # Stage inside the prefix so each final step is a rename on one filesystem: an existing drover
  # or sweep.sh is either the old file or the new one, never a partial copy, and a drover that is
  # running (a drive loop) keeps its old inode instead of failing with "text file busy".
  stage=$(mktemp -d "$prefix/.drover-install.XXXXXX" 2>/dev/null) ||
    die 1 "$prefix is not writable (choose another with --prefix DIR, or run as its owner)"
  cp "$src/drover" "$src/sweep.sh" "$stage/" || die 1 "cannot copy into $prefix (nothing was changed)"
  chmod 755 "$stage/drover" "$stage/sweep.sh"
  old_version=
  if [ -f "$prefix/drover" ] && [ -x "$prefix/drover" ]; then
    old_version=$("$prefix/drover" --version 2>/dev/null) || old_version=unknown
  fi
  # Keep what is installed now, to put back if a later step fails: a hard link (the same file, and
  # the installed one stays in place meanwhile), else a copy.
  for f in drover sweep.sh; do
    if [ -e "$prefix/$f" ] || [ -L "$prefix/$f" ]; then
      ln -P "$prefix/$f" "$stage/old.$f" 2>/dev/null || cp -p "$prefix/$f" "$stage/old.$f" 2>/dev/null ||
        die 1 "cannot keep a copy of $prefix/$f to put back on failure (nothing was changed)"
    fi
  done
  # All or nothing: every file renamed into place, or every one already replaced put back.
  replaced=
  for f in sweep.sh drover; do
    if ! err=$(mv -f "$stage/$f" "$prefix/$f" 2>&1); then
      put_back "$replaced"
      die 1 "cannot replace $prefix/$f (${err:-mv failed}); $undone"
    fi
    replaced="$replaced $f"
  done

  if [ -n "$old_version" ]; then
    say "upgraded drover $old_version -> $new_version in $prefix"
  else
    say "installed drover $new_version in $prefix"
  fi
  case ":${PATH:-}:" in
  *":$prefix:"*) ;;
  *) say "$prefix is not on your PATH; add it, e.g. export PATH=\"$prefix:\$PATH\"" ;;
  esac
  say "next: drover verify"
}

main "$@"
