#!/usr/bin/env bash
# A student edition (`make student-edition`: committed content without solutions, tests or CI) configures: nothing in
# its CMake reaches for a file the edition leaves out. A student cannot repair a missing grader source.
#   student_edition_test.sh ROOT WORKBOOK [CMAKE_ARG...]   (this build's compilers and launcher: the configure compiles
#                                                          the manifest reader, grader/configure, through ccache)
set -u
root=$1 workbook=$2
shift 2
work=$(mktemp -d /tmp/workbook-student-edition-XXXXXX)  # the edition must go outside the repository
trap 'rm -rf "$work"' EXIT
if ! out=$(cd "$root" && "$workbook" student-edition --out "$work/edition" 2>&1); then
  echo "FAILED: make student-edition: $out"; exit 1
fi
echo "$out" | tail -n 1
if ! cmake -S "$work/edition" -B "$work/build" "$@" > "$work/configure.log" 2>&1; then
  echo "FAILED: the student edition does not configure:"; grep -A3 "CMake Error" "$work/configure.log" | head -30
  exit 1
fi
[ -d "$work/edition/solutions" ] && { echo "FAILED: the edition holds solutions/"; exit 1; }
echo "ok: the student edition configures"
