#!/usr/bin/env bash
# Makes sure the build folder is configured for this checkout; run before every build by the Makefile, and silent
# (a few milliseconds) when it is.
#   - configured for another checkout (copied or moved): one sentence, exit 2; nothing is deleted;
#   - never configured, or a configuration that failed or was interrupted (cache missing, empty or half-written, or
#     never generated): the Debian packages are checked (packages.sh), CMake's own files (CMakeCache.txt,
#     CMakeFiles/) are removed and CMake runs again. Nothing else in the folder is touched (results/ stays).
# Usage: configure.sh BUILD_DIR   (from the repository root)
set -uo pipefail
unset MAKEFLAGS MFLAGS MAKELEVEL  # CMake's generator runs make itself; it must not inherit this make's flags
build=${1:-build}
here=$(dirname "$0")
src=$(pwd -P)
cache=$build/CMakeCache.txt

entry() { sed -n "s/^$1:INTERNAL=//p" "$cache" 2>/dev/null | head -n 1; }

if [ -s "$cache" ]; then
  home=$(entry CMAKE_HOME_DIRECTORY)
  cachedir=$(entry CMAKE_CACHEFILE_DIR)
  if [ -n "$home" ] && { [ "$(realpath -m "$home")" != "$src" ] ||
                         { [ -n "$cachedir" ] && [ "$(realpath -m "$cachedir")" != "$(realpath -m "$build")" ]; }; }; then
    echo "workbook: the build folder $build/ belongs to another checkout ($home); remove it (rm -rf $build) and run make again." >&2
    exit 2
  fi
  # Complete: the entries CMake writes last in each section, a final newline, and the files of the generate step.
  generator=$(entry CMAKE_GENERATOR)
  case "$generator" in
    Ninja*) build_file=$build/build.ninja ;;
    *) build_file=$build/Makefile ;;
  esac
  if [ -n "$home" ] && [ -n "$generator" ] && [ -n "$(entry CMAKE_COMMAND)" ] && [ "$(tail -c 1 "$cache" | od -An -c | tr -d ' ')" = '\n' ] &&
     [ -f "$build_file" ] && [ -f "$build/workbook-config.json" ]; then
    exit 0
  fi
  echo "workbook: the configuration in $build/ is incomplete (an earlier configuration failed or was interrupted); configuring again."
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
elif [ -e "$cache" ]; then
  echo "workbook: $cache is empty (an earlier configuration was interrupted); configuring again."
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
fi

"$here/packages.sh" || exit 2
for tool in cmake g++ make; do
  command -v "$tool" >/dev/null 2>&1 || { echo "workbook: '$tool' is not installed (needed to build the grader)." >&2; exit 2; }
done

mkdir -p "$build"
echo "workbook: configuring the build in $build/ (once; under a minute)…"
log=$build/.configure.log
if ! cmake -S . -B "$build" > "$log" 2>&1; then
  grep -h -E "Missing|Install it with|CMake Error" "$log" | head -n 8 >&2
  echo "workbook: configuring failed; the full log is $log. Fix what it names and run make again." >&2
  exit 2
fi
