#!/usr/bin/env bash
# The Makefile's set-up, with stand-ins for dpkg-query, apt-get, sudo, id and cmake (fakebin.sh) on a copy of the
# Makefile and scripts/setup/: missing Debian packages listed at once and installed when no password is needed (root,
# or sudo -n) or else the one apt-get line; a missing, empty, half-written or failed configuration redone on the
# next run (a half-written copy of the real CMakeCache.txt included); a build folder of another checkout named in one
# sentence; progress on the first build only; a grade that does not pass exits 1 without make's trailer.
# Usage: setup_test.sh ROOT [REAL_CMAKE_CACHE]
set -uo pipefail
root=$1 real_cache=${2:-}
FAKE=$(mktemp -d /tmp/setup-test-XXXXXX); export FAKE
trap 'rm -rf "$FAKE"' EXIT
. "$root/tests/setup/fakebin.sh"
fails=0
fail() { echo "FAILED: $*"; fails=$((fails + 1)); }
expect() { grep -qF -- "$2" <<<"$1" || fail "$3: expected «$2» in:"$'\n'"$1"; }
reject() { grep -qF -- "$2" <<<"$1" && fail "$3: unexpected «$2» in:"$'\n'"$1"; }

project() {  # a fresh copy of the Makefile and the set-up scripts, and fresh stand-ins
  rm -rf "$FAKE/p" "$FAKE/bin"; mkdir -p "$FAKE/p/scripts"
  cp "$root/Makefile" "$FAKE/p/"; cp -r "$root/scripts/setup" "$FAKE/p/scripts/"
  make_fakebin
}
all_packages() { "$root/scripts/setup/packages.sh" --list > "$FAKE/installed"; }
run() { (cd "$FAKE/p" && PATH="$FAKE/bin:$PATH" make --no-print-directory "$@" 2>&1); }

echo "--- packages missing, no root, no password-less sudo: all named, one apt-get line, nothing run"
project; grep -v -x -e catch2 -e libfmt-dev -e bubblewrap <("$root/scripts/setup/packages.sh" --list) > "$FAKE/installed"
out=$(run grade-04); rc=$?
echo "$out"
[ "$rc" -ne 0 ] || fail "should stop"
expect "$out" "3 Debian package(s) missing: catch2 libfmt-dev bubblewrap" "all missing at once"
expect "$out" "  sudo apt-get install -y --no-install-recommends catch2 libfmt-dev bubblewrap" "the one install line"
reject "$(cat "$FAKE/calls")" "apt-get install" "apt-get ran without permission"
reject "$(cat "$FAKE/calls")" "cmake -S" "configured with packages missing"

echo "--- the same with password-less sudo: installed with sudo, saying so, then configured"
touch "$FAKE/sudo_ok"
out=$(run configure); rc=$?
echo "$out"
[ "$rc" -eq 0 ] || fail "sudo install + configure should succeed (exit $rc)"
expect "$out" "running: sudo -n apt-get update -q && sudo -n apt-get install -y --no-install-recommends catch2 libfmt-dev bubblewrap" "says what it runs"
expect "$(cat "$FAKE/calls")" "apt-get install -y --no-install-recommends catch2 libfmt-dev bubblewrap (uid 0, DEBIAN_FRONTEND=noninteractive)" "installed as root through sudo"
expect "$(cat "$FAKE/calls")" "cmake -S . -B build" "configured after installing"

echo "--- as root: apt-get directly"
project; grep -v -x -e gcovr <("$root/scripts/setup/packages.sh" --list) > "$FAKE/installed"; echo 0 > "$FAKE/uid"
out=$(run configure); rc=$?
[ "$rc" -eq 0 ] || fail "root install should succeed"
reject "$(cat "$FAKE/calls")" "sudo" "root needs no sudo"
expect "$(cat "$FAKE/calls")" "apt-get install -y --no-install-recommends gcovr (uid 0" "root install"

echo "--- a package the machine's sources lack (Ubuntu with universe off): one sentence, nothing installed"
project; grep -v -x -e catch2 -e libcli11-dev -e git <("$root/scripts/setup/packages.sh" --list) > "$FAKE/installed"
echo 0 > "$FAKE/uid"; printf 'catch2\nlibcli11-dev\n' > "$FAKE/unavailable"
printf 'NAME="Ubuntu"\nID=ubuntu\nVERSION_CODENAME=jammy\n' > "$FAKE/os-release"
out=$(WORKBOOK_OS_RELEASE=$FAKE/os-release run configure); rc=$?
echo "$out"
[ "$rc" -eq 2 ] || fail "unavailable packages: exit 2 (got $rc)"
expect "$out" "workbook: this machine's package sources have no catch2 libcli11-dev: enable Ubuntu's universe component (add-apt-repository -y universe" "the one sentence"
reject "$(cat "$FAKE/calls")" "apt-get install" "installed with packages unavailable"
reject "$(cat "$FAKE/calls")" "cmake -S" "configured with packages unavailable"
out=$(run configure)
expect "$out" "have no catch2 libcli11-dev: add the distribution's main archive" "elsewhere than Ubuntu, the sources named"

echo "--- first grade: configure and build progress; later: quiet; not passed: exit 1 and no make trailer"
project; all_packages
out=$(run grade-04); rc=$?
echo "$out"
[ "$rc" -eq 0 ] || fail "a passing grade exits 0 (got $rc)"
expect "$out" "configuring the build in build/ (once" "configure announced"
expect "$out" "building the grader: the first build takes a few minutes on two cores and happens once" "first build announced"
expect "$out" "[ 60%] compiling grader/emulator/runtime/scheduler.cpp" "progress names the step"
reject "$(cat "$FAKE/calls")" "inherited MAKEFLAGS" "cmake --build must not inherit make's flags"
reject "$(cat "$FAKE/calls")" "apt-get" "nothing to install"
echo 1 > "$FAKE/grade_rc"
out=$(run grade-04 EX=rmsnorm SEED=5); rc=$?
echo "$out"
[ "$rc" -eq 1 ] || fail "a grade that does not pass exits 1 (got $rc)"
reject "$out" "make: ***" "make's trailer after a verdict"
reject "$out" "configuring" "second run configures again"
reject "$out" "building" "second run shows build progress"
expect "$(cat "$FAKE/calls")" "workbook grade 04 --ex rmsnorm --seed 5" "options reach the grade"
echo 2 > "$FAKE/grade_rc"
out=$(run grade-04); rc=$?
[ "$rc" -eq 2 ] || fail "a usage problem exits 2 (got $rc)"

echo "--- a failed configuration is redone on the next run"
project; all_packages; touch "$FAKE/cmake_fails"
out=$(run grade-04); rc=$?
echo "$out"
[ "$rc" -eq 2 ] || fail "failed configure should exit 2"
expect "$out" "Missing Catch2. Install it with:  sudo apt-get install -y catch2" "CMake's sentence is shown"
rm "$FAKE/cmake_fails"; mkdir -p "$FAKE/p/build/results/04"; echo keep > "$FAKE/p/build/results/04/results.json"
out=$(run grade-04); rc=$?
echo "$out"
[ "$rc" -eq 0 ] || fail "the run after a failed configure should configure and grade (exit $rc)"
expect "$out" "is incomplete (an earlier configuration failed or was interrupted); configuring again" "says why"
[ "$(cat "$FAKE/p/build/results/04/results.json")" = keep ] || fail "results/ was touched"

echo "--- an empty cache, and a half-written one"
: > "$FAKE/p/build/CMakeCache.txt"
out=$(run configure); rc=$?
[ "$rc" -eq 0 ] || fail "empty cache: exit $rc"; expect "$out" "is empty" "empty cache named"
if [ -n "$real_cache" ] && [ -s "$real_cache" ]; then
  size=$(stat -c %s "$real_cache")
  head -c $((size / 2)) "$real_cache" > "$FAKE/p/build/CMakeCache.txt"   # a copy of the real one, cut in half
else
  head -c 90 "$FAKE/p/build/CMakeCache.txt" > "$FAKE/cut" && mv "$FAKE/cut" "$FAKE/p/build/CMakeCache.txt"
fi
: > "$FAKE/calls"
out=$(run configure); rc=$?
echo "$out"
[ "$rc" -eq 0 ] || fail "half-written cache: exit $rc"
expect "$out" "configuring again" "half-written cache redone"
expect "$(cat "$FAKE/calls")" "cmake -S . -B build" "cmake ran again"
[ "$(cat "$FAKE/p/build/results/04/results.json")" = keep ] || fail "results/ was touched"
: > "$FAKE/calls"; out=$(run configure); [ -z "$out" ] || fail "a good configuration prints nothing: $out"
reject "$(cat "$FAKE/calls")" "cmake -S" "a good configuration is not redone"

echo "--- a build folder of another checkout: one sentence, nothing deleted"
sed -i "s|^CMAKE_HOME_DIRECTORY:INTERNAL=.*|CMAKE_HOME_DIRECTORY:INTERNAL=/elsewhere/checkout|" "$FAKE/p/build/CMakeCache.txt"
out=$(run grade-04); rc=$?
echo "$out"
[ "$rc" -eq 2 ] || fail "another checkout: exit 2"
expect "$out" "workbook: the build folder build/ belongs to another checkout (/elsewhere/checkout); remove it (rm -rf build) and run make again." "the sentence"
[ -f "$FAKE/p/build/CMakeCache.txt" ] || fail "the cache was deleted"

if [ -f "$root/.ci/run" ]; then  # a student edition has no CI
  echo "--- CI installs the same list"
  grep -q "scripts/setup/packages.sh" "$root/.ci/run" || fail ".ci/run does not use scripts/setup/packages.sh"
fi

[ "$fails" -eq 0 ] && echo "ok" || { echo "$fails check(s) failed"; exit 1; }
