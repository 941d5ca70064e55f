#!/usr/bin/env bash
# Builds CMake targets with their output in a log. While something compiles, one progress line shows the step
# ([ 45%] and the file being built): updated in place on a terminal, every tenth of the way in a log. The first
# build says that it happens once; a build with nothing to do prints nothing. On failure: the first errors and the
# log's path, exit 2.
# Usage: build.sh BUILD_DIR LABEL TARGET...   (LABEL names it for the student: "the grader")
set -uo pipefail
unset MAKEFLAGS MFLAGS MAKELEVEL  # cmake --build runs make: it must not inherit this make's flags
build=$1 label=$2
shift 2
jobs=${JOBS:-2}
name=$(printf '%s' "$*" | tr -c 'A-Za-z0-9_-' '-')
log=$build/.build-$name.log
stamp=$build/.built-$name
if [ -e "$stamp" ]; then
  head="workbook: rebuilding $label (sources changed)"
else
  head="workbook: building $label: the first build takes a few minutes on two cores and happens once"
fi
tty=0
[ -t 1 ] && tty=1

args=()
for t in "$@"; do args+=(--target "$t"); done
nice cmake --build "$build" "${args[@]}" -j"$jobs" 2>&1 | awk -v logfile="$log" -v head="$head" -v tty="$tty" '
  function show(pct, what) {
    if (!started) { print head; started = 1 }
    line = sprintf("  [%3d%%] %s", pct, what)
    if (tty) { printf "\r\033[K%s", substr(line, 1, 100); fflush() }
    else if (pct >= next_pct) { print line; fflush(); next_pct = pct - pct % 10 + 10 }
  }
  { print > logfile }
  # Makefile generators: "[ 45%] Building CXX object DIR/CMakeFiles/T.dir/FILE.o"; Ninja: "[12/340] Building …".
  match($0, /^\[ *[0-9]+%\] (Building|Linking)/) {
    pct = substr($0, 2, index($0, "%") - 2) + 0
    what = $0; sub(/^\[[^]]*\] /, "", what)
    sub(/CMakeFiles\/[^\/]*\.dir\//, "", what); sub(/\.o$/, "", what)
    sub(/^Building [A-Za-z]+ object /, "compiling ", what); sub(/^Linking [A-Za-z]+ [a-z ]*(executable|library) /, "linking ", what)
    show(pct, what)
  }
  match($0, /^\[[0-9]+\/[0-9]+\] (Building|Linking)/) {
    split(substr($0, 2, index($0, "]") - 2), n, "/")
    what = $0; sub(/^\[[^]]*\] /, "", what)
    sub(/^Building [A-Za-z]+ object /, "compiling ", what); sub(/^Linking [A-Za-z]+ [a-z ]*(executable|library) /, "linking ", what)
    show(int(100 * n[1] / n[2]), what)
  }
  END { if (started && tty) printf "\r\033[K"; if (started) print "workbook: " (head ~ /first/ ? "built " : "rebuilt ") label_of(head) "." }
  function label_of(h) { sub(/^workbook: (re)?building /, "", h); sub(/[:(].*$/, "", h); sub(/ +$/, "", h); return h }
'
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 0 ]; then
  echo "workbook: building $label failed. First errors:" >&2
  grep -E "error|Error|undefined reference" "$log" | grep -v -E "^g?make(\[[0-9]+\])?: " | head -n 15 >&2
  echo "(full log: $log)" >&2
  exit 2
fi
touch "$stamp"
