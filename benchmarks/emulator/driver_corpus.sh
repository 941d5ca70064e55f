#!/usr/bin/env bash
# Not a test: build and run time of each program of the emu-nvcc corpus (grader/emulator/tests/programs/driver) on
# the emulator, against `nvcc -c` of the same sources, and the emulator's throughput (benchmarks/emulator/
# throughput.cu). Prints a Markdown table (docs/emulator.md, "Benchmark").
#
#   benchmarks/emulator/driver_corpus.sh [BUILD_DIR]     (default: build; emu-nvcc must be built)
#
# ccache is disabled for every compile, so build times are real compiles. nvcc gets -rdc=true (multi_tu calls a
# __device__ function across units) and -arch=sm_90. Times are CPU seconds (user + sys of the
# command and its children) and wall seconds; on a shared machine, CPU time is the steadier of the two.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
emu_nvcc=$build/grader/emulator/driver/emu-nvcc
src=$root/grader/emulator/tests/programs/driver
nvcc=$(command -v nvcc || true)
[ -x "$emu_nvcc" ] || { echo "build emu-nvcc first: cmake --build $build --target emu-nvcc" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CCACHE_DISABLE=1

# Runs a command under /usr/bin/time; prints "cpu wall" seconds (children included), fails if the command fails.
timed() {
  local out=$work/time.txt
  /usr/bin/time -f "%U %S %e" -o "$out" "$@" > "$work/last.log" 2>&1 || { cat "$work/last.log" >&2; return 1; }
  awk '{ printf "%.2f %.2f\n", $1 + $2, $3 }' "$out"
}

programs=(
  "shared_in_header:shared_in_header.cu"
  "macro_launch:macro_launch.cu"
  "helper_header:helper_header.cu"
  "arch_branches:arch_branches.cu"
  "multi_tu:multi_tu_main.cpp multi_tu_saxpy.cu multi_tu_reduce.cu"
  "ubsan_shift:ubsan_shift.cu"
  "row_bound_bug:row_bound_bug.cu"
  "header_shared_overrun:header_shared_overrun.cu"
)
echo "| program | emu-nvcc build, CPU / wall s | run on the emulator, CPU / wall s | nvcc -c, CPU / wall s |"
echo "| --- | --- | --- | --- |"
for entry in "${programs[@]}"; do
  name=${entry%%:*}
  files=()
  for f in ${entry#*:}; do files+=("$src/$f"); done
  read -r bc bw < <(timed "$emu_nvcc" -o "$work/$name" "${files[@]}")
  # Planted bugs exit 0 after their report; a correct program prints PASS.
  read -r rc rw < <(timed "$work/$name")
  nv="(no nvcc)"
  if [ -n "$nvcc" ]; then
    total_c=0 total_w=0
    for f in "${files[@]}"; do
      read -r c w < <(timed "$nvcc" -arch=sm_90 -std=c++17 -rdc=true -c "$f" -o "$work/nvcc.o")
      total_c=$(awk -v a="$total_c" -v b="$c" 'BEGIN { print a + b }')
      total_w=$(awk -v a="$total_w" -v b="$w" 'BEGIN { print a + b }')
    done
    nv="$total_c / $total_w"
  fi
  echo "| $name | $bc / $bw | $rc / $rw | $nv |"
done

"$emu_nvcc" -o "$work/throughput" "$root/benchmarks/emulator/throughput.cu"
echo
"$work/throughput"
