#!/usr/bin/env bash
# sweep.sh — drover's shell helper for supervisors and cron (bash + tmux + grep + drover only).
#
# Every marker and regex comes from ONE `drover __prompt-profile --format tsv` call per CLI, read
# with `IFS=$'\t' read -r` and used only as a regex operand — never eval'd, never executed. This
# file holds no marker of any CLI. The safety rules of `approve` are compiled here, mirroring
# drover's own gate (DESIGN §6): orchestrator refusal, one claim per pane, a fresh capture that
# re-confirms a live permission prompt, option 1 only (the digit, or Enter on a choice row whose
# first choice the styled capture shows selected), broad-grant refusal, dialog refusal.
# `classify` keeps no rule at all: drover judges (`drover __classify`), the script words the line.
#
# Usage: sweep.sh [-L name | -S path] [--config FILE] [--cli NAME] [--session S] <command> [args]
#   snapshot                 last lines of every pane of the session, with drover's verdicts
#   capture <pane>           the capture sweep.sh judges (visible screen, wrapped lines joined)
#   approve <pane>           answer option 1 of a live permission prompt, through the bash gate
#   approve-eval             capture on stdin (capture-pane -p -e -J) -> what approve would press
#                            there, or its refusal (exit code as approve's); sends nothing
#   classify [--allow P]...  capture on stdin (capture-pane -p -e -J) -> one verdict line: the
#                            decision `drover drive --approve allowlist` takes, from drover itself
#   detect-stuck             stuck shapes of every pane of the session, one report per dedup window
#   stuck-eval <agent> [prompt-age-seconds]   capture on stdin -> stuck shape of one agent
# <pane> is a tmux pane id (%12) or session:window.pane.
#
# Exit codes: 0 ok / approved; 2 usage; 3 drover or tmux missing / failed; 4 pane not found;
# 5 format version mismatch between this script and drover; 124 stopped by SWEEP_TIME_LIMIT;
# approve refusals: 10 orchestrator, 11 claimed, 12 no live prompt, 13 dialog, 14 broad grant,
# 15 no option 1, 16 prompt changed before the send, 17 sent but the prompt is still live,
# 18 option 1 / the first choice is no one-time yes (a rejection such as "No", or a mode switch),
# 19 the pane's window has synchronize-panes on, 20 the 1 landed in an input line (nothing more
# sent), 74 something that is not a regular file (a symlink, FIFO, directory) stands at the
# pane's claim path, or no private per-user runtime directory can hold a claim (nothing sent).
# Claims live where drover's do (`drover __claim-paths`), whatever the environment.
#
# Environment: DROVER (the drover binary; default: drover on PATH), XDG_RUNTIME_DIR (the stuck
# state; never the claims), SWEEP_STATE_DIR, SWEEP_DEDUP_SECONDS (300), SWEEP_PROMPT_STUCK_SECONDS (120),
# SWEEP_CONTEXT_BLOAT_K (250), SWEEP_CONTEXT_USED_PCT (90), SWEEP_TIME_LIMIT (120: seconds a
# command may run before it is stopped with exit 124 — a backtracking profile pattern cannot wedge
# a cron sweep), SWEEP_MEMORY_LIMIT_MB (512: the script's own address space, drover and tmux
# excluded; a pattern bash cannot compile within it stops the command with exit 3).

set -u
export LC_ALL=C.UTF-8
shopt -s extglob nocasematch

# The versions of drover's machine formats this script reads. drover checks the profile one too
# (--format-version), so a script and a binary from different releases refuse each other loudly.
readonly PROFILE_FORMAT_VERSION=3
readonly PANES_FORMAT_VERSION=1
readonly CLASSIFY_FORMAT_VERSION=1
readonly CLAIM_PATHS_FORMAT_VERSION=1

# The liveness windows and the decoration class are compiled constants of drover (DESIGN §5);
# they arrive on the same __prompt-profile call (rows named _<constant>) and are checked here.
readonly CLAIM_TTL_SECONDS=10

die() {
  local code=$1
  shift
  printf 'sweep.sh: %s\n' "$*" >&2
  exit "$code"
}

usage() {
  sed -n '2,/^$/p' "${BASH_SOURCE[0]}" 2>/dev/null | sed 's/^# \{0,1\}//' >&2 ||
    printf 'usage: sweep.sh [-L name|-S path] <snapshot|capture|approve|classify|detect-stuck|stuck-eval> ...\n' >&2
  exit "${1:-2}"
}

ORIG_ARGS=("$@")
TMUX_ARGS=()
DROVER_ARGS=()
CLI=""
SESSION="${DROVER_SESSION:-}"
while (($# > 0)); do
  case "$1" in
  -L)
    (($# >= 2)) || usage
    TMUX_ARGS=(-L "$2")
    DROVER_ARGS+=(-L "$2")
    shift 2
    ;;
  -S)
    (($# >= 2)) || usage
    TMUX_ARGS=(-S "$2")
    DROVER_ARGS+=(-S "$2")
    shift 2
    ;;
  --config)
    (($# >= 2)) || usage
    DROVER_ARGS+=(--config "$2")
    shift 2
    ;;
  --cli)
    (($# >= 2)) || usage
    CLI=$2
    shift 2
    ;;
  --session)
    (($# >= 2)) || usage
    SESSION=$2
    shift 2
    ;;
  -h | --help | help) usage 0 ;;
  --) shift && break ;;
  -*) printf 'sweep.sh: unknown option %s\n' "$1" >&2 && usage ;;
  *) break ;;
  esac
done

DROVER_BIN="${DROVER:-}"
if [[ -z "$DROVER_BIN" ]]; then
  DROVER_BIN=$(command -v drover 2>/dev/null) || DROVER_BIN=""
fi

need_drover() {
  [[ -n "$DROVER_BIN" ]] || die 3 "drover not found: put it on PATH or set DROVER=/path/to/drover"
}

need_tmux() {
  command -v tmux >/dev/null 2>&1 || die 3 "tmux not found on PATH (need tmux >= 3.2)"
}

drover_run() {
  # drover is not held to this script's memory limit (see run_bounded): V8 reserves address space.
  (
    ulimit -S -v "$(ulimit -H -v)" 2>/dev/null
    exec "$DROVER_BIN" "${DROVER_ARGS[@]}" "$@"
  )
}

# drover_out ARGS... -> OUT (stdout), ERR (stderr), RC. stderr is kept apart so a warning can
# never be parsed as data.
drover_out() {
  local errf
  errf=$(mktemp "${TMPDIR:-/tmp}/sweep-err.XXXXXX") || die 3 "mktemp failed"
  OUT=$(drover_run "$@" 2>"$errf")
  RC=$?
  ERR=$(<"$errf")
  rm -f -- "$errf"
}

t() {
  tmux "${TMUX_ARGS[@]}" "$@"
}

# tmux ends a command at an argument's final ";" (a final "\;" is a literal ";"), and a session
# name may end in one: every name handed to tmux goes through this to stay one argument.
tmux_data() {
  local s=$1
  [[ "$s" == *";" ]] && s="${s%;}\\;"
  printf '%s' "$s"
}

# ---------------------------------------------------------------------------------------------
# Profile: one __prompt-profile call per CLI, parsed field by field into PROF_<cli>.

declare -A PROF=()
declare -A PROF_LOADED=()

# load_profile CLI — fills PROF["<cli>|<name>"]=<ere> for every row. "" = drover's default CLI.
load_profile() {
  local cli=$1 out rc first=1 name ere k
  [[ -n "${PROF_LOADED[$cli.]:-}" ]] && return 0
  need_drover
  local args=(__prompt-profile --format tsv --format-version "$PROFILE_FORMAT_VERSION")
  [[ -n "$cli" ]] && args+=(--cli "$cli")
  drover_out "${args[@]}"
  out=$OUT rc=$RC
  if ((rc != 0)); then
    if [[ "$ERR" == *FORMAT_MISMATCH* ]]; then
      die 5 "drover refused this script: ${ERR//$'\n'/ }"
    fi
    die 3 "drover __prompt-profile failed (exit $rc): ${ERR//$'\n'/ }"
  fi
  while IFS=$'\t' read -r name ere; do
    if ((first)); then
      first=0
      if [[ "$name" != "#drover-prompt-profile" ]]; then
        die 5 "drover __prompt-profile printed no format version line (this sweep.sh reads format $PROFILE_FORMAT_VERSION); drover and sweep.sh are from different releases — use the script from \`drover sweep-script\`"
      fi
      if [[ "$ere" != "$PROFILE_FORMAT_VERSION" ]]; then
        die 5 "profile format version mismatch: drover prints format $ere, this sweep.sh reads format $PROFILE_FORMAT_VERSION — use the script from \`drover sweep-script\`"
      fi
      continue
    fi
    [[ -z "$name" || "$name" == \#* ]] && continue
    PROF["$cli|$name"]=$ere
  done <<<"$out"
  ((first == 0)) || die 3 "drover __prompt-profile printed nothing"
  for k in _live_tail _live_block _shifted_max_below _shifted_option_above _bottom_region \
    _input_line_window; do
    [[ "${PROF["$cli|$k"]:-}" =~ ^[0-9]{1,3}$ ]] ||
      die 5 "drover __prompt-profile gave no valid $k constant; drover and sweep.sh do not match"
  done
  [[ -n "${PROF["$cli|_decoration_class"]:-}" && -n "${PROF["$cli|_live_option_line"]:-}" &&
    -n "${PROF["$cli|_shell_prompt_end"]:-}" && -n "${PROF["$cli|_select_glyphs"]:-}" ]] ||
    die 5 "drover __prompt-profile gave no decoration/option/shell/selection constants; drover and sweep.sh do not match"
  split_header_markers "$cli"
  split_choice_markers "$cli"
  PROF_LOADED[$cli.]=1
}

# p CLI NAME — the ERE of a row ("" when the profile has none).
p() {
  printf '%s' "${PROF["$1|$2"]:-}"
}

# split_header_markers CLI — command_header_markers holds two forms: an inline one ending in "("
# and a whole-line header; both count only at the start of the stripped line (a rule named
# mid-sentence, "such as Bash(*)", is no tool call). The alternation is split at unescaped "|"
# into PROF[cli|_inline_headers] and PROF[cli|_line_headers].
split_header_markers() {
  local cli=$1 inline=() line=() a
  split_alternation "$(p "$cli" command_header_markers)"
  local alts=("${ALTS[@]}")
  for a in "${alts[@]}"; do
    if [[ "$a" == *'\(' ]]; then inline+=("$a"); else line+=("$a"); fi
  done
  PROF["$cli|_inline_headers"]=""
  if ((${#inline[@]} > 0)); then
    PROF["$cli|_inline_headers"]="^($(
      IFS='|'
      printf '%s' "${inline[*]}"
    ))"
  fi
  PROF["$cli|_line_headers"]=""
  if ((${#line[@]} > 0)); then
    PROF["$cli|_line_headers"]="^($(
      IFS='|'
      printf '%s' "${line[*]}"
    ))"
  fi
}

# split_alternation ERE -> ALTS: the top-level alternatives of an ERE (split at unescaped "|").
split_alternation() {
  local ere=$1 alt="" c i
  ALTS=()
  for ((i = 0; i < ${#ere}; i++)); do
    c=${ere:i:1}
    if [[ "$c" == '\' ]]; then
      alt+="$c${ere:i+1:1}"
      i=$((i + 1))
    elif [[ "$c" == '|' ]]; then
      ALTS+=("$alt")
      alt=""
    else
      alt+=$c
    fi
  done
  [[ -n "$alt" ]] && ALTS+=("$alt")
}

# split_choice_markers CLI — choice_row_markers (an un-numbered choice row, e.g. OpenCode's) is an
# alternation of escaped literals, in the order the row shows them. Unescaped, one
# per element (as written; matched case-insensitively), into PROF[cli|_choice_<n>] and
# PROF[cli|_choice_count].
split_choice_markers() {
  local cli=$1 a n=0 lit c i
  split_alternation "$(p "$cli" choice_row_markers)"
  for a in "${ALTS[@]}"; do
    lit=""
    for ((i = 0; i < ${#a}; i++)); do
      c=${a:i:1}
      if [[ "$c" == '\' ]]; then
        i=$((i + 1))
        c=${a:i:1}
      fi
      lit+=$c
    done
    PROF["$cli|_choice_$n"]=$lit
    n=$((n + 1))
  done
  PROF["$cli|_choice_count"]=$n
}

# ---------------------------------------------------------------------------------------------
# Text helpers (pure bash; no subshell per line).

# strip_decoration LINE -> STRIPPED (leading whitespace and box/bullet glyphs, never a bare ">";
# trailing whitespace dropped) and LEAD (what was stripped in front). Needs DECO_RE.
strip_decoration() {
  local s=$1
  if re_ok "$s" "$DECO_RE"; then
    LEAD=${BASH_REMATCH[0]}
    s=${s:${#LEAD}}
  else
    LEAD=""
  fi
  STRIPPED=${s%%+([[:space:]])}
}

# mi LINE ERE — marker lists: case-insensitive (nocasematch is on); an empty ERE never matches.
mi() {
  [[ -n "$2" ]] || return 1
  re_ok "$1" "$2"
}

# re_ok LINE ERE — [[ =~ ]] that fails closed: a pattern bash cannot compile or run (malformed, or
# out of memory under SWEEP_MEMORY_LIMIT_MB) stops the command (exit 3) instead of reading as "no
# match", which would let e.g. a broad-grant marker go unseen.
re_ok() {
  [[ $1 =~ $2 ]]
  local rc=$?
  ((rc < 2)) || die 3 "bash cannot run a profile pattern (${2:0:80}…): malformed or too large for SWEEP_MEMORY_LIMIT_MB; check the profile with \`drover config check\`"
  return $rc
}

# mp LINE ERE — pattern fields: matched as given (the ERE carries its own case rule).
mp() {
  [[ -n "$2" ]] || return 1
  local rc=1
  shopt -u nocasematch
  re_ok "$1" "$2" && rc=0
  shopt -s nocasematch
  return $rc
}

# split_lines TEXT -> LINES (every line, \r dropped)
split_lines() {
  local line
  LINES=()
  while IFS= read -r line || [[ -n "$line" ]]; do
    LINES+=("${line//$'\r'/}")
  done <<<"$1"
}

# Split a capture into NB (non-blank lines) and NBI (each one's line index in the capture).
split_nb() {
  local i
  split_lines "$1"
  NB=() NBI=()
  for ((i = 0; i < ${#LINES[@]}; i++)); do
    if [[ "${LINES[i]}" == *[![:space:]]* ]]; then
      NB+=("${LINES[i]}")
      NBI+=("$i")
    fi
  done
}

# Escape sequences of a styled capture (capture-pane -e), as drover's detectors read them
# (lib/detect/text.ts): SGR sets the style; any other sequence is skipped alone.
readonly RE_SGR=$'^\e\\[([0-9;:]*)m'
readonly RE_CSI=$'^\e\\[[0-?]*[ -/]*[@-~]'
readonly RE_OSC=$'^\e[]][^\a\e]*(\a|\e\\\\)?'
readonly RE_STR=$'^\e[P^_][^\e]*(\e\\\\)?'
readonly RE_ESC2=$'^\e[@-Z\\-_]'

# is_grey_fg FG — the foreground reads as grey/dim: palette 7/8, 237-250, or an unsaturated mid
# RGB (mirrors isGreyFg in lib/detect/text.ts).
is_grey_fg() {
  local fg=$1
  [[ "$fg" == p7 || "$fg" == p8 ]] && return 0
  if [[ "$fg" =~ ^p([0-9]+)$ ]]; then
    local n=$((10#${BASH_REMATCH[1]}))
    ((n >= 237 && n <= 250))
    return
  fi
  if [[ "$fg" =~ ^rgb\(([0-9]+),([0-9]+),([0-9]+)\)$ ]]; then
    local r=$((10#${BASH_REMATCH[1]})) g=$((10#${BASH_REMATCH[2]})) b=$((10#${BASH_REMATCH[3]}))
    local hi=$r lo=$r
    ((g > hi)) && hi=$g
    ((b > hi)) && hi=$b
    ((g < lo)) && lo=$g
    ((b < lo)) && lo=$b
    ((hi - lo <= 24 && r >= 90 && r <= 190))
    return
  fi
  return 1
}

# num X — a parameter as JS Number(x) || 0 reads it.
num() {
  if [[ "$1" =~ ^[0-9]{1,9}$ ]]; then NUM=$((10#$1)); else NUM=0; fi
}

# sgr_walk LINE -> SW_TEXT (the visible text) and its runs of equally styled text: SW_AT[k] (the
# column run k starts at), SW_RUN[k] (its text), SW_BRIGHT[k] (1: neither dim nor a grey
# foreground, or inverse — how a TUI draws the selected choice), SW_BG[k] (its background: d,
# p<n> or rgb(r,g,b), as drover's styledChars keys it).
sgr_walk() {
  local rest=$1 dim=0 inv=0 fg=d bg=d chunk k
  local -a ps
  SW_TEXT="" SW_AT=() SW_RUN=() SW_BRIGHT=() SW_BG=()
  shopt -u nocasematch
  while [[ -n "$rest" ]]; do
    if [[ "$rest" != $'\e'* ]]; then
      chunk=${rest%%$'\e'*}
      SW_AT+=("${#SW_TEXT}")
      SW_RUN+=("$chunk")
      if ((!dim)) && { ((inv)) || ! is_grey_fg "$fg"; }; then SW_BRIGHT+=(1); else SW_BRIGHT+=(0); fi
      SW_BG+=("$bg")
      SW_TEXT+=$chunk
      rest=${rest:${#chunk}}
    elif [[ "$rest" =~ $RE_SGR ]] && ((${#BASH_REMATCH[0]} <= 64)); then
      rest=${rest:${#BASH_REMATCH[0]}}
      IFS=';:' read -r -a ps <<<"${BASH_REMATCH[1]}"
      ((${#ps[@]} > 0)) || ps=(0)
      for ((k = 0; k < ${#ps[@]}; k++)); do
        num "${ps[k]}"
        case $NUM in
        0) dim=0 inv=0 fg=d bg=d ;;
        2) dim=1 ;;
        22) dim=0 ;;
        7) inv=1 ;;
        27) inv=0 ;;
        3[0-7]) fg=p$((NUM - 30)) ;;
        9[0-7]) fg=p$((NUM - 90 + 8)) ;;
        39) fg=d ;;
        4[0-7]) bg=p$((NUM - 40)) ;;
        10[0-7]) bg=p$((NUM - 100 + 8)) ;;
        49) bg=d ;;
        38 | 48)
          local kind=$NUM sub
          num "${ps[k + 1]:-}"
          sub=$NUM
          if ((sub == 5)); then
            num "${ps[k + 2]:-}"
            if ((kind == 38)); then fg=p$NUM; else bg=p$NUM; fi
            k=$((k + 2))
          elif ((sub == 2)); then
            local r g b
            num "${ps[k + 2]:-}"
            r=$NUM
            num "${ps[k + 3]:-}"
            g=$NUM
            num "${ps[k + 4]:-}"
            b=$NUM
            if ((kind == 38)); then fg="rgb($r,$g,$b)"; else bg="rgb($r,$g,$b)"; fi
            k=$((k + 4))
          fi
          ;;
        esac
      done
    elif [[ "$rest" =~ $RE_CSI || "$rest" =~ $RE_OSC || "$rest" =~ $RE_STR || "$rest" =~ $RE_ESC2 ]]; then
      rest=${rest:${#BASH_REMATCH[0]}}
    else
      rest=${rest:1}
    fi
  done
  shopt -s nocasematch
}

# plain_of TEXT -> PLAIN: a styled capture without its escape sequences (what capture-pane -p shows).
plain_of() {
  local line out=()
  split_lines "$1"
  for line in "${LINES[@]}"; do
    if [[ "$line" == *$'\e'* ]]; then
      sgr_walk "$line"
      out+=("$SW_TEXT")
    else
      out+=("$line")
    fi
  done
  PLAIN=$(printf '%s\n' "${out[@]}")
}

# styled_line I -> walks (sgr_walk) the styled form of plain line I: the same line when the two
# captures line up, else the lowest styled line with the same text (as drover's styledLine).
# Returns 1 when there is none. Needs LINES (plain) and SLINES (styled).
styled_line() {
  local i=$1 want k n=${#SLINES[@]}
  want=${LINES[i]%%+([[:space:]])}
  if ((n == ${#LINES[@]})); then
    sgr_walk "${SLINES[i]}"
    [[ "${SW_TEXT%%+([[:space:]])}" == "$want" ]] && return 0
  fi
  for ((k = n - 1; k >= 0; k--)); do
    sgr_walk "${SLINES[k]}"
    [[ "${SW_TEXT%%+([[:space:]])}" == "$want" ]] && return 0
  done
  return 1
}

# choice_bright C0 C1 — every visible character of columns [C0, C1) of the walked line is bright,
# and there is one.
choice_bright() {
  local c0=$1 c1=$2 k s e a b seen=0 part
  for ((k = 0; k < ${#SW_AT[@]}; k++)); do
    s=${SW_AT[k]}
    e=$((s + ${#SW_RUN[k]}))
    ((e <= c0 || s >= c1)) && continue
    a=$((s > c0 ? s : c0))
    b=$((e < c1 ? e : c1))
    part=${SW_RUN[k]:a-s:b-a}
    [[ "$part" == *[![:space:]]* ]] || continue
    seen=1
    ((SW_BRIGHT[k])) || return 1
  done
  ((seen))
}

# choice_bg C0 C1 -> CBG: the one background every visible character of columns [C0, C1) of the
# walked line is drawn on; "" when they differ or there is none.
choice_bg() {
  local c0=$1 c1=$2 k s e a b part
  CBG=""
  local seen=0
  for ((k = 0; k < ${#SW_AT[@]}; k++)); do
    s=${SW_AT[k]}
    e=$((s + ${#SW_RUN[k]}))
    ((e <= c0 || s >= c1)) && continue
    a=$((s > c0 ? s : c0))
    b=$((e < c1 ? e : c1))
    part=${SW_RUN[k]:a-s:b-a}
    [[ "$part" == *[![:space:]]* ]] || continue
    if ((seen)) && [[ "${SW_BG[k]}" != "$CBG" ]]; then
      CBG=""
      return 0
    fi
    CBG=${SW_BG[k]} seen=1
  done
}

# row_bg FROM -> RBG: the background most characters of the walked line from column FROM on are
# drawn on (the row's own, after its last choice); "" on a tie or when there are none.
row_bg() {
  local from=$1 k s e n best="" top=0 second=0 key
  local -A cnt=()
  for ((k = 0; k < ${#SW_AT[@]}; k++)); do
    s=${SW_AT[k]}
    e=$((s + ${#SW_RUN[k]}))
    ((e <= from)) && continue
    n=$((e - (s > from ? s : from)))
    cnt["${SW_BG[k]}"]=$((${cnt["${SW_BG[k]}"]:-0} + n))
  done
  for key in "${!cnt[@]}"; do
    n=${cnt[$key]}
    if ((n > top)); then
      second=$top top=$n best=$key
    elif ((n > second)); then
      second=$n
    fi
  done
  RBG=""
  ((top > 0 && top > second)) && RBG=$best
}

# choice_row CLI RS RE -> CHOICE (0/1: a choice row in NB[RS..RE]), CHOICE1 (its first choice),
# CHOICE1_SEL (0/1: the first choice is the one selected): the lowest line carrying every
# choice_row_markers entry in order; selected = the only choice drawn bright in the styled capture,
# or, when every choice is bright, the only one on a background of its own (not the row's).
choice_row() {
  local cli=$1 rs=$2 re=$3 k n count low from at m rest pre cols bright
  CHOICE=0 CHOICE1="" CHOICE1_SEL=0
  count=${PROF["$cli|_choice_count"]:-0}
  ((count > 0)) || return 0
  for ((k = re; k >= rs; k--)); do
    low=${NB[k],,}
    cols=() from=0
    for ((n = 0; n < count; n++)); do
      m=${PROF["$cli|_choice_$n"],,}
      rest=${low:from}
      pre=${rest%%"$m"*}
      [[ "$pre" == "$rest" ]] && break
      at=$((from + ${#pre}))
      cols+=("$at")
      from=$((at + ${#m}))
    done
    ((${#cols[@]} == count)) || continue
    CHOICE=1
    # The text as the profile spells it (drover reports the marker, not the screen's case).
    CHOICE1=${PROF["$cli|_choice_0"]}
    ((${#SLINES[@]} > 0)) || return 0
    styled_line "${NBI[k]}" || return 0
    bright=()
    for ((n = 0; n < count; n++)); do
      m=${PROF["$cli|_choice_$n"]}
      if choice_bright "${cols[n]}" $((cols[n] + ${#m})); then bright+=(1); else bright+=(0); fi
    done
    local lit=0
    for m in "${bright[@]}"; do ((m)) && lit=$((lit + 1)); done
    if ((lit == count)); then
      # Every choice bright: the background tells (as drover's selectedChoices).
      m=${PROF["$cli|_choice_$((count - 1))"]}
      row_bg $((cols[count - 1] + ${#m}))
      lit=0 bright=()
      for ((n = 0; n < count; n++)); do
        m=${PROF["$cli|_choice_$n"]}
        choice_bg "${cols[n]}" $((cols[n] + ${#m}))
        if [[ -n "$RBG" && -n "$CBG" && "$CBG" != "$RBG" ]]; then
          bright+=(1) lit=$((lit + 1))
        else
          bright+=(0)
        fi
      done
    fi
    ((lit == 1 && bright[0] == 1)) && CHOICE1_SEL=1
    return 0
  done
}

# is_rule LINE — a horizontal rule (only ─-like glyphs, at least 3), as TUIs draw around input.
is_rule() {
  local t=${1##+([[:space:]])}
  t=${t%%+([[:space:]])}
  ((${#t} >= 3)) && [[ $t =~ ^[─━═╌┄-]+$ && $t =~ [─━═╌┄] ]]
}

# is_full_rule LINE — a solid ─ rule: the top of a modal, as drover's modalTop reads it.
is_full_rule() {
  local t=${1##+([[:space:]])}
  t=${t%%+([[:space:]])}
  ((${#t} >= 3)) && [[ $t =~ ^─+$ ]]
}

# begins_with TEXT ERE — TEXT begins with one of the ERE's words, as a whole word.
begins_with() {
  [[ -n "$2" ]] || return 1
  local t=${1##+([[:space:]])}
  [[ $t =~ ^($2)([^[:alnum:]]|$) ]]
}

# column_entry K — NB[K] continues the choice column COL_* describes (same text column, no glyph).
column_entry() {
  local k=$1 l lead
  ((k > COL_TOP && k <= COL_END)) || return 1
  l=${NB[k]}
  is_rule "$l" && return 1
  option_at "$l" && return 1
  [[ "$l" == *["$COL_SEL"]* ]] && return 1
  lead=${l%%[![:space:]]*}
  ((${#lead} == COL_COL))
}

# choice_column TOP END SEL — an un-numbered choice list in the modal (below NB index TOP, up to
# END), as drover's choiceColumnOf reads it: the lowest line "❯ text" (not a numbered option),
# and the lines right above and below whose text starts in the same column. Two entries at
# least: sets CHOICE=1, CHOICE1 (the first entry), CHOICE1_SEL and COLUMN=1.
choice_column() {
  local i j first n text re
  COL_TOP=$1 COL_END=$2 COL_SEL=$3
  re="^([[:space:]]*)([$COL_SEL])([[:space:]]+)([^[:space:]].*)$"
  for ((i = COL_END; i > COL_TOP; i--)); do
    [[ ${NB[i]} =~ $re ]] || continue
    COL_COL=$((${#BASH_REMATCH[1]} + 1 + ${#BASH_REMATCH[3]}))
    text=${BASH_REMATCH[4]}
    option_at "${NB[i]}" && continue
    first=$i n=1
    for ((j = i - 1; n < 8 && j >= 0; j--)); do
      ((NBI[j] == NBI[j + 1] - 1)) && column_entry "$j" || break
      first=$j n=$((n + 1))
    done
    for ((j = i + 1; n < 8; j++)); do
      ((j <= COL_END && NBI[j] == NBI[j - 1] + 1)) && column_entry "$j" || break
      n=$((n + 1))
    done
    ((n >= 2)) || return 0
    CHOICE=1 COLUMN=1
    if ((first == i)); then
      CHOICE1=$text CHOICE1_SEL=1
    else
      strip_decoration "${NB[first]}"
      CHOICE1=$STRIPPED CHOICE1_SEL=0
    fi
    CHOICE1=${CHOICE1%%+([[:space:]│┃║])}
    return 0
  done
}

# not_affirmative TEXT — option 1's wording is no one-time yes: it begins with a rejection,
# names a mode switch, or begins with no wording every gate list calls affirmative (the shipped
# profiles' wordings always count; the CLI's profile only adds refusals or narrows the yes).
not_affirmative() {
  begins_with "$1" "$GATE_REJECTION" || mi "$1" "$GATE_MODE_SWITCH" ||
    ! begins_with "$1" "$GATE_AFFIRMATIVE" || ! begins_with "$1" "$GATE_AFFIRMATIVE_OWN"
}

# ---------------------------------------------------------------------------------------------
# The gate, mirroring drover's detectors (lib/detect/) line for line where it matters:
# analyze CLI CAPTURE [STYLED] sets
#   LIVE (0/1), PERM (0/1), NUMBERED (0/1: numbered options on the prompt),
#   OPT1 (text of option 1, "" when none), OPT1_SEL (0/1),
#   BROAD1 (0/1: option 1 carries the broad-grant marker), FP (fingerprint of the prompt),
#   CHOICE, CHOICE1, CHOICE1_SEL (an un-numbered choice row; see choice_row).
# STYLED is the capture-pane -e form of the same screen (needed to see a selected choice).

# option_at LINE — a numbered option line (option_line_pattern on the stripped line).
option_at() {
  strip_decoration "$1"
  mp "$STRIPPED" "$OPT_RE"
}

# input_box CLI — the CLI's input line on NB (lib/detect/input.ts): BOX_AT = its NB index (-1:
# none), IN_BOX[i]=1 for its lines. input_line_pattern when the profile has one (the lowest match
# among the last _input_line_window lines that is no option line); else the bordered "│ ❯ … │"
# form or the open "❯ …" form between two rules (last one wins).
input_box() {
  local cli=$1 n=${#NB[@]} i j k t inner rest
  BOX_AT=-1
  BOX_END=-1
  IN_BOX=()
  BOX_TEXT=""
  local line_re sig_re
  line_re=$(p "$cli" input_line_pattern)
  if [[ -n "$line_re" ]]; then
    local win=${PROF["$cli|_input_line_window"]}
    for ((i = n - 1; i >= 0 && i >= n - win; i--)); do
      mp "${NB[i]}" "$line_re" || continue
      rest=${BASH_REMATCH[1]:-}
      option_at "${NB[i]}" && continue
      BOX_AT=$i
      IN_BOX[i]=1
      box_text "$cli" "$rest"
      return 0
    done
    return 0
  fi
  sig_re=$(p "$cli" input_sigils)
  [[ -n "$sig_re" ]] || return 0
  sig_re="^($sig_re)"
  for ((i = n - 1; i >= 0; i--)); do
    t=${NB[i]##+([[:space:]])}
    t=${t%%+([[:space:]])}
    if [[ "$t" == "│"* ]]; then
      inner=${t#│}
      inner=${inner%%+([[:space:]│])}
      inner=${inner##+([[:space:]])}
      re_ok "$inner" "$sig_re" || continue
      rest=${inner:${#BASH_REMATCH[0]}}
      rest=${rest##+([[:space:]])}
      mp "$rest" "$OPT_RE" && continue
      BOX_AT=$i
      IN_BOX[i]=1
      box_text "$cli" "$rest"
      return 0
    fi
    re_ok "$t" "$sig_re" || continue
    # Open form: a rule directly above, and the first rule below closes it (within 31 lines).
    ((i > 0)) && is_rule "${NB[i - 1]}" || continue
    for ((j = i + 1; j < n; j++)); do is_rule "${NB[j]}" && break; done
    ((j < n && NBI[j] - NBI[i] <= 31)) || continue
    rest=${t:${#BASH_REMATCH[0]}}
    rest=${rest##+([[:space:]])}
    mp "$rest" "$OPT_RE" && continue
    BOX_AT=$i
    BOX_END=$j
    for ((k = i; k < j; k++)); do
      IN_BOX[k]=1
      ((k > i)) && rest+=$'\n'${NB[k]}
    done
    box_text "$cli" "$rest"
    return 0
  done
}

# status_area -> IN_STATUS[i]=1 for the NB lines of the status area (lib/detect/input.ts): under
# an open-form input box, the indented lines below its closing rule, down to the first line in
# column 0. A user's status line is drawn there: none of its words is the CLI's state except the
# profile's status_limit_pattern.
status_area() {
  local n=${#NB[@]} k
  IN_STATUS=()
  ((BOX_END >= 0)) || return 0
  for ((k = BOX_END + 1; k < n; k++)); do
    [[ "${NB[k]}" == [[:space:]]* ]] || break
    IN_STATUS[k]=1
  done
}

# box_text CLI TEXT -> BOX_TEXT: what is typed in the input line ("" for a placeholder hint).
box_text() {
  local ph
  BOX_TEXT=${2##+([[:space:]])}
  BOX_TEXT=${BOX_TEXT%%+([[:space:]])}
  ph=$(p "$1" input_placeholder_markers)
  [[ -n "$ph" && $BOX_TEXT =~ ^($ph) ]] && BOX_TEXT=""
  return 0
}

# ones_in_box -> ONES: how many "1"s are typed in the input line (where a stray digit would land).
ones_in_box() {
  local t=${BOX_TEXT//[^1]/}
  ONES=${#t}
}

# shell_prompt_end LINE — the line ends in a shell prompt sigil (a digit before "%" is a percentage).
shell_prompt_end() {
  local t=${1%%+([[:space:]])} re=${PROF["$CUR_CLI|_shell_prompt_end"]}
  re_ok "$t" "$re" || return 1
  [[ $t =~ [0-9]%$ ]] && return 1
  return 0
}

# contradicted CLI ANCHOR — the layout rule (lib/detect/liveness.ts): below the candidate modal's
# lowest line, the CLI draws what it draws only when no modal is up: its input line, a busy line,
# its ready footer, or a bare shell prompt as the last line. Then the candidate is a copy.
contradicted() {
  local cli=$1 anchor=$2 n=${#NB[@]} i busy_re busy_pat ready_re
  ((BOX_AT > anchor)) && return 0
  busy_re=$(p "$cli" mid_response_markers)
  busy_pat=$(p "$cli" mid_response_pattern)
  ready_re=$(p "$cli" readiness_markers)
  for ((i = n - 1; i > anchor; i--)); do
    [[ -n "${IN_BOX[i]:-}" ]] && continue
    if mi "${NB[i]}" "$busy_re" || mp "${NB[i]}" "$busy_pat" || mi "${NB[i]}" "$ready_re"; then
      return 0
    fi
  done
  ((n - 1 > anchor)) && shell_prompt_end "${NB[n - 1]}" && return 0
  return 1
}

analyze() {
  local cli=$1 cap=$2 sty=${3:-}
  load_profile "$cli"
  DECO_RE="^$(p "$cli" _decoration_class)+"
  OPT_RE=$(p "$cli" option_line_pattern)
  local live_re approval_re inline_re lineh_re file_re broad_re
  live_re=$(p "$cli" live_prompt_markers)
  approval_re=$(p "$cli" approval_markers)
  inline_re=$(p "$cli" _inline_headers)
  lineh_re=$(p "$cli" _line_headers)
  file_re=$(p "$cli" file_prompt_pattern)
  # The gate's own wordings: the shipped profiles' plus this CLI's additions (never fewer).
  broad_re=$(p "$cli" _gate_broad_grant)
  GATE_BROAD=$broad_re
  GATE_REJECTION=$(p "$cli" _gate_rejection)
  GATE_MODE_SWITCH=$(p "$cli" _gate_mode_switch)
  GATE_AFFIRMATIVE=$(p "$cli" _gate_affirmative)
  GATE_AFFIRMATIVE_OWN=$(p "$cli" _gate_affirmative_own)
  local tail=${PROF["$cli|_live_tail"]} block=${PROF["$cli|_live_block"]}
  local max_below=${PROF["$cli|_shifted_max_below"]} above=${PROF["$cli|_shifted_option_above"]}
  SLINES=()
  if [[ -n "$sty" ]]; then
    split_lines "$sty"
    SLINES=("${LINES[@]}")
  fi
  split_nb "$cap"
  CUR_CLI=$cli
  local n=${#NB[@]} i j k x sel=${PROF["$cli|_select_glyphs"]}
  LIVE=0 PERM=0 NUMBERED=0 OPT1="" OPT1_SEL=0 BROAD1=0 FP="" CHOICE=0 CHOICE1="" CHOICE1_SEL=0
  COLUMN=0
  local rs=0 re=$((n - 1)) anchor=-1
  IN_STATUS=() BOX_END=-1
  ((n == 0)) && return 0
  # Typed text is not screen state: the windows run on the lines outside the input line (L).
  input_box "$cli"
  status_area
  local L=()
  for ((i = 0; i < n; i++)); do [[ -n "${IN_BOX[i]:-}" ]] || L+=("$i"); done
  local m=${#L[@]}
  ((m == 0)) && return 0
  local tail_start=$((m > tail ? m - tail : 0))
  local block_start=$((m > block ? m - block : 0))
  # 1. At the true end: a marker in the last 4 non-blank lines, or an option line there while a
  #    marker is within the last 15. The anchor is the lowest marker or option line of the tail.
  local tail_marker=0 tail_option=0 block_marker=0 is_m is_o
  for ((x = block_start; x < m; x++)); do
    i=${L[x]}
    is_m=0 is_o=0
    mi "${NB[i]}" "$live_re" && is_m=1
    ((x >= tail_start)) && option_at "${NB[i]}" && is_o=1
    ((is_m)) && block_marker=1
    ((is_m && x >= tail_start)) && tail_marker=1
    ((is_o)) && tail_option=1
    ((x >= tail_start && (is_m || is_o))) && anchor=$i
  done
  if ((tail_marker || (block_marker && tail_option))); then
    LIVE=1 rs=${L[block_start]} re=${L[m - 1]}
  else
    # 2. Shifted: a line whose stripped text STARTS with a marker (the footer), at most 13
    #    non-blank lines above the end, with an option line among the 6 non-blank lines above it.
    local lowest=$((m - 1 - max_below)) starts="^($live_re)"
    ((lowest < 0)) && lowest=0
    for ((k = m - 1; k >= lowest && !LIVE; k--)); do
      strip_decoration "${NB[L[k]]}"
      [[ -n "$live_re" ]] && re_ok "$STRIPPED" "$starts" || continue
      for ((j = (k - above > 0 ? k - above : 0); j < k; j++)); do
        if option_at "${NB[L[j]]}"; then
          LIVE=1 re=${L[k]} anchor=${L[k]}
          x=$((k - block + 1))
          ((x < 0)) && x=0
          rs=${L[x]}
          break
        fi
      done
    done
  fi
  ((LIVE)) || return 0
  if contradicted "$cli" "$anchor"; then
    LIVE=0
    return 0
  fi
  ((LIVE)) || return 0
  # The modal starts at the nearest solid rule above its end; only the modal is approval-shaped
  # (the turn's "● Bash(…)" line above a notice never makes the notice a permission prompt).
  local top=-1 ms
  for ((i = re; i >= 0; i--)); do
    if is_full_rule "${NB[i]}"; then
      top=$i
      break
    fi
  done
  ms=$rs
  ((top > ms)) && ms=$top
  # Approval-shaped: an approval marker, a command header or a file prompt within the modal.
  local content
  for ((i = ms; i <= re; i++)); do
    strip_decoration "${NB[i]}"
    content=${STRIPPED%%+([[:space:]│┃║])}
    if mi "${NB[i]}" "$approval_re" || mi "$STRIPPED" "$inline_re" ||
      mi "$STRIPPED" "$lineh_re" || mp "$content" "$file_re"; then
      PERM=1
      break
    fi
  done
  # Option 1 = the last option line numbered 1 in the region (drover keeps the last run of
  # options that starts at 1); its selection glyph sits in the stripped lead.
  local m0 num text fp_end=0
  for ((i = rs; i <= re; i++)); do
    strip_decoration "${NB[i]}"
    ((i >= ms)) && FP+="${STRIPPED}"$'\n'
    mp "$STRIPPED" "$OPT_RE" || continue
    m0=${BASH_REMATCH[0]}
    [[ $m0 =~ [0-9]+ ]] || continue
    fp_end=${#FP}
    num=$((10#${BASH_REMATCH[0]}))
    ((num > 0)) && NUMBERED=1
    ((num == 1)) || continue
    text=${STRIPPED#*"$m0"}
    text=${text%%+([[:space:]│┃║])}
    OPT1=${text##+([[:space:]])}
    [[ -n "$OPT1" ]] || OPT1=" "
    if [[ "$LEAD" == *["$sel"]* ]]; then OPT1_SEL=1; else OPT1_SEL=0; fi
    if mi "$OPT1" "$broad_re"; then BROAD1=1; else BROAD1=0; fi
  done
  # The prompt is its modal, from the top rule to the last option (drover's fingerprint is its
  # command and options): lines scrolling by above it, or drawn below the last option (the
  # footer, a digit echoed under it), do not make it another prompt.
  ((fp_end > 0)) && FP=${FP:0:fp_end}
  # Selection moves between captures; the fingerprint must not.
  FP=${FP//["$sel"]/}
  # No numbered option: an un-numbered column (read from its shape, like drover's) or else a
  # choice row the profile describes (both confirmed with Enter) may stand for option 1.
  if ((!NUMBERED)); then
    choice_column "$top" "$re" "$sel"
    ((COLUMN)) || choice_row "$cli" "$rs" "$re"
  fi
}

# verdict: the gate's decision for the analyzed capture -> VERDICT, REASON_CODE, REASON
# (KEY: the key that answers option 1 — "1", or Enter on a choice row; CHOSEN: option 1's text.)
verdict() {
  KEY="" CHOSEN=""
  if ((!LIVE)); then
    VERDICT=refuse REASON_CODE=12 REASON="no-live-prompt"
  elif ((!PERM)); then
    VERDICT=refuse REASON_CODE=13 REASON="dialog"
  elif ((NUMBERED)); then
    if [[ -z "$OPT1" ]]; then
      VERDICT=refuse REASON_CODE=15 REASON="no-option-1"
    elif ((BROAD1)); then
      VERDICT=refuse REASON_CODE=14 REASON="broad-grant"
    elif not_affirmative "$OPT1"; then
      VERDICT=refuse REASON_CODE=18 REASON="not-affirmative"
    else
      VERDICT=approve REASON_CODE=0 REASON="option 1" KEY=1 CHOSEN=$OPT1
    fi
  elif ((CHOICE)); then
    if mi "$CHOICE1" "$GATE_BROAD"; then
      VERDICT=refuse REASON_CODE=14 REASON="broad-grant"
    elif not_affirmative "$CHOICE1"; then
      VERDICT=refuse REASON_CODE=18 REASON="not-affirmative"
    elif ((!CHOICE1_SEL)); then
      # Enter confirms whatever is selected: only when the first choice shows selected.
      VERDICT=refuse REASON_CODE=15 REASON="no-option-1"
    else
      VERDICT=approve REASON_CODE=0 REASON="option 1" KEY=Enter CHOSEN=$CHOICE1
    fi
  else
    VERDICT=refuse REASON_CODE=15 REASON="no-option-1"
  fi
}

# selected_now — option 1 (the numbered one, or the first choice of the row) shows selected.
selected_now() {
  if ((NUMBERED)); then ((OPT1_SEL)); else ((CHOICE && CHOICE1_SEL)); fi
}

# ---------------------------------------------------------------------------------------------
# tmux side

# resolve_pane TARGET -> PANE_ID PANE_TARGET PANE_SESSION (exact match, never tmux's fuzzy lookup)
resolve_pane() {
  local want=$1 id tgt sess out
  need_tmux
  if [[ ! "$want" =~ ^%[0-9]+$ && ! "$want" =~ ^.+:[0-9]+\.[0-9]+$ ]]; then
    die 2 "invalid pane \"$want\": use a pane id (%12) or session:window.pane"
  fi
  out=$(t list-panes -a -F $'#{pane_id}\t#{session_name}:#{window_index}.#{pane_index}\t#{session_name}' 2>&1) ||
    die 3 "tmux list-panes failed: $out"
  while IFS=$'\t' read -r id tgt sess; do
    if [[ "$id" == "$want" || "$tgt" == "$want" ]]; then
      PANE_ID=$id PANE_TARGET=$tgt PANE_SESSION=$sess
      return 0
    fi
  done <<<"$out"
  die 4 "pane $want not found on this tmux server"
}

# synchronized PANE_ID — 0 when some pane of its window has synchronize-panes on: a key sent to
# the pane would be typed into every synchronized pane of the window. An unreadable answer counts
# as synchronized (no key on doubt).
synchronized() {
  local out
  out=$(t list-panes -t "$1" -F '#{synchronize-panes}' 2>/dev/null) || return 0
  [[ $'\n'$out$'\n' == *$'\n'1$'\n'* || -z "$out" ]]
}

# capture_pane PANE_ID -> CAP (visible screen, wrapped lines joined: what drover judges) and CAPS
# (the same screen styled, -e), both from ONE tmux call, split at a separator no screen can forge.
capture_pane() {
  local sep out
  sep="drover-sweep-$$-$RANDOM$RANDOM$RANDOM-$(date +%s%N)"
  # The trailing "." keeps $(…) from eating the newlines of a blank screen (which would lose
  # the separator's own newline and make an empty pane look vanished).
  out=$(t capture-pane -p -J -t "$1" \; display-message -p "$sep" \; capture-pane -p -e -J -t "$1" 2>/dev/null &&
    printf .) || return 1
  out=${out%.}
  [[ "$out" == *$'\n'"$sep"$'\n'* ]] || return 1
  CAP=${out%%$'\n'"$sep"$'\n'*}
  CAPS=${out#*$'\n'"$sep"$'\n'}
  CAPS=${CAPS%%+($'\n')}
}

# pane_row PANE_ID SESSION -> ROW_ROLE ROW_CLI ROW_STATE (from drover's own inventory)
pane_row() {
  local want=$1 session=$2 out first=1 id tgt sess w pidx role cli src state mode
  need_drover
  local args=(panes --session "$session" --format tsv --format-version "$PANES_FORMAT_VERSION")
  [[ -n "$CLI" ]] && args+=(--cli "$CLI")
  drover_out "${args[@]}"
  [[ "$ERR" == *FORMAT_MISMATCH* ]] && die 5 "drover refused this script: ${ERR//$'\n'/ }"
  ((RC == 0)) || die 3 "drover panes failed (exit $RC): ${ERR//$'\n'/ }"
  out=$OUT
  ROW_ROLE="" ROW_CLI="" ROW_STATE=""
  while IFS=$'\t' read -r id tgt sess w pidx role cli src state mode; do
    if ((first)); then
      first=0
      [[ "$id" == "#drover-panes" && "$tgt" == "$PANES_FORMAT_VERSION" ]] ||
        die 5 "drover panes format mismatch: drover prints \"$id $tgt\", this sweep.sh reads format $PANES_FORMAT_VERSION — use the script from \`drover sweep-script\`"
      continue
    fi
    if [[ "$id" == "$want" ]]; then
      ROW_ROLE=$role ROW_CLI=$cli ROW_STATE=$state
      return 0
    fi
  done <<<"$out"
  return 1
}

# ---------------------------------------------------------------------------------------------
# Claims: drover says where a pane's claim lives (`drover __claim-paths`, one definition for the
# binary and this script: the per-user runtime directories derived from the uid, never from
# XDG_RUNTIME_DIR, and a name from the server's socket path and the pane id). So this script,
# `drover approve` and drive exclude each other whatever their environments (cron's `env -i`, a
# shell's XDG_RUNTIME_DIR). The claim is taken at every path, in order; something that is not a
# regular file at a path is never opened nor removed (exit 74).

CLAIM_PATHS=()
CLAIM_TAKEN=()
CLAIM_TOKEN=""
CLAIM_HOLDER=""
CLAIM_HOLDER_PATH=""
CLAIM_WHAT=""

release_claim() {
  local p held
  for p in "${CLAIM_TAKEN[@]}"; do
    if [[ -f "$p" && ! -L "$p" ]]; then
      held=$(head -c 1024 -- "$p" 2>/dev/null) || held=""
      [[ "$held" == "$CLAIM_TOKEN" ]] && rm -f -- "$p"
    fi
  done
  CLAIM_TAKEN=()
}

# claim_paths PANE_ID -> CLAIM_PATHS, from drover. No private runtime directory: refused (74).
claim_paths() {
  local pane=$1 first=1 line
  need_drover
  drover_out __claim-paths --format-version "$CLAIM_PATHS_FORMAT_VERSION" "$pane"
  if ((RC != 0)); then
    [[ "$ERR" == *FORMAT_MISMATCH* ]] && die 5 "drover refused this script: ${ERR//$'\n'/ }"
    ((RC == 74)) && REFUSE_DETAIL="${ERR//$'\n'/ }" refuse 74 claim-path
    die 3 "drover __claim-paths failed (exit $RC): ${ERR//$'\n'/ }"
  fi
  CLAIM_PATHS=()
  while IFS= read -r line; do
    if ((first)); then
      first=0
      [[ "$line" == "drover-claim-paths/$CLAIM_PATHS_FORMAT_VERSION" ]] ||
        die 5 "drover __claim-paths printed \"$line\", this sweep.sh reads format $CLAIM_PATHS_FORMAT_VERSION — use the script from \`drover sweep-script\`"
      continue
    fi
    [[ "$line" == /*.claim ]] || die 5 "drover __claim-paths printed no claim path (\"$line\"); drover and sweep.sh do not match"
    CLAIM_PATHS+=("$line")
  done <<<"$OUT"
  ((${#CLAIM_PATHS[@]} > 0)) || die 3 "drover __claim-paths printed no path"
}

# not_regular PATH — 0 (CLAIM_WHAT set) when something other than a regular file stands there.
not_regular() {
  local p=$1
  CLAIM_WHAT=""
  if [[ -L "$p" ]]; then
    CLAIM_WHAT="a symbolic link"
  elif [[ -d "$p" ]]; then
    CLAIM_WHAT="a directory"
  elif [[ -p "$p" ]]; then
    CLAIM_WHAT="a FIFO"
  elif [[ -e "$p" && ! -f "$p" ]]; then
    CLAIM_WHAT="a socket or device"
  fi
  [[ -n "$CLAIM_WHAT" ]]
}

# claim_create PATH — 0 when this call created the file. Only where nothing is: noclobber (set -C)
# refuses only an existing regular file, and a FIFO would be opened and wait for a reader.
claim_create() {
  [[ ! -e "$1" && ! -L "$1" ]] && (set -C && printf '%s\n' "$CLAIM_TOKEN" >"$1") 2>/dev/null
}

# take_one PATH — 0 taken; 1 held by another approver (CLAIM_HOLDER); 2 not a regular file.
take_one() {
  local path=$1 now mtime ino aside
  CLAIM_HOLDER_PATH=$path CLAIM_HOLDER=""
  not_regular "$path" && return 2
  claim_create "$path" && return 0
  not_regular "$path" && return 2
  now=$(date +%s)
  mtime=$(stat -c %Y -- "$path" 2>/dev/null) || mtime=""
  ino=$(stat -c %i -- "$path" 2>/dev/null) || ino=""
  if [[ -f "$path" && ! -L "$path" ]]; then
    CLAIM_HOLDER=$(head -c 200 -- "$path" 2>/dev/null) || CLAIM_HOLDER=""
    CLAIM_HOLDER=${CLAIM_HOLDER//[![:print:]]/?}
  fi
  # Unknown age is never stale; a fresh claim stands.
  [[ -n "$mtime" && -n "$ino" ]] || return 1
  ((now - mtime > CLAIM_TTL_SECONDS)) || return 1
  aside="$path.stale.$$.$RANDOM"
  mv -- "$path" "$aside" 2>/dev/null || return 1
  if [[ "$(stat -c %i -- "$aside" 2>/dev/null)" != "$ino" || "$(stat -c %Y -- "$aside" 2>/dev/null)" != "$mtime" ]]; then
    # We moved someone's fresh claim: put it back (never over a newer one).
    ln -- "$aside" "$path" 2>/dev/null
    rm -f -- "$aside"
    return 1
  fi
  rm -f -- "$aside"
  claim_create "$path" && return 0
  return 1
}

# take_claim PANE_ID — 0 when every claim path is ours; else take_one's code for the path that
# stopped it (CLAIM_HOLDER_PATH), with nothing held.
take_claim() {
  local pane=$1 path rc
  claim_paths "$pane"
  CLAIM_TOKEN="sweep.sh pid=$$ at=$(date +%s) rand=$RANDOM$RANDOM"
  CLAIM_TAKEN=()
  for path in "${CLAIM_PATHS[@]}"; do
    rc=0
    take_one "$path" || rc=$?
    if ((rc != 0)); then
      release_claim
      return "$rc"
    fi
    CLAIM_TAKEN+=("$path")
  done
  return 0
}

# ---------------------------------------------------------------------------------------------
# Subcommands

cmd_capture() {
  (($# == 1)) || usage
  resolve_pane "$1"
  capture_pane "$PANE_ID" || die 4 "pane $1 vanished"
  printf '%s\n' "$CAP"
}

# classify [--allow PREFIX]... — the capture on stdin judged by drover itself (`drover __classify`):
# the decision `drover drive --approve allowlist` takes for an agent pane, danger rules, allowlist,
# option choice and the approve gate's refusals included. This script adds no rule of its own; it
# only words the binary's one line.
cmd_classify() {
  local allow=()
  while (($# > 0)); do
    case "$1" in
    --allow)
      (($# >= 2)) || usage
      allow+=("$2")
      shift 2
      ;;
    *) usage ;;
    esac
  done
  need_drover
  local args=(__classify --format-version "$CLASSIFY_FORMAT_VERSION") a
  [[ -n "$CLI" ]] && args+=(--cli "$CLI")
  for a in "${allow[@]}"; do args+=(--allow "$a"); done
  drover_out "${args[@]}"
  if ((RC != 0)); then
    [[ "$ERR" == *FORMAT_MISMATCH* ]] && die 5 "drover refused this script: ${ERR//$'\n'/ }"
    die 3 "drover __classify failed (exit $RC): ${ERR//$'\n'/ }"
  fi
  local tag verb reason option key rule detail
  IFS=$'\t' read -r tag verb reason option key rule detail <<<"$OUT"
  if [[ "$tag" != "drover-classify/$CLASSIFY_FORMAT_VERSION" ]]; then
    [[ "$tag" =~ ^drover-classify/([0-9]{1,4})$ ]] &&
      die 5 "classify format version mismatch: drover __classify prints format ${BASH_REMATCH[1]}, this sweep.sh reads format $CLASSIFY_FORMAT_VERSION — use the script from \`drover sweep-script\`"
    die 5 "drover __classify printed no format version (this sweep.sh reads format $CLASSIFY_FORMAT_VERSION); drover and sweep.sh are from different releases — use the script from \`drover sweep-script\`"
  fi
  case "$verb|$reason" in
  approve\|allowlisted)
    [[ "$option" =~ ^[0-9]+$ && "$key" =~ ^(1|Enter)$ ]] ||
      die 5 "drover __classify gave no option/key for an approval; drover and sweep.sh do not match"
    if [[ "$key" == "$option" ]]; then
      printf 'approve option=%s (allow: %s)\n' "$option" "$detail"
    else
      printf 'approve option=%s key=%s (allow: %s)\n' "$option" "$key" "$detail"
    fi
    ;;
  escalate\|danger) printf 'escalate (danger: %s)\n' "$rule" ;;
  escalate\|opaque) printf 'escalate (opaque: %s)\n' "$rule" ;;
  escalate\|not-allowlisted) printf 'escalate (not allowlisted)\n' ;;
  escalate\|cli-unavailable) printf 'escalate (cli unavailable)\n' ;;
  escalate\|limit-menu) printf 'escalate (limit menu)\n' ;;
  refuse\|dialog) printf 'refuse (dialog: not a permission prompt)\n' ;;
  refuse\|no-option-1) printf 'refuse (no option 1)\n' ;;
  refuse\|broad-grant) printf 'refuse (broad grant on option 1)\n' ;;
  refuse\|not-affirmative) printf 'refuse (not affirmative: option 1 is no one-time yes)\n' ;;
  no-op\|*) printf 'no-op (not live)\n' ;;
  escalate\|* | refuse\|*) printf '%s (%s)\n' "$verb" "$reason" ;;
  *) die 5 "drover __classify printed an unknown verdict \"$verb $reason\"; drover and sweep.sh do not match" ;;
  esac
}

# approve-eval — the capture on stdin (capture-pane -p -e -J; a plain one shows no selection)
# through approve's own gate: what `approve` would press, or why it refuses (its exit code).
# Sends nothing and takes no claim; orchestrator and claim checks need a pane (use approve).
cmd_approve_eval() {
  (($# == 0)) || usage
  local input
  input=$(cat)
  load_profile "$CLI"
  if [[ "$input" == *$'\e'* ]]; then
    plain_of "$input"
    analyze "$CLI" "$PLAIN" "$input"
  else
    analyze "$CLI" "$input"
  fi
  verdict
  if [[ "$VERDICT" == approve ]]; then
    printf 'would press %s (option 1: %s)\n' "$KEY" "$CHOSEN"
    return 0
  fi
  printf 'refuse (%s)\n' "$REASON"
  exit "$REASON_CODE"
}

refuse() {
  local code=$1
  shift
  printf 'refused pane %s (%s): %s; no keys sent\n' "$PANE_ID" "$*" "${REFUSE_DETAIL:-}"
  release_claim
  exit "$code"
}

cmd_approve() {
  (($# == 1)) || usage
  resolve_pane "$1"
  local pane=$PANE_ID session=$PANE_SESSION
  # Orchestrator: drover's role (configured [drive].orchestrator) and, independently, the compiled
  # default — the first pane of the session. Refused before anything is captured.
  if ! pane_row "$pane" "$session"; then
    REFUSE_DETAIL="drover does not list this pane" refuse 4 "unknown pane"
  fi
  local first
  first=$(t list-panes -s -t "$(tmux_data "=$session:")" -F '#{window_index} #{pane_index} #{pane_id}' 2>/dev/null |
    sort -n -k1,1 -k2,2 | head -n 1)
  first=${first##* }
  if [[ "$ROW_ROLE" == "orchestrator" || "$first" == "$pane" ]]; then
    REFUSE_DETAIL="it is the orchestrator pane, which never gets an approval" refuse 10 orchestrator
  fi
  local cli=${ROW_CLI:-$CLI}
  load_profile "$cli"
  local no_sync="its window has tmux synchronize-panes on: a key would reach every synchronized pane"
  synchronized "$pane" && REFUSE_DETAIL=$no_sync refuse 19 synchronized
  local claimed=0
  take_claim "$pane" || claimed=$?
  if ((claimed == 2)); then
    REFUSE_DETAIL="$CLAIM_WHAT stands where the pane's claim file $CLAIM_HOLDER_PATH belongs; it was left as it is (remove it)" \
      refuse 74 claim-path
  elif ((claimed != 0)); then
    REFUSE_DETAIL="claimed by another approver (${CLAIM_HOLDER:-unknown}, $CLAIM_HOLDER_PATH)" \
      refuse 11 claimed
  fi
  trap release_claim EXIT
  capture_pane "$pane" || REFUSE_DETAIL="pane vanished" refuse 4 "not found"
  analyze "$cli" "$CAP" "$CAPS"
  verdict
  if [[ "$VERDICT" != approve ]]; then
    REFUSE_DETAIL="the fresh capture shows no approvable prompt" refuse "$REASON_CODE" "$REASON"
  fi
  local fp=$FP key=$KEY
  # The key goes out on this capture's word only: re-capture right before the send.
  capture_pane "$pane" || REFUSE_DETAIL="pane vanished" refuse 4 "not found"
  analyze "$cli" "$CAP" "$CAPS"
  verdict
  if [[ "$VERDICT" != approve || "$FP" != "$fp" || "$KEY" != "$key" ]]; then
    REFUSE_DETAIL="the prompt changed or cleared before the send" refuse 16 prompt-changed
  fi
  local opt1_text=$CHOSEN
  ones_in_box
  local ones_before=$ONES
  synchronized "$pane" && REFUSE_DETAIL=$no_sync refuse 19 synchronized
  # Exactly one key: the digit 1, or Enter on a choice row whose first choice shows selected.
  t send-keys -t "$pane" "$key" || die 3 "tmux send-keys failed"
  local sent=$key i same pass stray=0
  for pass in 1 2; do
    same=0
    for ((i = 0; i < 30; i++)); do
      sleep 0.1
      capture_pane "$pane" || break
      analyze "$cli" "$CAP" "$CAPS"
      same=0
      ((LIVE && PERM)) && [[ "$FP" == "$fp" ]] && same=1
      ones_in_box
      ((pass == 1 && ONES > ones_before)) && stray=1 && break
      ((same)) || break
    done
    if ((stray)); then
      # The gate was wrong: the digit went into an input line. Nothing more is sent; the pane is
      # marked (drover's own option) so no drive tick submits the stray digit as typed input.
      t set-option -p -t "$pane" @drover-stray-key "$key" >/dev/null 2>&1 || true
      release_claim
      printf 'key-in-input pane %s: sent %s and a "1" showed up in the input line; nothing more sent (clear it by hand)\n' "$pane" "$key"
      exit 20
    fi
    # The one Enter is earned: the digit was sent, and the same live prompt shows option 1 selected
    # with no digit in an input line. A choice row's key already was the Enter: never a second.
    if ((same && pass == 1)) && [[ "$key" == 1 ]] && selected_now; then
      if synchronized "$pane"; then
        release_claim
        printf 'refused pane %s (synchronized): sent %s, then %s; no Enter sent\n' "$pane" "$key" "$no_sync"
        exit 19
      fi
      t send-keys -t "$pane" Enter || die 3 "tmux send-keys failed"
      sent+=" + Enter"
      continue
    fi
    # A choice row gets no second key, so it gets the digit's second window to be seen going (a
    # slow CLI redraws late). Only watching.
    ((same && pass == 1)) && [[ "$key" == Enter ]] && continue
    break
  done
  release_claim
  if ((same)); then
    printf 'unconfirmed pane %s: sent %s; the same prompt is still live (not retried)\n' "$pane" "$sent"
    exit 17
  fi
  printf 'approved pane %s (option 1: %s) with %s\n' "$pane" "$opt1_text" "$sent"
}

# ---------------------------------------------------------------------------------------------
# Stuck shapes

state_dir() {
  if [[ -n "${SWEEP_STATE_DIR:-}" ]]; then
    printf '%s' "$SWEEP_STATE_DIR"
  elif [[ "${XDG_RUNTIME_DIR:-}" == /* ]]; then
    printf '%s/drover/sweep' "$XDG_RUNTIME_DIR"
  else
    printf '/tmp/drover-%s/sweep' "$EUID"
  fi
}

# make_private_dir DIR — DIR and every missing parent created 0700 whatever the umask: under
# /tmp/drover-UID, which drover's locks and claims use only while no one else can write it.
make_private_dir() {
  (umask 077 && mkdir -p -- "$1") 2>/dev/null
}

# dedup AGENT SHAPE -> 0 when this report should be printed now (and records it).
dedup() {
  local agent=$1 shape=$2 dir file now window a s ts keep=() fresh=1
  dir=$(state_dir)
  make_private_dir "$dir" || die 3 "cannot create the state directory $dir"
  file="$dir/stuck-dedup.tsv"
  now=$(date +%s)
  window=${SWEEP_DEDUP_SECONDS:-300}
  if [[ -f "$file" ]]; then
    while IFS=$'\t' read -r a s ts; do
      [[ "$ts" =~ ^[0-9]+$ ]] || continue
      ((now - ts < window)) || continue
      if [[ "$a" == "$agent" && "$s" == "$shape" ]]; then fresh=0; fi
      keep+=("$a"$'\t'"$s"$'\t'"$ts")
    done <"$file"
  fi
  ((fresh)) && keep+=("$agent"$'\t'"$shape"$'\t'"$now")
  printf '%s\n' "${keep[@]}" >"$file.$$" && mv -f -- "$file.$$" "$file"
  ((fresh))
}

# bottom_match KIND ERE -> MATCH, MATCH_GROUPS: the last line of the bottom region matching
# (KIND "mi" = marker list, case-insensitive; "mp" = pattern, as given).
OUTSIDE_STATUS=0
bottom_match() {
  local kind=$1 re=$2 n=${#NB[@]} i start bottom=${PROF["$CUR_CLI|_bottom_region"]}
  MATCH=""
  MATCH_GROUPS=()
  [[ -n "$re" ]] || return 1
  start=$((n > bottom ? n - bottom : 0))
  for ((i = n - 1; i >= start; i--)); do
    # OUTSIDE_STATUS=1: a user's status line (status_area) says nothing of the CLI's state.
    ((OUTSIDE_STATUS)) && [[ -n "${IN_STATUS[i]:-}" ]] && continue
    if "$kind" "${NB[i]}" "$re"; then
      MATCH=${NB[i]}
      MATCH_GROUPS=("${BASH_REMATCH[@]}")
      return 0
    fi
  done
  return 1
}

# status_match KIND ERE — like bottom_match, on the status-area lines only (lowest first).
status_match() {
  local kind=$1 re=$2 n=${#NB[@]} i
  MATCH=""
  [[ -n "$re" ]] || return 1
  for ((i = n - 1; i > BOX_END && BOX_END >= 0; i--)); do
    [[ -n "${IN_STATUS[i]:-}" ]] || continue
    if "$kind" "${NB[i]}" "$re"; then
      MATCH=${NB[i]}
      return 0
    fi
  done
  return 1
}

# unavailable_banner CLI — the CLI's own error drawn with the answer glyph as the last block above
# the input box (lib/detect/unavailable.ts): going up from the box, the first line in column 0
# that opens with an answer glyph or an input sigil, or is a busy line, decides; it must be an
# answer glyph followed by unavailable_banner_pattern at the start of its text.
unavailable_banner() {
  local cli=$1 i t g bottom=${PROF["$CUR_CLI|_bottom_region"]}
  local re ans sig busy_re busy_pat
  MATCH=""
  re=$(p "$cli" unavailable_banner_pattern)
  ans=$(p "$cli" answer_markers)
  sig=$(p "$cli" input_sigils)
  busy_re=$(p "$cli" mid_response_markers)
  busy_pat=$(p "$cli" mid_response_pattern)
  [[ -n "$re" && -n "$ans" ]] || return 1
  ((BOX_AT > 0)) || return 1
  for ((i = BOX_AT - 1; i >= 0 && i >= BOX_AT - bottom; i--)); do
    t=${NB[i]}
    [[ "$t" == [[:space:]]* ]] && continue
    if mi "$t" "$busy_re" || mp "$t" "$busy_pat"; then return 1; fi
    if re_ok "$t" "^($ans) "; then
      g=${BASH_REMATCH[0]}
      mp "${t:${#g}}" "^($re)" || return 1
      MATCH=$t
      return 0
    fi
    [[ -n "$sig" ]] && re_ok "$t" "^($sig) " && return 1
  done
  return 1
}

# limit_menu CLI — a live menu whose numbered options carry limit_menu_markers (the CLI's
# usage-limit menu, never answered): MATCH = that option line.
limit_menu() {
  local cli=$1 n=${#NB[@]} i re block=${PROF["$CUR_CLI|_live_block"]}
  MATCH=""
  re=$(p "$cli" limit_menu_markers)
  [[ -n "$re" ]] || return 1
  for ((i = n - 1; i >= 0 && i >= n - block; i--)); do
    option_at "${NB[i]}" || continue
    if mi "${NB[i]}" "$re"; then
      MATCH=$STRIPPED
      return 0
    fi
  done
  return 1
}

# first_number: the first all-digit group of the last match
first_number() {
  local g
  NUMBER=""
  for g in "${MATCH_GROUPS[@]:1}"; do
    if [[ "$g" =~ ^[0-9]+$ ]]; then
      NUMBER=$((10#$g))
      return 0
    fi
  done
  return 1
}

# stuck_eval CLI AGENT PROMPT_AGE CAPTURE -> prints one line; sets SHAPE. First hit wins:
# CLI unavailable, stream error, live prompt older than the threshold, pasted text left
# unsubmitted (not while busy: a busy line or the CLI's activity line anywhere in the bottom
# region, wider than drover's region rule, so sweep.sh never reports a paste drover would call
# busy), context bloat over the threshold.
stuck_eval() {
  local cli=$1 agent=$2 age=$3 cap=$4 shape="" detail=""
  analyze "$cli" "$cap"
  CUR_CLI=$cli
  local bloat_k=${SWEEP_CONTEXT_BLOAT_K:-250} used_pct=${SWEEP_CONTEXT_USED_PCT:-90}
  local stuck_s=${SWEEP_PROMPT_STUCK_SECONDS:-120}
  [[ "$bloat_k" =~ ^[0-9]+$ && "$used_pct" =~ ^[0-9]+$ && "$stuck_s" =~ ^[0-9]+$ ]] ||
    die 2 "SWEEP_CONTEXT_BLOAT_K, SWEEP_CONTEXT_USED_PCT and SWEEP_PROMPT_STUCK_SECONDS must be whole numbers"
  if status_match mp "$(p "$cli" status_limit_pattern)"; then
    shape=cli-unavailable detail=$MATCH
  elif OUTSIDE_STATUS=1 bottom_match mi "$(p "$cli" cli_unavailable_markers)"; then
    shape=cli-unavailable detail=$MATCH
  elif unavailable_banner "$cli"; then
    shape=cli-unavailable detail=$MATCH
  elif ((LIVE)) && limit_menu "$cli"; then
    shape=cli-unavailable detail="limit menu: $MATCH"
  elif OUTSIDE_STATUS=1 bottom_match mi "$(p "$cli" stream_error_markers)"; then
    shape=stream-error detail=$MATCH
  elif ((LIVE)) && ((age >= stuck_s)); then
    shape=stuck-on-prompt detail="live prompt for ${age}s"
  elif ! bottom_match mi "$(p "$cli" mid_response_markers)" &&
    ! bottom_match mp "$(p "$cli" mid_response_pattern)" &&
    ! bottom_match mp "$(p "$cli" activity_line_pattern)" &&
    bottom_match mp "$(p "$cli" paste_buffer_pattern)"; then
    shape=paste-buffer detail=$MATCH
  elif bottom_match mp "$(p "$cli" context_bloat_pattern)" && first_number &&
    ((NUMBER >= bloat_k)); then
    shape=context-bloat detail="~${NUMBER}k tokens >= ${bloat_k}k"
  elif bottom_match mp "$(p "$cli" context_used_pattern)" && first_number &&
    ((NUMBER >= used_pct)); then
    shape=context-bloat detail="${NUMBER}% of the context window used >= ${used_pct}%"
  fi
  SHAPE=$shape
  if [[ -z "$shape" ]]; then
    printf 'not-stuck: %s\n' "$agent"
    return 0
  fi
  detail=${detail##+([[:space:]])}
  detail=${detail//[$'\t\r\n']/ }
  if dedup "$agent" "$shape"; then
    printf 'stuck: %s %s (%s)\n' "$agent" "$shape" "${detail:0:200}"
  else
    printf 'stuck: %s %s (deduped)\n' "$agent" "$shape"
  fi
}

cmd_stuck_eval() {
  (($# >= 1 && $# <= 2)) || usage
  local age=${2:-0}
  [[ "$age" =~ ^[0-9]+$ ]] || die 2 "prompt age must be whole seconds (got \"$age\")"
  local input
  input=$(cat)
  if [[ "$input" == *$'\e'* ]]; then
    load_profile "$CLI"
    plain_of "$input"
    input=$PLAIN
  fi
  stuck_eval "$CLI" "$1" "$age" "$input"
}

# prompt_age AGENT FINGERPRINT -> AGE (seconds this prompt has been seen live; records first sight)
prompt_age() {
  local agent=$1 fp=$2 dir file now a f ts keep=() found=""
  dir=$(state_dir)
  make_private_dir "$dir" || die 3 "cannot create the state directory $dir"
  file="$dir/prompt-seen.tsv"
  now=$(date +%s)
  fp=$(printf '%s' "$fp" | cksum)
  fp=${fp%% *}
  if [[ -f "$file" ]]; then
    while IFS=$'\t' read -r a f ts; do
      [[ "$a" == "$agent" ]] || {
        keep+=("$a"$'\t'"$f"$'\t'"$ts")
        continue
      }
      [[ "$f" == "$fp" ]] && found=$ts
    done <"$file"
  fi
  [[ -n "$found" ]] || found=$now
  keep+=("$agent"$'\t'"$fp"$'\t'"$found")
  printf '%s\n' "${keep[@]}" >"$file.$$" && mv -f -- "$file.$$" "$file"
  AGE=$((now - found))
}

forget_prompt() {
  local agent=$1 dir file a f ts keep=()
  dir=$(state_dir)
  file="$dir/prompt-seen.tsv"
  [[ -f "$file" ]] || return 0
  while IFS=$'\t' read -r a f ts; do
    [[ "$a" == "$agent" ]] || keep+=("$a"$'\t'"$f"$'\t'"$ts")
  done <"$file"
  if ((${#keep[@]} > 0)); then
    printf '%s\n' "${keep[@]}" >"$file.$$" && mv -f -- "$file.$$" "$file"
  else
    rm -f -- "$file"
  fi
}

need_session() {
  if [[ -z "$SESSION" ]]; then
    [[ -n "${TMUX:-}" ]] && SESSION=$(t display-message -p '#S' 2>/dev/null)
  fi
  [[ -n "$SESSION" ]] || die 2 "no session: pass --session S (or run inside tmux)"
}

# inventory -> ROWS (id<TAB>target<TAB>role<TAB>cli<TAB>state<TAB>mode)
inventory() {
  local out first=1 id tgt sess w pidx role cli src state mode
  need_drover
  need_session
  local args=(panes --session "$SESSION" --format tsv --format-version "$PANES_FORMAT_VERSION")
  [[ -n "$CLI" ]] && args+=(--cli "$CLI")
  drover_out "${args[@]}"
  [[ "$ERR" == *FORMAT_MISMATCH* ]] && die 5 "drover refused this script: ${ERR//$'\n'/ }"
  ((RC == 0)) || die 3 "drover panes failed (exit $RC): ${ERR//$'\n'/ }"
  out=$OUT
  ROWS=()
  while IFS=$'\t' read -r id tgt sess w pidx role cli src state mode; do
    if ((first)); then
      first=0
      [[ "$id" == "#drover-panes" && "$tgt" == "$PANES_FORMAT_VERSION" ]] ||
        die 5 "drover panes format mismatch: drover prints \"$id $tgt\", this sweep.sh reads format $PANES_FORMAT_VERSION — use the script from \`drover sweep-script\`"
      continue
    fi
    [[ -n "$id" ]] && ROWS+=("$id"$'\t'"$tgt"$'\t'"$role"$'\t'"$cli"$'\t'"$state"$'\t'"$mode")
  done <<<"$out"
}

cmd_snapshot() {
  (($# == 0)) || usage
  inventory
  local row id tgt role cli state mode
  for row in "${ROWS[@]}"; do
    IFS=$'\t' read -r id tgt role cli state mode <<<"$row"
    printf '=== %s %s %s %s %s %s ===\n' "$id" "$tgt" "$cli" "$role" "$state" "$mode"
    capture_pane "$id" || {
      printf '(pane vanished)\n'
      continue
    }
    split_nb "$CAP"
    local n=${#NB[@]} i
    for ((i = (n > 20 ? n - 20 : 0); i < n; i++)); do printf '%s\n' "${NB[i]}"; done
  done
}

cmd_detect_stuck() {
  (($# == 0)) || usage
  inventory
  ((${#ROWS[@]} > 0)) || {
    printf 'no panes in session %s\n' "$SESSION" >&2
    return 0
  }
  local row id tgt role cli state mode
  for row in "${ROWS[@]}"; do
    IFS=$'\t' read -r id tgt role cli state mode <<<"$row"
    capture_pane "$id" || continue
    analyze "$cli" "$CAP"
    if ((LIVE)); then
      prompt_age "$id" "$FP"
    else
      forget_prompt "$id"
      AGE=0
    fi
    stuck_eval "$cli" "$id" "$AGE" "$CAP"
  done
}

# ---------------------------------------------------------------------------------------------
# Time budget. Every regex this script runs comes from drover, which validates each pattern before
# it exports it (`__prompt-profile` refuses a configuration it rejects). Bash's POSIX regex engine
# has no time limit of its own, though, and a pattern that backtracks without end must never wedge
# a cron sweep: so each command runs in a child process under a watchdog. Past SWEEP_TIME_LIMIT
# seconds (default 120) the child is killed and sweep.sh exits 124, saying so.
run_bounded() {
  local limit=${SWEEP_TIME_LIMIT:-120} child dog rc ds
  [[ "$limit" =~ ^[1-9][0-9]{0,5}$ ]] ||
    die 2 "SWEEP_TIME_LIMIT must be a whole number of seconds >= 1 (got \"$limit\")"
  [[ "${SWEEP_MEMORY_LIMIT_MB:-512}" =~ ^[1-9][0-9]{1,6}$ ]] ||
    die 2 "SWEEP_MEMORY_LIMIT_MB must be a whole number of MiB >= 10 (got \"${SWEEP_MEMORY_LIMIT_MB:-}\")"
  if [[ -t 0 ]]; then
    case "$1" in
    classify | approve-eval | stuck-eval)
      die 2 "$1 reads a capture on stdin: pipe one (tmux capture-pane -p -e -J -t PANE | sweep.sh $1)"
      ;;
    esac
  fi
  # Its own process group (set -m), so the watchdog stops everything the command started.
  set -m
  _SWEEP_WATCHED=1 "$BASH" "${BASH_SOURCE[0]}" "${ORIG_ARGS[@]}" <&0 &
  child=$!
  set +m
  (
    trap 'kill "$nap" 2>/dev/null; exit 0' TERM
    sleep "$limit" &
    nap=$!
    wait "$nap"
    # From here on the verdict stands: a late "stop" from the parent must not turn it into 0.
    trap '' TERM
    kill -KILL -- "-$child" 2>/dev/null && exit 99
    exit 0
  ) &
  dog=$!
  trap 'kill -TERM -- "-$child" 2>/dev/null' TERM INT HUP
  wait "$child" 2>/dev/null
  rc=$?
  kill -TERM "$dog" 2>/dev/null
  wait "$dog"
  ds=$?
  if ((ds == 99)); then
    printf 'sweep.sh: %s stopped after %ss (SWEEP_TIME_LIMIT): a profile pattern may take too long in bash'"'"'s regex engine; check the profile with `drover config check`%s\n' \
      "$1" "$limit" "$([[ "$1" == approve ]] && printf '; look at the pane: a key may have been sent')" >&2
    exit 124
  fi
  exit "$rc"
}

(($# > 0)) || usage
sub=$1
shift
[[ -n "${_SWEEP_WATCHED:-}" ]] || run_bounded "$sub"
# The watched child: its own address space is bounded too (a huge pattern makes bash's regcomp
# grow without end); drover and tmux run outside the limit.
ulimit -S -v $((${SWEEP_MEMORY_LIMIT_MB:-512} * 1024)) 2>/dev/null ||
  die 2 "SWEEP_MEMORY_LIMIT_MB must be a whole number of MiB (got \"${SWEEP_MEMORY_LIMIT_MB:-}\")"
case "$sub" in
snapshot) cmd_snapshot "$@" ;;
capture) cmd_capture "$@" ;;
approve) cmd_approve "$@" ;;
classify) cmd_classify "$@" ;;
approve-eval) cmd_approve_eval "$@" ;;
detect-stuck) cmd_detect_stuck "$@" ;;
stuck-eval) cmd_stuck_eval "$@" ;;
*)
  printf 'sweep.sh: unknown command "%s"\n' "$sub" >&2
  usage
  ;;
esac
