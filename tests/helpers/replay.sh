#!/usr/bin/env bash
# A replay double: shows a recorded screen byte-exact in its pane and records every byte it is
# sent. Usage: replay.sh DIR   (DIR holds "screen"; optional "next" shown on SIGUSR1; optional
# "onkey-XX" shown when the byte with hex code XX arrives; received bytes are appended to "keys").
dir=$1
export LC_ALL=C
show() {
  printf '\033[0m\033[H\033[2J'
  # Command substitution drops the trailing newlines that would scroll the first line away.
  printf '%s' "$(cat "$1")"
}
switch_next() {
  if [[ -f "$dir/next" ]]; then
    show "$dir/next"
    : >"$dir/switched"
  fi
}
trap switch_next USR1
# Input raw (every byte as it comes, no echo, no signals); output still maps \n to \r\n.
stty raw -echo opost onlcr
show "$dir/screen"
echo $$ >"$dir/pid"
: >"$dir/ready"
# dd, not bash's read: read -n re-enables ICRNL and ISIG on the terminal, which would turn Enter
# into \n and C-c into a signal. dd runs in the background so that `wait` (unlike a foreground
# command) lets the USR1 trap run at once.
exec 3<&0
reader=
while :; do
  if [[ -z "$reader" ]]; then
    rm -f "$dir/byte"
    dd bs=1 count=1 of="$dir/byte" 2>/dev/null <&3 &
    reader=$!
  fi
  wait "$reader"
  st=$?
  ((st > 128)) && kill -0 "$reader" 2>/dev/null && continue
  reader=
  # No byte: the terminal is gone (dd reads EOF or fails once the pane or its server died, or the
  # test's folder was removed). Without this exit the loop would spin on for ever after a test run
  # was killed.
  [[ -s "$dir/byte" ]] || exit 0
  cat "$dir/byte" >>"$dir/keys"
  hex=$(od -An -tx1 "$dir/byte")
  hex=${hex//[[:space:]]/}
  if [[ -f "$dir/onkey-$hex" ]]; then
    show "$dir/onkey-$hex"
  fi
done
