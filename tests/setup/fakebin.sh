# Sourced by the setup tests: writes stand-ins for the commands the Makefile's setup runs, each recording how it was
# called in $FAKE/calls. Controlled by files in $FAKE: installed (package names), unavailable (names the package
# sources lack), uid, sudo_ok, cmake_fails, grade_rc.
make_fakebin() {
  local bin=$FAKE/bin
  mkdir -p "$bin"
  : > "$FAKE/calls"; : > "$FAKE/installed"; echo 1000 > "$FAKE/uid"; echo 0 > "$FAKE/grade_rc"

  cat > "$bin/dpkg-query" <<'SH'
#!/usr/bin/env bash
echo "dpkg-query $*" >> "$FAKE/calls"
shift 2  # -W -f=FORMAT
for p in "$@"; do
  case "$p" in -f*) continue ;; esac
  grep -qx -- "$p" "$FAKE/installed" && echo "$p install ok installed" || echo "dpkg-query: no packages found matching $p" >&2
done
exit 0
SH
  cat > "$bin/apt-get" <<'SH'
#!/usr/bin/env bash
echo "apt-get $* (uid $(cat "$FAKE/uid"), DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-})" >> "$FAKE/calls"
if [ "$1" = install ]; then for p in "$@"; do case "$p" in -*|install) ;; *) echo "$p" >> "$FAKE/installed" ;; esac; done; fi
exit 0
SH
  cat > "$bin/apt-cache" <<'SH'
#!/usr/bin/env bash
echo "apt-cache $*" >> "$FAKE/calls"
[ "$1" = show ] || exit 0
for p in "$@"; do
  case "$p" in -*|show) ;; *) grep -qsx -- "$p" "$FAKE/unavailable" && { echo "E: No packages found" >&2; exit 100; } ;; esac
done
echo "Package: $*"
SH
  cat > "$bin/sudo" <<'SH'
#!/usr/bin/env bash
echo "sudo $*" >> "$FAKE/calls"
[ -e "$FAKE/sudo_ok" ] || { echo "sudo: a password is required" >&2; exit 1; }
[ "$1" = -n ] && shift
saved=$(cat "$FAKE/uid"); echo 0 > "$FAKE/uid"; "$@"; rc=$?; echo "$saved" > "$FAKE/uid"; exit $rc
SH
  cat > "$bin/id" <<'SH'
#!/usr/bin/env bash
[ "$1" = -u ] && { cat "$FAKE/uid"; exit 0; }
exec /usr/bin/id "$@"
SH
  # cmake: `-S . -B DIR` writes a cache like CMake's (or fails, printing CMake's missing-package sentence);
  # `--build DIR --target T…` "compiles" (progress lines) the first time, then has nothing to do.
  cat > "$bin/cmake" <<'SH'
#!/usr/bin/env bash
echo "cmake $*" >> "$FAKE/calls"
if [ "$1" = -S ]; then
  b=$4
  if [ -e "$FAKE/cmake_fails" ]; then
    echo "CMake Error at CMakeLists.txt:16 (message):"; echo "  Missing Catch2. Install it with:  sudo apt-get install -y catch2"
    printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\nCMAKE_GENERATOR:INTERNAL=Unix Makefiles\n' "$(pwd -P)" > "$b/CMakeCache.txt"
    exit 1
  fi
  mkdir -p "$b/CMakeFiles"
  printf '# This is the CMakeCache file.\nCMAKE_CACHEFILE_DIR:INTERNAL=%s\nCMAKE_COMMAND:INTERNAL=/usr/bin/cmake\nCMAKE_GENERATOR:INTERNAL=Unix Makefiles\nCMAKE_HOME_DIRECTORY:INTERNAL=%s\n' \
    "$(realpath "$b")" "$(pwd -P)" > "$b/CMakeCache.txt"
  echo "# generated" > "$b/Makefile"; echo "{}" > "$b/workbook-config.json"
  echo "-- Generating done"
  exit 0
fi
if [ "$1" = --build ]; then
  b=$2
  [ -n "${MAKEFLAGS:-}" ] && { echo "cmake --build inherited MAKEFLAGS=$MAKEFLAGS" >> "$FAKE/calls"; }
  if [ ! -e "$b/grader/cli/workbook" ]; then
    echo "[ 10%] Building CXX object grader/cli/CMakeFiles/workbook_lib.dir/grade/grade.cpp.o"
    echo "[ 60%] Building CXX object grader/emulator/CMakeFiles/emu_runtime.dir/runtime/scheduler.cpp.o"
    echo "[100%] Linking CXX executable workbook"
    mkdir -p "$b/grader/cli"
    cat > "$b/grader/cli/workbook" <<'WB'
#!/usr/bin/env bash
echo "workbook $*" >> "$FAKE/calls"
rc=$(cat "$FAKE/grade_rc")
echo "NOT PASSED or PASSED, the fake report"; echo "Exit status $rc: what it means."
exit "$rc"
WB
    chmod +x "$b/grader/cli/workbook"
  else
    echo "[100%] Built target workbook"
  fi
  exit 0
fi
exit 0
SH
  for t in g++ make; do :; done
  chmod +x "$bin"/*
}
